"""How the game asks the C library to hand big blocks back to the system (glibc only).

    tune_malloc()      # once, before the first window-sized surface (koikoi.ui.app.App does)
"""

from __future__ import annotations

import ctypes
import sys

# glibc hands out blocks of at least this size with their own mmap, so freeing them gives
# the memory back to the system at once (see tune_malloc).
MMAP_THRESHOLD = 256 * 1024
_M_MMAP_THRESHOLD = -3          # mallopt's parameter number (malloc.h)


def tune_malloc(threshold: int = MMAP_THRESHOLD) -> bool:
    """On glibc, give every block of ``threshold`` bytes or more its own mapping.

    Window-sized surfaces are 8 MB at 1920x1080 (a scene's layers, the felt, a
    results panel being drawn). glibc starts by mapping blocks over 128 KB on
    their own, but the first one freed raises that limit to its size, so from
    then on such surfaces come from the ordinary heap, where small blocks
    allocated after them pin the space they leave: a long session held 50-90 MB
    of freed memory that way (tools/soak.py; malloc_trim gave it back). A fixed
    threshold keeps big surfaces out of the heap; the round table allocates
    almost none per frame, so it costs no frame time. True if it was set; a
    no-op elsewhere (other C libraries return big blocks on their own).
    """
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None)
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    if not hasattr(libc, "gnu_get_libc_version"):   # glibc only (musl's mallopt does nothing)
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    try:
        return bool(mallopt(_M_MMAP_THRESHOLD, int(threshold)))
    except Exception:  # pragma: no cover - a foreign libc
        return False


__all__ = ["MMAP_THRESHOLD", "tune_malloc"]
