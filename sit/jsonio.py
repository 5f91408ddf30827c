"""The one reader of JSON: every file and every answer sit reads goes through it.

Python's :mod:`json` alone turns hostile input into tracebacks or into values that break later:
``[[[[...`` nested thousands deep raises ``RecursionError``; a 5000-digit integer raises a bare
``ValueError``; ``NaN`` and ``1e999`` parse as floats that are not finite; a line of a gigabyte is
read whole. :func:`loads` refuses all of these with :class:`JsonDamage` (a ``ValueError``, so a
caller's ``except ValueError`` keeps working), which says what is wrong in a few words and never
quotes the input:

* nesting deeper than :data:`MAX_DEPTH` (checked on the text's brackets before parsing);
* more than :data:`MAX_BYTES` characters in one document or line;
* integers of more than :data:`MAX_INT_DIGITS` digits; ``NaN``, ``Infinity`` and floats that
  overflow to infinity;
* text that is not JSON (the decoder's message, without the text).

:func:`read_json` and :func:`read_jsonl` read files and turn damage into an
:class:`~sit.errors.InputError` naming the file and the line; :func:`loads` is what a cache, a
provider adapter or any other reader of text calls (the cache turns :class:`JsonDamage` into its
copy-aside repair, an adapter into a retryable provider error).
"""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, MutableSequence, Optional, TypeVar

from .errors import InputError

T = TypeVar("T")

#: nesting levels (arrays and objects) a document may have; sit writes at most 5
MAX_DEPTH = 64
#: characters in one JSON document (a JSONL line, a provider's answer, run.json)
MAX_BYTES = 64 * 1024 * 1024
#: digits of an integer; sit's counts and ids have far fewer
MAX_INT_DIGITS = 30

#: the byte-order mark some editors put before a UTF-8 file's first line (dropped, as the text readers drop it)
BOM = b"\xef\xbb\xbf"

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_BRACKETS = re.compile(r"[\[\]{}]")


class JsonDamage(ValueError):
    """Text that is not JSON sit accepts; the message says why without quoting the text."""


def _parse_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise JsonDamage(f"an integer of {len(digits.lstrip('-'))} digits (at most {MAX_INT_DIGITS})")
    return int(digits)


def _parse_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise JsonDamage(f"a number too large for a float ({text[:20]}...)" if len(text) > 20
                         else f"a number too large for a float ({text})")
    return value


def _parse_constant(name: str) -> float:
    raise JsonDamage(f"{name} is not a number JSON allows")


def depth(text: str) -> int:
    """How deeply ``text``'s arrays and objects nest (brackets inside strings do not count).
    Unbalanced brackets count as they come; the decoder reports them."""
    deepest = level = 0
    for bracket in _BRACKETS.findall(_STRING.sub("", text)):
        level += 1 if bracket in "[{" else -1
        deepest = max(deepest, level)
    return deepest


def loads(text: str | bytes, *, max_depth: int = MAX_DEPTH, max_bytes: int = MAX_BYTES, unique_keys: bool = False) -> Any:
    """``text`` parsed, or :class:`JsonDamage` (see the module documentation). Bytes must be UTF-8.
    With ``unique_keys`` an object that names a key twice is damage (json keeps the last silently)."""
    if isinstance(text, (bytes, bytearray)):
        if len(text) > max_bytes:
            raise JsonDamage(f"{len(text)} bytes in one document (at most {max_bytes})")
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise JsonDamage(f"not UTF-8 (byte {exc.start + 1})") from None
    if len(text) > max_bytes:
        raise JsonDamage(f"{len(text)} characters in one document (at most {max_bytes})")
    # nesting is at most the count of opening brackets: only a text with more than max_depth of
    # them is read for its depth (a cache value or a record line has a few)
    if text.count("[") + text.count("{") > max_depth and depth(text) > max_depth:
        raise JsonDamage(f"nested more than {max_depth} levels deep")
    try:
        if text.startswith("\ufeff"):  # as json.loads says it
            raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
        return (_UNIQUE_DECODER if unique_keys else _DECODER).decode(text)
    except JsonDamage:
        raise
    except json.JSONDecodeError as exc:
        raise JsonDamage(f"not valid JSON ({exc.msg} at column {exc.colno})") from None
    except (ValueError, RecursionError) as exc:  # an int over Python's own digit limit, a depth missed
        raise JsonDamage(f"not JSON sit can read ({type(exc).__name__})") from None


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [k for k, _ in pairs]
    if len(set(keys)) != len(keys):
        twice = next(k for k in keys if keys.count(k) > 1)
        raise JsonDamage(f"the key {twice[:40]!r} given more than once")
    return dict(pairs)


#: the decoders :func:`loads` uses, made once (``json.loads`` with these hooks makes one per call:
#: a cached run reads some 20,000 values)
_DECODER = json.JSONDecoder(parse_int=_parse_int, parse_float=_parse_float, parse_constant=_parse_constant)
_UNIQUE_DECODER = json.JSONDecoder(parse_int=_parse_int, parse_float=_parse_float, parse_constant=_parse_constant,
                                   object_pairs_hook=_unique)


