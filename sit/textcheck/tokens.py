"""Pass-through tokens: what a translation must carry over verbatim (URLs, e-mail addresses,
@handles, #hashtags, emoji, inline code, placeholders and markup tags).

The patterns are linear (no nested quantifiers), so a 10,000-character token costs a scan, not a
backtracking blow-up; markup is matched tag by tag, so malformed markup is only fewer tokens.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

#: (kind, pattern), earlier kinds first where two could match the same text
PATTERNS: tuple[tuple[str, str], ...] = (
    ("url", r"\b(?:https?://|www\.)[^\s<>\"'`]*[^\s<>\"'`.,;:!?)\]]"),
    ("email", r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+"),
    ("placeholder", r"\{\{\s*\w+\s*\}\}|\{\w*\}|%\(\w+\)[sdifr]|%[sdif]"),
    ("code", r"`[^`\n]+`"),
    ("markup", r"</?[A-Za-z][A-Za-z0-9]*(?:\s[^<>]*)?/?>"),
    ("handle", r"(?<![\w@.])@\w+"),
    ("hashtag", r"(?<![\w#&])#\w*[A-Za-z_]\w*"),
    ("emoji", "[\U0001F000-\U0001FAFF\u2600-\u27BF\u2B00-\u2BFF]\uFE0F?"),
)
TOKEN = re.compile("|".join(f"(?P<{kind}>{pattern})" for kind, pattern in PATTERNS))


@dataclass(frozen=True)
class Token:
    """One pass-through token of a text: its kind, as written, where it stands."""

    kind: str
    text: str
    start: int
    end: int


def tokens_of(text: str) -> list[Token]:
    """The pass-through tokens of ``text``, in order (none: an empty list)."""
    return [Token(m.lastgroup or "", m.group(), m.start(), m.end()) for m in TOKEN.finditer(text)]


def missing_tokens(source: str, translation: str) -> list[Token]:
    """The tokens of ``source`` that ``translation`` does not carry verbatim as often (each
    occurrence beyond what the translation has, in order)."""
    have = Counter()
    out = []
    for tok in tokens_of(source):
        have[tok.text] += 1
        if translation.count(tok.text) < have[tok.text]:
            out.append(tok)
    return out


def without(text: str, token: str, *, last: bool = False, space: bool = True) -> str:
    """``text`` with one occurrence of ``token`` taken out (the first, or the ``last``), and with
    ``space`` the space before it."""
    at = text.rfind(token) if last else text.find(token)
    if at < 0:
        return text
    before = text[:at].rstrip(" ") if space and at and text[at - 1] == " " else text[:at]
    return before + text[at + len(token):]


def outside_tokens(text: str, change) -> str:
    """``text`` with ``change`` applied to each stretch between its pass-through tokens (a URL in
    upper case is another URL), the tokens as they were."""
    out, end = [], 0
    for m in TOKEN.finditer(text):
        out.append(change(text[end:m.start()]))
        out.append(m.group())
        end = m.end()
    out.append(change(text[end:]))
    return "".join(out)
