"""The translations ``sit check`` reads: aligned text files, TSV, JSONL, and the localisation
formats PO, XLIFF and TMX through translate-toolkit's readers (``translate.storage``).

Every reader gives :class:`Segment` records numbered as the file is: the 1-based line of an
aligned pair, a TSV row or a JSONL object; the line of a PO entry's ``msgid`` and of an XLIFF or
TMX unit's element. A file sit cannot take is an :class:`~sit.errors.InputError` naming the line.
"""

from __future__ import annotations

import codecs
import csv
import os
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Optional

from ..errors import InputError, MissingDependencyError
from ..inputs import checked_size, decode_lines, read_file
from ..jsonio import regular_file

#: the formats by name, and the file endings that choose them (``--format auto``)
FORMATS = ("auto", "text", "tsv", "jsonl", "po", "xliff", "tmx")
ENDINGS = {".tsv": "tsv", ".jsonl": "jsonl", ".po": "po", ".pot": "po", ".xlf": "xliff", ".xliff": "xliff",
           ".tmx": "tmx"}
#: the column or key names a TSV header or a JSONL object may give the two texts
SOURCE_NAMES = ("source", "src", "source_text")
TRANSLATION_NAMES = ("translation", "target", "mt", "hyp", "tgt")
#: characters in one source text or translation (``sit check --max-line-chars``)
MAX_TEXT_CHARS = 20_000
TOOLKIT_HINT = "pip install translate-toolkit==3.20.4 (it reads PO, XLIFF and TMX)"


@dataclass(frozen=True)
class Segment:
    """One source text and its translation, ``line`` the 1-based place in the file."""

    line: int
    source: str
    translation: str
    #: of a PO unit with plural forms: "one" (msgid and msgstr[0], whose translation may leave the
    #: count out, as gettext's manual allows: "ein Byte") or "other" (msgid_plural and each other
    #: msgstr); "" for any other unit
    plural: str = ""
    #: a PO unit's ``msgctxt`` (messages of different contexts may be translated differently)
    context: str = ""
    #: an XLIFF unit's inline codes in its source and in its target (sit.textcheck.codes.xliff_codes;
    #: translate-toolkit leaves them out of the texts); None where the format has none of its own
    inline_codes: Optional[tuple[tuple[str, ...], tuple[str, ...]]] = None
    #: an XLIFF unit's ``maxwidth`` in characters (``size-unit="char"``; XLIFF 1.2's default is the pixel), else None
    max_width: Optional[int] = None


def format_of(path: str | os.PathLike, given: str = "auto") -> str:
    """The format of ``path``: ``given``, or by its ending (text where none is known)."""
    if given not in FORMATS:
        from ..errors import ConfigError

        raise ConfigError(f"--format {given!r}: choose one of {', '.join(FORMATS)}")
    return ENDINGS.get(Path(path).suffix.lower(), "text") if given == "auto" else given


def read_segments(source: str | os.PathLike, translation: Optional[str | os.PathLike] = None,
                  fmt: str = "auto", max_chars: int = MAX_TEXT_CHARS) -> list[Segment]:
    """The segments of ``source`` and ``translation`` (two aligned UTF-8 files), or of ``source``
    alone in one of the formats that hold both texts; pairs whose source is blank are left out.
    Each file must be a regular file (a FIFO would hang the reader, a device never end), and no
    text may be longer than ``max_chars`` characters (an InputError naming the line)."""
    for path in (source, translation):
        if path is not None:
            regular_file(path, "give a file")
    if translation is not None:
        segments = _aligned(source, translation)
    else:
        kind = format_of(source, fmt)
        if kind == "text":
            raise InputError(f"{source}: a text file holds only one side; give the translations with --translation, "
                             "or a TSV, JSONL, PO, XLIFF or TMX file that holds both")
        reader = {"tsv": _tsv, "jsonl": _jsonl}.get(kind, _toolkit)
        segments = [s for s in reader(Path(source)) if s.source.strip()]
    return _bounded(segments, source, max_chars)


