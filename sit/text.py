"""Plain-text helpers every room shares."""

from __future__ import annotations


def squeeze(text: str) -> str:
    """``text`` with every run of whitespace (newlines and tabs included) made one space, and none
    at either end: how sit compares and sends texts whose spacing does not matter."""
    return " ".join(text.split())
