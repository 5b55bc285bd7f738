"""Engine tests: exact positions come from engine_helpers (the public ``new_match(decks=...)``)."""
