"""Quick-match ladder: player keys and names, Glicko-2 ratings, the shared store
(SQLite embedded, PostgreSQL for several server processes) and the pairing policy.

Nothing here knows the server's transport: koikoi.net calls these functions.
"""
