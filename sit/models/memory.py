"""Handing memory back to the system once a stage's models are let go."""

from __future__ import annotations

import ctypes
import gc


def give_back_memory() -> None:
    """Free what a stage let go of (a collection pass: models refer to themselves) and ask the C
    library to hand its freed pages back to the system (glibc's ``malloc_trim``; elsewhere,
    nothing more): without it, the pages of a released model stay with the process, and the next
    stage's models load above them, so the run's peak is both stages' models together."""
    gc.collect()
    try:
        trim = ctypes.CDLL(None).malloc_trim  # the process's own symbols, the C library's among them
    except (OSError, AttributeError):  # a C library without malloc_trim (musl, macOS)
        trim = None
    if trim is not None:
        trim(0)
