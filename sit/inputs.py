"""Reading the sentences a run tests: bundled datasets or a user's file (UTF-8, one per line)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from .errors import ConfigError, InputError

MAX_LINE_CHARS = 2000  # longer lines are almost always a missing newline or a binary file
#: the largest text file sit reads whole (an input, a catalogue, references): 256 MiB, about two
#: million sentences; a larger one is refused before it is read
MAX_FILE_BYTES = 256 * 1024 * 1024


@dataclass(frozen=True)
class Sentences:
    """Non-empty input lines with their 1-based line numbers (used as source ids)."""

    name: str
    ids: tuple[int, ...]
    texts: tuple[str, ...]
    skipped_empty: int = 0


def dataset_names() -> list[str]:
    from importlib import resources  # only here: `sit eval` reads no dataset

    root = resources.files("sit.datasets")
    return sorted(p.name[:-4] for p in root.iterdir() if p.name.endswith(".txt"))


def dataset_path(name: str):
    from importlib import resources

    root = resources.files("sit.datasets")
    path = root / f"{name}.txt"
    if not path.is_file():
        raise ConfigError(f"unknown dataset {name!r}; choose one of: {', '.join(dataset_names())} (or pass --input FILE)")
    return path


def checked_size(path: str | os.PathLike, what: str = "input", limit: int = MAX_FILE_BYTES) -> Path:
    """``path``, once it is a file of at most ``limit`` bytes; else an InputError saying what to do."""
    p = Path(path)
    if not p.is_file():
        raise InputError(f"{what} file {p} does not exist (or is not a file)")
    size = p.stat().st_size
    if size > limit:
        raise InputError(f"{what} file {p} has {size:,} bytes, over the {limit:,} sit reads whole; split it "
                         f"(e.g. `split -l 100000 {p.name} part-`) and give the parts one at a time")
    return p


def read_file(path: str | os.PathLike, what: str = "input") -> bytes:
    """The bytes of a file; InputError naming it when it is missing or unreadable."""
    p = checked_size(path, what)
    try:
        return p.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read {what} file {p}: {exc.strerror or exc}; check its permissions") from exc


def decode_lines(data: bytes, name: str, encoding: str = "utf-8") -> list[str]:
    """The lines of ``data`` (UTF-8, or the ``encoding`` a PO file declares): a byte-order mark
    dropped, split at ``\n``, ``\r\n`` or ``\r``, empty lines kept. InputError naming ``name``
    and the line when one is not in the encoding or holds a NUL (a binary file, or UTF-16)."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    lines = []
    for lineno, raw in enumerate(data.splitlines(), start=1):
        try:
            lines.append(raw.decode(encoding))
        except UnicodeDecodeError as exc:
            raise InputError(
                f"{name}: line {lineno} is not valid {'UTF-8' if encoding == 'utf-8' else encoding} (byte {exc.start + 1}: "
                f"{raw[exc.start:exc.start + 1]!r}); convert the file, e.g. `iconv -f latin1 -t utf-8 FILE > FILE.utf8`"
            ) from None
        if "\x00" in lines[-1]:
            raise InputError(f"{name}: line {lineno} holds a NUL byte (character {lines[-1].index(chr(0)) + 1}): "
                             "is it a binary or UTF-16 file? give UTF-8 text (`tr -d '\\000'` removes NUL bytes)")
    return lines


def read_lines(path: str | os.PathLike, what: str = "input", max_chars: Optional[int] = None) -> list[str]:
    """The lines of a UTF-8 file (see :func:`decode_lines`); with ``max_chars``, a line longer
    than that is an InputError naming it and ``--max-line-chars``, the option that raises it."""
    name = f"{what} file {Path(path)}"
    lines = decode_lines(read_file(path, what), name)
    for lineno, line in enumerate(lines, start=1):
        if max_chars is not None and len(line) > max_chars:
            raise InputError(f"{name}: line {lineno} has {len(line):,} characters, over the limit of {max_chars:,}; "
                             "split it, or raise the limit with --max-line-chars")
    return lines


def parse_lines(data: bytes, name: str, *, max_chars: int = MAX_LINE_CHARS) -> Sentences:
    """Split UTF-8 ``data`` into sentences; empty lines are skipped (their numbers kept)."""
    ids, texts = [], []
    skipped = 0
    for lineno, line in enumerate(decode_lines(data, name), start=1):
        line = line.strip()
        if not line:
            skipped += 1
            continue
        if len(line) > max_chars:
            raise InputError(
                f"{name}: line {lineno} has {len(line)} characters, over the limit of {max_chars}; "
                "put one sentence per line (or raise the limit with --max-line-chars)"
            )
        ids.append(lineno)
        texts.append(line)
    if not texts:
        raise InputError(f"{name} has no sentences (it is empty or blank); put one English sentence per line")
    return Sentences(name, tuple(ids), tuple(texts), skipped)


def read_sentences(*, dataset: str | None = None, path: str | os.PathLike | None = None,
                   max_chars: int = MAX_LINE_CHARS) -> Sentences:
    if (dataset is None) == (path is None):
        raise ConfigError("give exactly one of --dataset NAME or --input FILE")
    if dataset is not None:
        return parse_lines(dataset_path(dataset).read_bytes(), f"dataset {dataset}", max_chars=max_chars)
    return parse_lines(read_file(path), str(path), max_chars=max_chars)
