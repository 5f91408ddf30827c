"""Markdown that fits where it is pasted: a pull-request comment holds 65,536 characters, so
``sit report -f markdown`` and ``sit compare -f markdown`` keep to ``--max-chars`` (default
:data:`MAX_CHARS`). The summary and tables always come first; the listed items (flagged sentences,
compared cases) follow in their order, top items first, while they fit; the rest is cut, with a
line saying how many were left out and where the full report is.
"""

from __future__ import annotations

from typing import Optional

#: the default budget: under GitHub's 65,536 characters with room for a bot's own words
MAX_CHARS = 60_000
#: kept free for what follows the items (closing tags, the line saying what was cut)
RESERVE = 600


class Budget:
    """Characters left for items: :meth:`item` takes an item's lines while they fit (after the
    first that does not, none: the order is the ranking), :meth:`fixed` lines that must be there.
    ``max_chars`` None: no limit."""

    def __init__(self, max_chars: Optional[int] = MAX_CHARS, reserve: int = RESERVE):
        self.max_chars = max_chars
        self.left = None if max_chars is None else max_chars - reserve
        self.dropped = 0

    def fixed(self, lines: list[str]) -> list[str]:
        if self.left is not None:
            self.left -= sum(len(line) + 1 for line in lines)
        return lines

    def item(self, lines: list[str]) -> list[str]:
        size = sum(len(line) + 1 for line in lines)
        if self.left is None or (not self.dropped and size <= self.left):
            if self.left is not None:
                self.left -= size
            return lines
        self.dropped += 1
        return []

    def skip(self, items: int) -> None:
        """Count ``items`` as left out without making them (after an item left out, every later
        one is: :meth:`item` would refuse each)."""
        self.dropped += max(0, items)

    def note(self, noun: str, where: str) -> list[str]:
        """The line saying what was cut (nothing where nothing was)."""
        if not self.dropped:
            return []
        return ["", f"**{self.dropped} {noun} left out** to keep this under {self.max_chars:,} characters "
                    f"(--max-chars); {where}", ""]


def fit(text: str, max_chars: Optional[int], where: str) -> str:
    """``text`` itself where it fits, else cut at a line boundary with a last line saying so: the
    guarantee behind the item budget, for a summary alone longer than ``max_chars``."""
    if max_chars is None or len(text) <= max_chars:
        return text
    tail = f"\n\n**cut at {max_chars:,} characters** (--max-chars); {where}\n"
    close = "\n</details>"
    room = len(close) * text.count("<details")  # every collapsed section cut open is closed again
    cut = text[: max(0, max_chars - len(tail) - room)]
    cut = cut[: cut.rfind("\n")] if "\n" in cut else cut
    return cut + close * max(0, cut.count("<details") - cut.count("</details>")) + tail
