"""Play over the network: a server-authoritative match server and its client.

    koikoi serve --port 8765                      # the server (koikoi.net.server)
    from koikoi.net.client import Connection, ThreadedClient

The engine runs only on the server (``koikoi.net.server``); each connection is
sent only what its seat may see (``koikoi.net.protocol.wire_event``: the
engine's ``public_event`` with the seed blanked), and the client builds its
table by folding those events (``koikoi.engine.table.fold``). Rooms and their
logs live in SQLite (``koikoi.net.rooms``). The wire format is documented in
``koikoi.net.protocol``.

Importing this package imports nothing heavy: ``websockets`` is imported by the
server and client modules only.
"""

from .protocol import PROTOCOL_VERSION

__all__ = ["PROTOCOL_VERSION"]