def _bounded(segments: list[Segment], source, max_chars: int) -> list[Segment]:
    for s in segments:
        longest = max(len(s.source), len(s.translation))
        if longest > max_chars:
            side = "source" if len(s.source) == longest else "translation"
            raise InputError(f"{source}: line {s.line}: the {side} has {longest:,} characters, over the limit of "
                             f"{max_chars:,}; split it, or raise the limit with --max-line-chars")
    return segments


def _aligned(source, translation) -> list[Segment]:
    # two files, line n of one the translation of line n of the other
    src = decode_lines(read_file(source, "source"), f"source file {source}")
    mt = decode_lines(read_file(translation, "translation"), f"translation file {translation}")
    if len(src) != len(mt):
        shorter, longer = ("translation", "source") if len(mt) < len(src) else ("source", "translation")
        raise InputError(f"{translation}: line {min(len(src), len(mt)) + 1} of the {longer} file has no line in the "
                         f"{shorter} file ({len(src)} source lines, {len(mt)} translation lines); "
                         "give files with one translation per source line")
    return [Segment(n, s, t) for n, (s, t) in enumerate(zip(src, mt), start=1) if s.strip()]


def _tsv(path: Path) -> list[Segment]:
    # a header naming source and translation columns where the first row has them, else columns 1 and 2
    reader = csv.reader(decode_lines(read_file(path, "TSV"), f"TSV file {path}"), delimiter="\t",
                        quoting=csv.QUOTE_NONE)
    try:
        rows = list(reader)
    except csv.Error as exc:  # a field over the csv module's limit (128 KiB)
        raise InputError(f"{path}: line {reader.line_num}: {exc}; split the line, or give the file as JSONL") from None
    first = [c.strip().lower() for c in rows[0]] if rows else []
    header = any(c in SOURCE_NAMES for c in first) and any(c in TRANSLATION_NAMES for c in first)
    s_col = next((first.index(c) for c in SOURCE_NAMES if c in first), 0) if header else 0
    t_col = next((first.index(c) for c in TRANSLATION_NAMES if c in first), 1) if header else 1
    out = []
    for n, row in enumerate(rows, start=1):
        if (header and n == 1) or not any(c.strip() for c in row):
            continue
        if len(row) <= max(s_col, t_col):
            raise InputError(f"{path}: line {n} has {len(row)} column(s), not the {max(s_col, t_col) + 1} that hold "
                             "the source and the translation; separate them with one tab")
        out.append(Segment(n, row[s_col], row[t_col]))
    return out


def _jsonl(path: Path) -> list[Segment]:
    # one object a line, its source and translation under one of the names above
    from ..jsonio import read_jsonl

    def segment(row: Any) -> tuple[str, str]:
        if not isinstance(row, dict):
            raise ValueError("not a JSON object")
        src = next((row[k] for k in SOURCE_NAMES if k in row), None)
        mt = next((row[k] for k in TRANSLATION_NAMES if k in row), None)
        if not isinstance(src, str) or not isinstance(mt, str):
            raise ValueError('no "source" and "translation" strings')
        return src, mt

    hint = 'give one object a line with "source" and "translation" strings'
    return [Segment(n, *pair) for n, pair in read_jsonl(path, segment, hint=hint, with_lines=True)]


