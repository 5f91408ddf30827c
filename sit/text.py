"""Plain-text helpers every room shares."""

from __future__ import annotations

import re


def squeeze(text: str) -> str:
    """``text`` with every run of whitespace (newlines and tabs included) made one space, and none
    at either end: how sit compares and sends texts whose spacing does not matter."""
    return " ".join(text.split())


def quoted(text: str, limit: int = 60) -> str:
    """``text`` squeezed and in curly quotes, cut to ``limit`` characters with an ellipsis: how a
    title quotes a word or a sentence ("“Said” is left untranslated")."""
    text = squeeze(str(text))
    return "“" + (text if len(text) <= limit else text[:limit - 1] + "…") + "”"


# C0 controls but tab and newline, DEL, C1 controls (0x9b is a terminal's CSI), lone surrogates
# (no UTF-8 file or XML can carry one) and the two noncharacters XML refuses
_UNPRINTABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
_UNPRINTABLE_OR_NEWLINE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


def _escaped(match: re.Match) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str, *, one_line: bool = False) -> str:
    """``text`` safe to print, to write to a file a terminal may show and to put in XML: control
    characters (ESC and BEL would run in a terminal; XML cannot carry them) and lone surrogates are
    written as visible escapes (``\\x1b``, ``\\udcff``); tabs and newlines stay (with
    ``one_line``, newlines too are escaped, ``\\x0a``). Text without them is returned as it is."""
    pattern = _UNPRINTABLE_OR_NEWLINE if one_line else _UNPRINTABLE
    return pattern.sub(_escaped, text) if pattern.search(text) else text


#: the HTML tags sit's Markdown writes itself (collapsed sections, bold status names)
_OWN_TAGS = re.compile(r"<(?!/?(?:details|summary|b)(?: open)?>)")


def inert_markdown(text: str) -> str:
    """Markdown that a page rendering HTML (a pull-request comment, a wiki) shows as text: every
    ``<`` that does not open one of sit's own tags (``<details>``, ``<summary>``, ``<b>``) is
    written ``&lt;``, so no tag or event handler from a text or a damaged run.json is live, and
    the text is :func:`printable`. A safety net under each writer's own escaping."""
    return _OWN_TAGS.sub("&lt;", printable(text))