def regular_file(path: str | os.PathLike, hint: str) -> Path:
    """``path`` if it is a regular file; a FIFO would hang its reader and a device (``/dev/zero``)
    never end, so anything else is an InputError ending with ``hint``, before anything is read."""
    p = Path(path)
    try:
        mode = os.stat(p).st_mode
    except OSError as exc:
        raise InputError(f"{p}: cannot read it ({exc.strerror or exc}); {hint}") from None
    if not stat.S_ISREG(mode):
        what = "a FIFO" if stat.S_ISFIFO(mode) else "a folder" if stat.S_ISDIR(mode) else "a device or socket"
        raise InputError(f"{p} is {what}, not a file; {hint}")
    return p


def _damaged(path: Path, where: str, why: str, hint: str) -> InputError:
    return InputError(f"{path}{where}: {why}; {hint}")


def read_json(path: str | os.PathLike, *, hint: str = "is this a file sit wrote?") -> Any:
    """The JSON document in ``path``; an unreadable, non-UTF-8 or damaged file is an InputError
    naming the file and ending with ``hint`` (what to do)."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise InputError(f"{p}: cannot read it ({exc.strerror or exc}); {hint}") from None
    try:
        return loads(raw)
    except JsonDamage as exc:
        line = _line_of(raw, exc)
        raise _damaged(p, f":{line}" if line else "", str(exc), hint) from None


def _line_of(raw: bytes, exc: JsonDamage) -> Optional[int]:
    match = re.search(r"byte (\d+)", str(exc))
    return raw[: int(match.group(1))].count(b"\n") + 1 if match else None


def read_jsonl(path: str | os.PathLike, convert: Callable[[Any], T] = lambda row: row, *,
               hint: str = "is this a file sit wrote?",
               bad: tuple[type[BaseException], ...] = (KeyError, TypeError, ValueError, AttributeError),
               with_lines: bool = False, offsets: Optional[MutableSequence[int]] = None) -> Iterator[Any]:
    """Each non-blank line of a JSONL file parsed and given to ``convert``, streamed (with
    ``with_lines``, as ``(line number, value)``). A line that is not UTF-8, not JSON sit accepts,
    or that ``convert`` refuses (raising one of ``bad``) is an InputError naming the file and
    line, ending with ``hint``. ``offsets``: each row's byte offset in the file is appended to it
    as the row is read (an index for :func:`read_jsonl_at`)."""
    p, fh = _opened(path, hint)
    with fh:
        start = 0
        for lineno, raw in enumerate(iter(lambda: fh.readline(MAX_BYTES + 1), b""), start=1):
            here, start = start, start + len(raw)
            if not raw.strip() and len(raw) <= MAX_BYTES:
                continue
            value = _row(p, lineno, raw[3:] if here == 0 and raw.startswith(BOM) else raw, convert, hint, bad)
            if offsets is not None:
                offsets.append(here)
            yield (lineno, value) if with_lines else value


def read_jsonl_at(path: str | os.PathLike, starts: Iterable[int], convert: Callable[[Any], T] = lambda row: row, *,
                  hint: str = "is this a file sit wrote?",
                  bad: tuple[type[BaseException], ...] = (KeyError, TypeError, ValueError, AttributeError)) -> Iterator[T]:
    """The rows of a JSONL file that begin at the byte offsets ``starts`` (in that order, each
    as many times as named; offsets :func:`read_jsonl` gave), read through one open file and
    checked as :func:`read_jsonl` checks them: a damaged row is the same InputError, naming its line."""
    p, fh = _opened(path, hint)
    with fh:
        for start in starts:
            fh.seek(start)
            raw = fh.readline(MAX_BYTES + 1)
            if not raw.strip() and len(raw) <= MAX_BYTES:
                raise _damaged(p, f":{_line_at(fh, start)}", "not the row it held when the file was read; "
                               "was it written again meanwhile?", hint)
            yield _row(p, start, raw[3:] if start == 0 and raw.startswith(BOM) else raw, convert, hint, bad, fh)


def _opened(path: str | os.PathLike, hint: str):
    """(the path, its file open for reading bytes); a file that cannot be read is an InputError."""
    p = Path(path)
    try:
        return p, open(p, "rb")
    except OSError as exc:
        raise InputError(f"{p}: cannot read it ({exc.strerror or exc}); {hint}") from None


def _line_at(fh, start: int) -> int:
    """The line number of the byte offset ``start`` of the open file ``fh`` (only where a row
    read at an offset is damaged: the message names its line)."""
    fh.seek(0)
    return fh.read(start).count(b"\n") + 1


def _row(p: Path, where: int, raw: bytes, convert, hint: str, bad, fh=None):
    """``raw`` (a line) parsed and converted; damage an InputError naming the line (``where``:
    the line number, or with ``fh``, the byte offset of the line in it)."""
    def line() -> str:
        return f":{_line_at(fh, where) if fh is not None else where}"

    if len(raw) > MAX_BYTES:
        raise _damaged(p, line(), f"a line of more than {MAX_BYTES} bytes", hint)
    try:
        row = loads(raw)
    except JsonDamage as exc:
        raise _damaged(p, line(), str(exc), hint) from None
    try:
        return convert(row)
    except InputError:
        raise
    except bad as exc:
        what = f"no field {exc}" if isinstance(exc, KeyError) else str(exc) or type(exc).__name__
        raise _damaged(p, line(), f"not a row sit reads here ({what})", hint) from None