def _toolkit(path: Path) -> list[Segment]:
    # PO, XLIFF, TMX through translate-toolkit; units without a translation are left out
    try:
        from translate.storage import factory
    except ImportError:
        raise MissingDependencyError(f"{path}: reading it needs translate-toolkit; {TOOLKIT_HINT}") from None
    po = path.suffix.lower() in (".po", ".pot")
    checked_size(path, "PO" if po else "XLIFF or TMX")  # translate-toolkit reads it whole
    lines = _po_lines(path) if po else {}  # a PO file decoded first: a bad byte is named by its line
    try:
        store = factory.getobject(str(path))
    except Exception as exc:  # the readers raise what their parsers raise (lxml, ValueError ...)
        line = getattr(exc, "lineno", None)  # lxml's syntax errors say where
        where = f"line {line}: " if line else ""
        raise InputError(f"{path}: {where}{str(exc).splitlines()[0] if str(exc) else type(exc).__name__}; "
                         "give a well-formed PO, XLIFF or TMX file") from None
    out = []
    for n, unit in enumerate(store.units, start=1):
        if unit.isheader() or not unit.source or not unit.target:
            continue
        element = getattr(unit, "xmlelement", None)
        line = getattr(element, "sourceline", None) or lines.get(n) or n
        extra = _unit_facts(path, int(line), unit, element)
        out += [replace(s, **extra) for s in _forms(int(line), unit)] if extra else _forms(int(line), unit)
    return out


def _unit_facts(path: Path, line: int, unit, element) -> dict[str, Any]:
    # what a unit says besides its texts: a PO unit's context; an XLIFF unit's codes and maxwidth
    out: dict[str, Any] = {}
    context = unit.getcontext() if hasattr(unit, "getcontext") else ""
    if context and path.suffix.lower() in (".po", ".pot"):
        out["context"] = str(context)
    if element is None or path.suffix.lower() not in (".xlf", ".xliff"):
        return out
    from ..textcheck.codes import xliff_codes

    sides = [next((c for c in element if isinstance(c.tag, str) and c.tag.rsplit("}", 1)[-1] == name), None)
             for name in ("source", "target")]
    if all(side is not None for side in sides):
        out["inline_codes"] = (xliff_codes(sides[0]), xliff_codes(sides[1]))
    width, unit_of = element.get("maxwidth"), element.get("size-unit", "pixel")  # XLIFF 1.2's default unit
    if width is not None and unit_of == "char":
        if not width.strip().isdigit():
            raise InputError(f"{path}: line {line}: maxwidth={width!r} is no number of characters; "
                             "give a whole number")
        out["max_width"] = int(width)
    return out


def _forms(line: int, unit) -> list[Segment]:
    # a unit's segment, or, of a PO unit with plural forms, one for msgstr[0] (the singular) and one
    # for each other form that has a translation (the plural msgid)
    sources = getattr(unit.source, "strings", None) if unit.hasplural() else None
    targets = getattr(unit.target, "strings", None) if sources else None
    if not sources or not targets:
        return [Segment(line, str(unit.source), str(unit.target))]
    return [Segment(line, str(sources[0]), str(targets[0]), "one")] + [
        Segment(line, str(sources[-1]), str(t), "other") for t in targets[1:] if str(t)]


def _po_lines(path: Path) -> dict[int, int]:
    """unit number (1-based, translate-toolkit's order, the header included) -> the line of its
    ``msgid`` in the PO file, read in the charset its header declares (UTF-8 where none is)."""
    data = read_file(path, "PO")
    declared = _PO_CHARSET.search(data[:8192])
    encoding = declared.group(1).decode("ascii").lower() if declared else "utf-8"
    if encoding == "charset":  # gettext's template placeholder
        encoding = "utf-8"
    try:
        codecs.lookup(encoding)
    except LookupError:
        raise InputError(f"PO file {path}: its header declares charset={encoding}, which Python cannot read; "
                         "convert the file to UTF-8 (msgconv -t UTF-8) and declare that") from None
    starts = [n for n, line in enumerate(decode_lines(data, f"PO file {path}", encoding), start=1)
              if line.startswith("msgid ")]
    return {unit: line for unit, line in enumerate(starts, start=1)}


_PO_CHARSET = re.compile(rb"charset=([A-Za-z0-9_.:-]+)")


__all__ = ["ENDINGS", "FORMATS", "Segment", "format_of", "read_segments"]
