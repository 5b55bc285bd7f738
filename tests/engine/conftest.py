from engine_helpers import rigged  # noqa: F401  (the fixture)
