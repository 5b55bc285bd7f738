"""Card-art painters used by tools/make_cards.py (Pillow only, deterministic)."""
