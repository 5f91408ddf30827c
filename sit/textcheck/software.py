"""Software text in a message: what a translation of a program's strings carries over as it was
(format specifiers, URLs, option names, inline code, markup, XLIFF inline codes) and what is no
prose to translate (identifiers, paths, environment variables, terms the source quotes as code,
command synopses), so that the ``passthrough`` and ``language`` checks read a message catalogue
as a localiser does (issue 48, docs/check.md).

Every pattern is linear (no nested quantifiers); an ICU MessageFormat argument is read by a scan
that counts braces, so a long or malformed message costs a pass, not a blow-up.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Optional

from .tokens import Token

#: printf conversions, with positions (``%1$s``), flags (no space: ``50 % de`` is prose), width,
#: precision, length modifiers and gettext's ``%<PRIuMAX>``; ``%%`` first, a literal percent sign
#: (``%%0A`` holds no ``%0A``)
PRINTF = (r"%%|%(?:\d+\$)?[-+#0']*(?:\d+|\*(?:\d+\$)?)?(?:\.(?:\d+|\*(?:\d+\$)?))?"
          r"(?:<PRI[a-zA-Z0-9]+>|(?:hh|ll|[hlLqjzZt]|I64|I32)?[diouxXeEfFgGaAcspn@])")
#: (kind, pattern, verbatim): earlier kinds first where two could match the same text; ``verbatim``
#: tokens must stand in a translation as in the source, the others are only no prose
PATTERNS: tuple[tuple[str, str, bool], ...] = (
    ("url", r"\b(?:https?|ftp|file)://[^\s<>\"'`]*[^\s<>\"'`.,;:!?)\]]|\bwww\.[\w-]+(?:\.[\w-]+)+", True),
    ("email", r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+", True),
    ("xliff", r"</?(?:x|g|ph|bx|ex|bpt|ept|it|mrk|sub|pc|sc|ec|cp)\b[^<>]*>", True),
    ("python", r"%\([\w.-]+\)[-+#0]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa]", True),
    ("printf", PRINTF, True),
    ("qt", r"%L?\d{1,2}(?!\d)", True),
    ("template", r"\{\{\s*[\w.]+\s*\}\}|\$\{[\w.:-]+\}|%[A-Za-z_]\w*%", True),
    ("brace", r"\{[A-Za-z_\d][\w.\[\]]*(?:![rsa])?(?:[:,][^{}\n]{0,40})?\}|\{\}", True),
    ("code", r"`[^`'\n%]+`", True),  # a format specifier in backticks is one: `%s`
    ("markup", r"</?(?:a|abbr|b|big|blockquote|br|code|div|em|font|h[1-6]|hr|i|img|kbd|li|ol|p|pre|q|s|samp|small|"
               r"span|strike|strong|sub|sup|table|td|th|tr|tt|u|ul|var)\b[^<>]*/?>", True),
    # not an operand after the end of options ("rm -- -foo": a file's name, an example a translator may
    # change), nor a word after a percent sign ("%%-expand")
    ("option", r"(?<![\w/.'`%-])(?<!-- )(?:--[a-z0-9][\w-]*|-(?![A-Z]{2,}\b|\d{3})[A-Za-z0-9][\w-]*)", True),
    ("value", r"(?<==)[\w.:-]+(?:,[\w.:-]+)+|\[:\w+:\]", False),
    # the values an option takes, listed after a colon or bracket: "MODE can be: abort (default), fail, warn"
    ("values", r"(?<=[:(])[ \t\n]*[a-z][\w-]*(?:[ \t]\([\w ]{1,20}\))?(?:,[ \t\n]*[a-z][\w-]*(?:[ \t]\([\w ]{1,20}\))?){2,}",
     False),
    # a legend of one-letter keys: "e - [n]eqn, p - pic, t - tbl" (man-db's preprocessors)
    ("legend", r"\b[A-Za-z] - [\w\[\]]+(?:,\s+[A-Za-z] - [\w\[\]]+)+", False),
    ("term", r"(?:(?<=\n)|(?<!.))[ \t]+\S+(?:,[ \t]\S+)*(?=[ \t]{2,}|\t)", False),
    ("metavariable", r"<[A-Za-z][\w .-]{0,40}>", False),
    ("quoted", r"`[^`'\n%{<$]{1,60}'|(?<!\w)'[^'\s%{<$][^'\n%{<$]{0,40}?'(?!\w)|\"[^\"\s%{<$][^\"\n%{<$]{0,40}?\""
               r"|[«»“‘„‚「][^«»”’“‘\n%{<$]{1,40}[«»”’“‘」]",
     False),
    ("env", r"\$\{?[A-Z_][A-Z0-9_]*\b\}?", True),
    ("variable", r"\$[a-z]\w*", False),
    ("prefix", r"(?:(?<=\n)|(?<!.))[ \t]*[a-z][\w.-]*(?=: )", False),
    ("choice", r"\b\w+(?:\|\w+)+\b", False),
    ("path", r"(?<![\w/.])(?:~|\.{1,2})?(?:/[\w.+-]+)+/?|\b[A-Za-z]:\\[\w\\.-]+|\b[A-Za-z]\w*(?:/[A-Za-z]\w*)+\b", False),
    ("identifier", r"\b[A-Za-z_]\w*(?:(?:::|->)\w+)+(?:\(\))?|\b\w+\(\)|\b[A-Za-z]\w*_\w+\b"
                   r"|\b[a-z]+[A-Z]\w*\b|\b[A-Za-z_]\w*(?:\[\w*\])?(?:\.[A-Za-z_]\w+(?:\[\w*\])?)+\b|\b\w+\[\w*\]|\b[a-z_]\w*(?=\()|\b[a-z]+(?:-[a-z]+)+\b", False),
    ("caps", r"\b[A-Z]{2,}[A-Z0-9]*\b", False),
)
SOFTWARE = re.compile("|".join(f"(?P<{kind}>{pattern})" for kind, pattern, _ in PATTERNS))
VERBATIM = frozenset(kind for kind, _, verbatim in PATTERNS if verbatim)
#: the kinds that are format specifiers: a program fills them in, so one lost or changed breaks it
PLACEHOLDERS = frozenset({"python", "printf", "qt", "template", "brace", "icu"})
_ICU = re.compile(r"\{\s*([A-Za-z_]\w*)\s*,\s*(plural|select|selectordinal)\s*,")
#: one word of a command synopsis: command words, options, brackets, braces, alternatives, ellipses,
#: metavariables in capitals or in angle brackets, with the ";" that ends a command (no format specifier)
_SYNOPSIS_WORD = re.compile(r"[\[\]{}()|;,<>=.:\w-]+")
#: the second word of a synopsis: an option, a bracket or brace, or a metavariable in capitals
_SYNOPSIS_SECOND = re.compile(r"[\[{(<-].*|[A-Z][A-Z0-9_-]*[;,]?")


def verbatim(token: Token) -> bool:
    """Whether ``token`` must stand in a translation as in the source (:data:`VERBATIM`, ICU heads)."""
    return token.kind in VERBATIM or token.kind == "icu"


def software_tokens(text: str) -> list[Token]:
    """The software text of ``text``, in order: each :data:`PATTERNS` match, and of an ICU
    MessageFormat argument (``{n, plural, one {# file} other {# files}}``) its head (``{n,plural,``)
    and the tokens of its messages (their words are prose)."""
    return _tokens(text, 0, len(text))


def _tokens(text: str, start: int, stop: int) -> list[Token]:
    out, at = [], start
    for m in _ICU.finditer(text, start, stop):
        if m.start() < at:
            continue
        out += _plain(text, at, m.start())
        out.append(Token("icu", re.sub(r"\s+", "", m.group()), m.start(), m.end()))
        inner, at = _icu_messages(text, m.end(), stop)
        out += inner
    return out + _plain(text, at, stop)


def _plain(text: str, start: int, stop: int) -> list[Token]:
    return [Token(m.lastgroup or "", m.group(), m.start(), m.end()) for m in SOFTWARE.finditer(text, start, stop)]


def _icu_messages(text: str, at: int, stop: int) -> tuple[list[Token], int]:
    # the selectors and {messages} of an ICU argument from ``at`` to its closing brace: the tokens of
    # each message, and where the argument ends (``stop`` where it is not closed)
    out = []
    while True:
        m = re.compile(r"\s*(?:offset:\d+\s*)?(=\d+|[A-Za-z_]\w*)\s*\{").match(text, at, stop)
        if m is None:
            close = re.compile(r"\s*\}").match(text, at, stop)
            return out, close.end() if close else stop
        depth, k = 1, m.end()
        while k < stop and depth:
            depth += {"{": 1, "}": -1}.get(text[k], 0)
            k += 1
        out += _tokens(text, m.end(), k - 1 if depth == 0 else k)
        at = k


def prose(text: str) -> str:
    """``text`` with its software text blanked (each token a space): the words left are prose a
    translator translates. A command synopsis (``wait [-fn] [-p var] [id ...]``) is blanked whole,
    and so is a word the text also uses as a program's term: in capitals (``until`` beside
    ``UNTIL``), or as part of an option or identifier (``alloc`` beside ``register_alloc``)."""
    if usage_synopsis(text):
        return ""
    for start, stop in command_spans(text):  # what a user types: blanked, the text's length kept
        text = text[:start] + " " * (stop - start) + text[stop:]
    out, end, terms = [], 0, set()
    for tok in software_tokens(text):
        out.append(text[end:tok.start] + " ")
        end = tok.end
        terms.update(w.lower() for w in re.findall(r"[A-Za-z]{3,}", tok.text) if tok.kind != "quoted")
    out.append(text[end:])
    rest = "".join(out)
    terms.update(w.lower() for w in re.findall(r"\b[A-Z]{3,}\b", rest))
    return re.sub(r"[A-Za-z]{3,}", lambda m: " " if m.group().lower() in terms else m.group(), rest) if terms else rest


#: what a user types, in a program's message: an example command line on a line of its own, indented
#: (``  git update-index --cacheinfo 160000 %s``); a quoted command line (``"git revert (--continue |
#: --quit)"``); a list of bare values, three or more with no ``and``/``or``, in brackets or ending its line
#: (``[all, errors, none, queries]``, ``formats are aligned, asciidoc, csv``); a menu's or help table's
#: first column before its ``  - `` (``filter by pattern   - exclude items``)
_COMMANDS = (re.compile(r"(?m)^[ \t]{2,}[a-z][\w.-]*(?: +\S+)*? +--?[\w-]+.*$"),
             re.compile(r"(?<=[\"'`])[a-z][\w.-]* [^\"'`\n]*?(?: --?[\w-]|\|)[^\"'`\n]*(?=[\"'])"),
             re.compile(r"(?m)\[\s*[\w.-]+(?:\s*[,|]\s*[\w.-]+){2,}\s*\]|\b[a-z][\w.-]*(?:, [a-z][\w.-]*){2,}(?=[.]?\s*$)"),
             re.compile(r"(?m)^[ \t]*\S.*?(?= {2,}- \S)"))


def command_spans(text: str) -> list[tuple[int, int]]:
    """The (start, stop) spans of ``text`` that are what a user types (:data:`_COMMANDS`), not prose."""
    return [m.span() for pattern in _COMMANDS for m in pattern.finditer(text)]


#: a program's internal identifier in a message: snake_case (``make_local_variable``, ``shell_variables``)
#: or camelCase (``getAttr``), in lower case at its start
_IDENTIFIER = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b|\b[a-z]+[A-Z][A-Za-z0-9]*\b")


def internal_names(text: str) -> list[str]:
    """The identifiers of ``text`` that name a program's internals (:data:`_IDENTIFIER`): a message
    naming them is a developer's, which translators leave in English on purpose (bash's
    ``make_local_variable: no function context``)."""
    return _IDENTIFIER.findall(text)


#: a message that is a note to its translators, not a program's text (gnupg's "10 translator see
#: trust.c:uid_trust_string_fixed", whose translation is a width the translator chooses)
_TRANSLATOR_NOTE = re.compile(r"\s*\d*\s*(?:TRANSLATORS?|[Tt]ranslators?)\b:?\s+(?:see|note|please|this|the)\b")


def translator_note(text: str) -> bool:
    """Whether ``text`` is a note to translators that a catalogue holds as a message (:data:`_TRANSLATOR_NOTE`)."""
    return bool(_TRANSLATOR_NOTE.match(text))


def usage_synopsis(text: str) -> bool:
    """Whether ``text`` is a command synopsis: a lower-case command name followed by bracketed
    arguments, options, metavariables and words, no sentence (``wait [-fn] [id ...]``,
    ``break [n]``, git's ``git remote add [<options>] <name> <url>``), on one line or going on
    on lines indented as a synopsis is (git's ``git stash [push [-p|--patch]\n          [-u]``)."""
    words = text.split()
    return (_one_synopsis(text.strip("\n")) and len(words) > 1 and bool(re.match(r"\s*[a-z]", text))
            and (bool(_SYNOPSIS_SECOND.fullmatch(words[1])) or any(re.match(r"\[-?[a-z]|\[<", w) for w in words)
                 or _arguments_last(words))
            and all(_SYNOPSIS_WORD.fullmatch(w) and (w.islower() or w.isupper() or re.match(r"[\[({<|]*-", w)
                                                     or not any(c.isalpha() for c in w)) for w in words))


def _arguments_last(words: list[str]) -> bool:
    # from the first <metavariable> on, arguments alone: metavariables, brackets, options, "...", "|"
    # ("git remote remove <name>"; not "the file <name> is missing")
    first = next((i for i, w in enumerate(words) if re.match(r"[({]*<[\w-]+>", w)), None)
    return first is not None and all(re.match(r"[\[({<|.-]", w) for w in words[first:])


def _one_synopsis(text: str) -> bool:
    # one line, or lines after the first indented by four spaces or more (a synopsis wrapped)
    return all(re.match(r"\s{4}", line) for line in text.split("\n")[1:])


@dataclass(frozen=True)
class Lost:
    """A verbatim token of the source a translation does not carry over: ``missing`` (as often as
    the source has it), ``changed`` (a format specifier that stands for the same argument with
    another conversion, ``%s`` as ``%d``, or whose order the translation changed without positions),
    or a format specifier the translation ``added`` (one for an argument the source has none for:
    a third ``%s`` where the source has two, a ``{name}`` it lacks)."""

    kind: str
    token: str
    what: str
    found: str = ""


def lost_tokens(source: str, translation: str) -> list[Lost]:
    """The verbatim tokens of ``source`` that ``translation`` lacks or changed: placeholders
    compared by the argument each stands for (``%1$s`` and ``%2$d`` may trade places; ``%s %d``
    may not), the others by count (each occurrence beyond the translation's)."""
    src = [t for t in software_tokens(source) if verbatim(t)]
    if _STRFTIME.search(source):  # a date's format, which a translator writes as the target language's dates
        src = [t for t in src if t.kind != "printf"]
    if usage_synopsis(source):  # a synopsis' single-dash words are its metavariables (-sigspec): options are
        src = [t for t in src if t.kind != "option" or re.fullmatch(r"--[\w-]+|-[A-Za-z]{1,3}", t.text)]
    tgt = [t for t in software_tokens(translation) if verbatim(t)]
    if _STRFTIME.search(source):
        tgt = [t for t in tgt if t.kind != "printf"]
    out = _lost_arguments([t for t in src if t.kind in PLACEHOLDERS], [t for t in tgt if t.kind in PLACEHOLDERS])
    have, seen = Counter(_same(t.text) for t in tgt if t.kind not in PLACEHOLDERS), Counter()
    for tok in src:
        if tok.kind in PLACEHOLDERS:
            continue
        seen[_same(tok.text)] += 1
        if have[_same(tok.text)] < seen[_same(tok.text)] and not (tok.kind == "option" and tok.text in translation) \
                and not _code_requoted(tok, translation):
            out.append(Lost(tok.kind, tok.text, "missing"))
    return out


#: a strftime conversion no printf has (``%H:%M:%S``, ``%Y``, ``%Z``, ``%b``): the message is a date's format
_STRFTIME = re.compile(r"%[HMSYZBbTy]\b")


def _code_requoted(tok: Token, translation: str) -> bool:
    # a term in backticks the translation keeps as written in its own quotation marks (appstream's
    # German: `extends` as »extends«): carried over
    inner = tok.text.strip("`")
    return (tok.kind == "code" and tok.text.startswith("`") and bool(inner)
            and bool(re.search(rf"(?<![\w`-]){re.escape(inner)}(?![\w`-])", translation)))


def _same(token: str) -> str:
    # a token as compared: a URL's http:// and https:// are one (translators update the scheme)
    return re.sub(r"^\$\{(\w+)\}$", r"$\1", re.sub(r"^https?://", "//", token))


def _lost_arguments(src: list[Token], tgt: list[Token]) -> list[Lost]:
    # printf's arguments by position (given, else in order); the others by their text
    def arguments(tokens):
        args, n = {}, 0
        for tok in tokens:
            if tok.kind == "printf" and tok.text != "%%":
                pos = re.match(r"%(\d+)\$", tok.text)
                n = int(pos.group(1)) if pos else n + 1
                args.setdefault(("printf", n), []).append(re.sub(r"^%\d+\$", "%", tok.text))
            elif tok.kind != "printf":
                args.setdefault((tok.kind, tok.text), []).append(tok.text)
        return args

    have, want = arguments(tgt), arguments(src)
    out = []
    for key, texts in want.items():
        got = have.get(key, [])
        if key[0] == "printf" and got and _conversion(got[0]) != _conversion(texts[0]):
            out.append(Lost("placeholder", texts[0], "changed", got[0]))
        elif len(got) < len(texts):
            out.append(Lost("placeholder", texts[0], "missing"))
    # a specifier for an argument the source has none for: a program passes no value for it (printf
    # reads past its arguments; Python's format raises KeyError or IndexError)
    out += [Lost("placeholder", texts[0], "added") for key, texts in have.items() if key not in want]
    return out


def _conversion(spec: str) -> str:
    # what a printf specifier converts its argument as (length and conversion: %.250s is %s's; the
    # case of a hexadecimal or floating conversion, %02x or %02X, and %i for %d take the same argument)
    conversion = re.sub(r"^%[-+#0']*(?:\d+|\*(?:\d+\$)?)?(?:\.(?:\d+|\*(?:\d+\$)?))?", "%", spec)
    return re.sub(r"[XEFGA]$", lambda m: m.group().lower(), conversion).replace("i", "d") if conversion[-1:] in "XEFGAi" else conversion


def metavariables(text: str) -> list[str]:
    """The ``<name>`` metavariables of ``text`` (a word in angle brackets that is no markup tag)
    that stand as an option's or a command's argument (after an option, ``--root <directory>``, or
    in brackets, ``[<glob-pattern>]``): a translator of usage text may translate them
    (``<paquete>``), as GNU's conventions ask, but not leave them out; one in a sentence
    (``Press <enter>``) may become words."""
    return [t.text for t in software_tokens(text) if t.kind == "metavariable"
            and re.search(r"(?:(?<!\S)--?[\w-]+[ =]|\[|<[^<>]+>[ _]?|[_])$", text[max(0, t.start - 40):t.start])]


def localised_metavariables(source: str, translation: str) -> Optional[list[tuple[str, str]]]:
    """Where ``translation`` has as many ``<...>`` metavariables as ``source`` but not the same:
    the pairs (source's, translation's) that differ, in order; None where the counts differ."""
    src, tgt = metavariables(source), metavariables(translation)
    if len(src) != len(tgt):
        return None
    return [(a, b) for a, b in zip(src, tgt) if a != b]


#: what stands before an option's default value in its help: "(default 1.0)", "default: 0.5"
_DEFAULT = re.compile(r"\bdefault(?: is)?:?\s*$", re.IGNORECASE)


def code_number(text: str, start: int, end: int) -> bool:
    """Whether the number ``text[start:end]`` stands in code rather than prose: beside an operator,
    a slash or a dot-joined version (``0.5*WAIT``, ``HTTP/0.9``, ``<= 1.12``, ``1.2.3``), an option's
    default in a message with options (``(default 1.0)``), or in a software token."""
    before, after = text[max(0, start - 3):start], text[end:end + 2]
    if re.search(r"(?:[*/=<>^]\s?|[*/=<>^]=\s)$", before) or re.match(r"\s?[*/^]|\.\d|=", after):
        return True
    if _DEFAULT.search(text, max(0, start - 12), start) and any(t.kind == "option" for t in software_tokens(text)):
        return True  # an option's default in its help ("(default 1.0)"): the value as the user types it
    return (any(t.start <= start and end <= t.end for t in software_tokens(text))
            or any(a <= start and end <= b for a, b in command_spans(text)))
