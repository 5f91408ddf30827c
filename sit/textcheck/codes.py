"""Inline codes of a message, counted and in order (issue 48): XLIFF's ``<x/>``, ``<g>``, ``<ph>``,
``<bpt>``/``<ept>``, ``<bx/>``/``<ex/>``, ``<it>`` and HTML tags, as a localisation gate compares
them (Xbench's tag mismatch, CheckMate's code differences). A code is told by its element and
its ``id`` (an HTML tag by its name), so that ``<g id="2">`` and ``</g>`` are one pair and a code
moved is seen wherever its text went.

XLIFF files give their codes from the XML (:func:`xliff_codes`): translate-toolkit's reader leaves
them out of a unit's text. Other inputs give the tags written in the text (:func:`text_codes`).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, Sequence

#: XLIFF 1.2 and 2.0 inline elements that stand for codes (``mrk`` and ``sub`` hold text)
XLIFF_CODES = frozenset({"x", "g", "ph", "bpt", "ept", "bx", "ex", "it", "pc", "sc", "ec", "cp"})
#: XLIFF elements whose content is the native code, not text (read as one code)
XLIFF_OPAQUE = frozenset({"ph", "bpt", "ept", "it"})
_TAG = re.compile(r"<(/?)([A-Za-z][\w:-]*)\b([^<>]*?)(/?)>")
_ID = re.compile(r"""\bid\s*=\s*["']([^"']*)["']""")


@dataclass(frozen=True)
class CodeDifference:
    """How a translation's inline codes differ from its source's: the codes it lacks and those it
    adds (each as often as it differs), and whether the codes both have stand in another order."""

    missing: tuple[str, ...] = ()
    extra: tuple[str, ...] = ()
    reordered: bool = False

    def __bool__(self) -> bool:
        return bool(self.missing or self.extra or self.reordered)


def text_codes(text: str) -> tuple[str, ...]:
    """The tags written in ``text`` that are inline codes (XLIFF elements, HTML tags), in order,
    each as ``<name id>``, ``</name id>`` or ``<name id/>`` (no other attribute)."""
    from .software import software_tokens

    return tuple(_told(m) for tok in software_tokens(text) if tok.kind in ("xliff", "markup")
                 for m in [_TAG.fullmatch(tok.text)] if m)


def _told(m: re.Match) -> str:
    close, name, attributes, empty = m.groups()
    ident = _ID.search(attributes)
    ident_text = f" {ident.group(1)}" if ident else ""
    return f"<{close}{name.lower()}{ident_text}{empty}>"


def xliff_codes(element: Any) -> tuple[str, ...]:
    """The inline codes of an XLIFF ``<source>`` or ``<target>`` element (lxml), in document
    order: ``<x 1/>``, ``<g 2>`` ... ``</g 2>``, ``<ph 3/>`` (a code whose content is native code
    counts as one, its content unread)."""
    out: list[str] = []
    _walk(element, out)
    return tuple(out)


def _walk(element: Any, out: list[str]) -> None:
    for child in element:
        if not isinstance(child.tag, str):  # a comment or a processing instruction
            continue
        name = child.tag.rsplit("}", 1)[-1]
        if name not in XLIFF_CODES:
            _walk(child, out)
            continue
        ident = child.get("id") or child.get("rid") or ""
        told = f"{name} {ident}".strip()
        if name in XLIFF_OPAQUE or len(child) == 0 and not (child.text or "").strip() and name not in ("g", "pc"):
            out.append(f"<{told}/>")
            continue
        out.append(f"<{told}>")
        _walk(child, out)
        out.append(f"</{told}>")


def compare_codes(source: Sequence[str], translation: Sequence[str]) -> CodeDifference:
    """How the codes ``translation`` writes differ from those of ``source``: by count (missing,
    extra) and, where both write the same codes, by order."""
    want, got = Counter(source), Counter(translation)
    missing = tuple((want - got).elements())
    extra = tuple((got - want).elements())
    reordered = not missing and not extra and tuple(source) != tuple(translation)
    return CodeDifference(missing, extra, reordered)


__all__ = ["CodeDifference", "XLIFF_CODES", "compare_codes", "text_codes", "xliff_codes"]
