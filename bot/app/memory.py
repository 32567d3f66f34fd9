"""Memory a burst of requests borrowed goes back to the system when the burst ends.

glibc serves allocations above a threshold with their own mmap, unmapped when freed, and the
rest from its heap, which it seldom gives back. The threshold rises with the largest block freed
(up to 32 MB), so after one burst of 256 KB socket reads every later read came from the heap:
300 concurrent 2 MB uploads left ~55 MB more resident for good. A fixed threshold keeps such
buffers mapped on their own (measured: 119 MB resident after the burst, 77 MB with it, 64 MB before).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging

log = logging.getLogger("quizhost")

M_MMAP_THRESHOLD = -3  # glibc's mallopt parameter (malloc.h)
MMAP_BYTES = 16 << 10


def return_large_buffers() -> bool:
    """Fix glibc's mmap threshold at MMAP_BYTES; False (and nothing changed) on another C library."""
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name)
        return bool(libc.mallopt(M_MMAP_THRESHOLD, MMAP_BYTES))
    except (OSError, AttributeError, TypeError):  # no libc found, or one without mallopt (musl, macOS)
        log.debug("mallopt is not available: freed buffers stay with the process")
        return False
