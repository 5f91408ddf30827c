"""Consistency over a whole file, both ways (issue 48; Xbench's "inconsistency in source" and "in
target"): one source translated two ways, and two different sources given one translation.

Texts are compared normalised (:func:`normalised`): whitespace collapsed (a help text's column
padding), the marks at the end (``.``, ``:``, ``!``, ``?``, ``…``) and a menu's accelerator
(``&File``, ``_File``) dropped, so that ``Done`` and ``Done.`` are one source, and ``Hecho`` and
``Hecho.`` one translation; case is kept (``-W`` and ``-w`` are two options). Each group is reported once, with every line it stands on.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Iterable

_END = re.compile(r"[\s.:!?…。．！？]+$")
_ACCELERATOR = re.compile(r"(?<![\w&_])[&_](?=\w)")


def normalised(text: str) -> str:
    """``text`` as consistency compares it: NFC, whitespace collapsed, no final marks nor accelerator."""
    text = unicodedata.normalize("NFC", text)
    return _END.sub("", " ".join(_ACCELERATOR.sub("", text).split()))


@dataclass(frozen=True)
class Entry:
    """One message as consistency reads it: where it stands (its line), its texts, and its
    context (a PO ``msgctxt``: messages of different contexts may differ)."""

    line: int
    source: str
    translation: str
    context: str = ""


@dataclass(frozen=True)
class Inconsistency:
    """A group of messages that disagree: ``kind`` ``source`` (one source, several translations)
    or ``target`` (several sources, one translation), and the messages, first line first."""

    kind: str
    entries: tuple[Entry, ...]

    def variants(self) -> list[str]:
        """The texts that differ: the translations of one source, or the sources of one translation."""
        side = (lambda e: e.translation) if self.kind == "source" else (lambda e: e.source)
        return list(dict.fromkeys(side(e) for e in self.entries))


def inconsistencies(entries: Iterable[Entry], *, target: bool = True) -> list[Inconsistency]:
    """Every group of ``entries`` with one normalised source (and context) and more than one
    normalised translation, then (``target``) every group with one normalised translation and more
    than one normalised source; each group once, in the order of its first line."""
    entries = list(entries)
    out = _groups(entries, "source", lambda e: (e.context, normalised(e.source)), lambda e: normalised(e.translation))
    if target:
        # sources that differ by case alone ("Memory exhausted", "memory exhausted") are one message here
        out += _groups(entries, "target", lambda e: (e.context, normalised(e.translation)),
                       lambda e: normalised(e.source).casefold())
    return sorted(out, key=lambda g: g.entries[0].line)


def _groups(entries, kind, key, other) -> list[Inconsistency]:
    groups: dict[tuple, list[Entry]] = {}
    for e in entries:
        if normalised(e.source) and normalised(e.translation):
            groups.setdefault(key(e), []).append(e)
    return [Inconsistency(kind, tuple(sorted(g, key=lambda e: e.line))) for g in groups.values()
            if len({other(e) for e in g}) > 1]


__all__ = ["Entry", "Inconsistency", "inconsistencies", "normalised"]
