"""The run directory: every file a report needs, so ``sit report`` re-renders without work.

- ``run.json``: a :class:`~sit.runmeta.RunMeta` (:meth:`~sit.runmeta.RunMeta.to_dict`), ``{"signature":
  RunSignature, "signature_line": str, "input": str, "counts": RunCounts, "perturber_reason": str,
  "parser_reason": str, "relations_reason": str, "relations_told": {relation: RelationTold},
  "warnings": [str], "engine": {...}, "cache": str, "created": iso time, "command": str, "config":
  {the options that decide the test cases}, "timings": {stage: seconds}}`` and each relation's
  run-level figures under their own keys before the timings (sit's ``"teapot": {...}``).
- ``pairs.jsonl``: one :class:`~sit.records.Pair` per line.
- ``translations.jsonl``: every text the run translated, once: ``{"text", "translation", "role":
  "original"|"container"|"perturbed"|"auxiliary"|"probe", "source_id"}`` (and ``relation`` for the texts a
  relation added; an ``auxiliary`` text, such as a word patinv translated alone, has no
  ``source_id``, and neither has a ``probe``, a text only its relation's check read, such as a
  substitute's phrase ``sit`` translated alone); ``translation`` is null where the translator failed.
- ``issues.jsonl``: one :class:`~sit.records.Issue` per line, worst first within each group of
  findings (:func:`sit.relations.rank.worst_first`), each with its ``issue_id``.
- ``report.txt`` (and ``report.html`` and others written by :mod:`sit.report`).
"""

from __future__ import annotations

import json
import os
from array import array
import re
import stat
import tempfile
import secrets
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Optional, Sequence, TypeVar

from . import redact
from .errors import InputError, OutputError
from .jsonio import JsonDamage, loads, read_json, read_jsonl, read_jsonl_at
from .records import Issue, Pair, RunSignature, relation_of
from .runmeta import RunMeta

T = TypeVar("T")


def check_writable(path: str | os.PathLike, option: str, *, directory: bool = False) -> Path:
    """Refuse, before any work, an output that cannot be written: a file where a directory is
    needed or the reverse, a path under a file, a place where no file can be created (probed by
    creating and removing a temporary file, so that it holds for root and read-only mounts too),
    and ``-``, which would be a file of that name, not standard output."""
    path = Path(path)

    def fail(why: str):
        raise OutputError(f"{option} {path}: {why}; choose another path")

    if str(path) == "-":
        fail("sit writes files, not standard output, and would name one '-'")

    if directory and path.exists() and not path.is_dir():
        fail("exists and is not a directory")
    if not directory and path.is_dir():
        fail("is a directory, not a file")
    target = path if directory else destination(path)
    if target is None:  # a device, FIFO or standard output: written through (_write_through)
        if not os.access(path, os.W_OK):
            fail("cannot be written (permission denied)")
        return path
    probe = target if directory else target.parent
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    if not probe.is_dir():
        fail(f"{probe} is a file, not a directory")
    try:
        with tempfile.TemporaryFile(dir=probe):
            pass
    except OSError as exc:
        fail(f"cannot create files in {probe} ({exc.strerror or exc})")
    return path


def check_same_run(out: Path, signature: RunSignature, source: str, *, force: bool = False, inputs=None) -> None:
    """Refuse to write over another run: ``out`` holds a run.json whose signature or input differs
    from this run's (re-running the same command writes over its own run and keeps the triage
    marks saved beside it); ``force`` allows it. Settings that do not change results (the
    versions of packages) are not compared. ``inputs`` (:class:`sit.plan.Inputs`): the sentences
    of this run, compared with those the earlier run recorded (their source, ``--limit``, their
    count and digest; a run.json of before that record, by its input and ``--limit``)."""
    meta_path = Path(out) / "run.json"
    if force or not meta_path.is_file():
        return
    try:
        meta = RunMeta.from_dict(loads(meta_path.read_bytes()))
        old = meta.signature
    except (OSError, ValueError, TypeError, AttributeError, JsonDamage):
        raise OutputError(f"--out {out}: holds a run.json sit cannot read; choose another directory or pass --force "
                          "to replace it") from None
    from .rerun import differences

    differ = differences(old, signature)
    if inputs is not None:
        recorded = meta.inputs if isinstance(meta.inputs, dict) and meta.inputs else {
            "name": meta.input, **({"limit": meta.config["limit"]} if "limit" in meta.config else {})}
        differ += inputs.differences(recorded, meta.input)
    elif meta.input != source:
        differ.append(f"input: {meta.input} there, {source} now")
    if differ:
        raise OutputError(f"--out {out}: holds another run that differs in {'; '.join(differ)}; "
                          "choose another directory, or pass --force to replace it")


def write_json_atomic(path: Path, obj: Any) -> None:
    write_bytes_atomic(path, (json.dumps(obj, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))


def write_jsonl_atomic(path: Path, rows: Iterable[dict]) -> None:
    """One JSON object a line, streamed: the rows are encoded, redacted and written a batch at a
    time (:func:`write_lines_atomic`), so the file is never held whole."""
    write_lines_atomic(path, (json.dumps(r, ensure_ascii=False) + "\n" for r in rows))


def write_text_atomic(path: Path, text: str) -> None:
    write_bytes_atomic(path, text.encode("utf-8"))


def write_parts_atomic(path: Path, parts: Iterable[str]) -> None:
    """The text ``parts`` make together, written as :func:`write_text_atomic` writes it, a piece
    at a time (a report made in pieces: :meth:`sit.formats.base.Writer.report_parts`); each piece
    is redacted as a text of its own, as each line of the JSONL files is."""
    redactor = redact.active()
    _write_atomic(path, (piece[i:i + CHUNK].encode("utf-8") for part in parts for piece in (redactor.text(part),)
                         for i in range(0, len(piece), CHUNK)))


#: characters encoded and written at a time by the streaming writers
CHUNK = 1 << 20


def write_lines_atomic(path: Path, lines: Iterable[str]) -> None:
    """Replace ``path`` with ``lines`` (each one whole line, ending in a newline) as
    :func:`write_bytes_atomic` does, streamed: about :data:`CHUNK` characters are encoded and
    written at a time, each line redacted as a text of its own (:meth:`sit.redact.Redactor.bytes`
    on the line), so a run's records go to disk without the file held in memory."""
    _write_atomic(path, _redacted_batches(lines, redact.active()))


def _redacted_batches(lines: Iterable[str], redactor: redact.Redactor) -> Iterator[bytes]:
    batch: list[str] = []
    size = 0
    for line in lines:
        batch.append(line)
        size += len(line)
        if size >= CHUNK:
            yield _redacted_lines(batch, redactor)
            batch, size = [], 0
    if batch:
        yield _redacted_lines(batch, redactor)


def _redacted_lines(lines: list[str], redactor: redact.Redactor) -> bytes:
    """``lines`` as UTF-8, each redacted alone (where nothing can need it, as they are)."""
    data = "".join(lines).encode("utf-8")
    if not redactor and b"://" not in data:
        return data  # what Redactor.bytes answers for each line
    return b"".join(redactor.bytes(line.encode("utf-8")) for line in lines)


def redacted_lines(lines: list[str]) -> bytes:
    """``lines`` as :func:`write_lines_atomic` writes them: UTF-8, each redacted alone by the
    running command's redactor (a run's temporary records hold no secret either)."""
    return _redacted_lines(lines, redact.active())


def write_bytes_atomic(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` all at once: written to a temporary file beside it,
    ``fsync``-ed, then renamed over it, so a crash leaves the old file or the new one, never a
    part. Its text goes through the running command's redactor (:func:`sit.redact.active`) first.
    The new file gets the mode a plain ``open()`` gives (0o666 less the umask, applied by
    the system; the umask is never changed). The temporary file's name carries the writer's
    process id: once the new file is in place, the temporary files of ``path`` that writers no
    longer alive left (a kill during an earlier write) are removed."""
    _write_atomic(path, (redact.active().bytes(data),))  # no secret of the running command reaches a file


def _write_atomic(path: Path, chunks: Iterable[bytes]) -> None:
    """Write ``chunks`` (already redacted) to a temporary file beside ``path``, ``fsync`` it and
    rename it over ``path`` (:func:`write_bytes_atomic`); an error on the way (in the writing or in
    what makes the chunks) leaves ``path`` as it was and no temporary file. What is not a regular
    file is written through, never replaced (:func:`destination`): a link's file is replaced and
    the link kept; a device, FIFO or socket (``/dev/null``, ``/dev/stdout``) gets the bytes."""
    path = Path(path)
    target = destination(path)
    if target is None:
        _write_through(path, chunks)
        return
    path = target
    path.parent.mkdir(parents=True, exist_ok=True)
    while True:
        tmp = path.with_name(f".{path.name}.{os.getpid()}-{secrets.token_hex(6)}.tmp")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            break
        except FileExistsError:
            continue
    try:
        with os.fdopen(fd, "wb") as fh:
            for chunk in chunks:
                fh.write(chunk)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _fsync_dir(path.parent)
    _remove_orphans(path)


def destination(path: Path) -> Optional[Path]:
    """The file an atomic write of ``path`` replaces: ``path``, or for a symbolic link the file it
    names at the end of its chain (the link itself is kept), or None where the bytes must go
    through an open file instead: ``path`` names a device, FIFO or socket (a replaced device would
    turn ``/dev/null`` into a file, as root), or it leads through ``/proc`` (``/dev/stdout``: the
    command's own standard output, whatever that is)."""
    try:
        mode = os.stat(path).st_mode  # follows links
    except OSError:
        mode = None  # a new file (or a dangling link: its file is made)
    if mode is not None and not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        return None
    if not path.is_symlink():
        return path
    hops, current = 0, path
    while current.is_symlink() and hops < 40:
        if _proc(current):
            return None
        current, hops = Path(os.path.join(current.parent, os.readlink(current))), hops + 1
    return None if _proc(current) else Path(os.path.realpath(path))


def _proc(path: Path) -> bool:
    return Path(os.path.abspath(path)).parts[1:2] == ("proc",)


def _write_through(path: Path, chunks: Iterable[bytes]) -> None:
    """Write ``chunks`` into what ``path`` opens (a device, a FIFO, which waits for its reader,
    the command's standard output), appended where that is a file; a failure (``/dev/full``: no
    space) is an OutputError naming ``path``."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise _unwritable(path, exc) from None
    try:
        for chunk in chunks:
            view = memoryview(chunk)
            while view:
                try:
                    view = view[os.write(fd, view):]
                except InterruptedError:
                    continue
                except OSError as exc:
                    raise _unwritable(path, exc) from None
    finally:
        os.close(fd)


def _unwritable(path: Path, exc: OSError) -> OutputError:
    return OutputError(f"{path}: cannot write it ({exc.strerror or exc}); choose another output, "
                       "or free space there and run the same command again")


def _remove_orphans(path: Path) -> None:
    """Remove the temporary files of ``path`` whose writer (the process id in the name) is gone."""
    pattern = re.compile(re.escape(f".{path.name}.") + r"(\d+)-[0-9a-f]{12}\.tmp")
    try:
        names = [n for n in os.listdir(path.parent) if n.startswith(f".{path.name}.")]
    except OSError:
        return
    for name in names:
        match = pattern.fullmatch(name)
        if match and not _alive(int(match.group(1))):
            try:
                os.unlink(path.parent / name)
            except OSError:
                pass


def alive(pid: int) -> bool:
    """Whether process ``pid`` (a writer named in a temporary file's name) may still be running."""
    return _alive(pid)


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True  # another thread of this process may be writing it
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True
    return True


def _fsync_dir(folder: Path) -> None:
    """Make a rename in ``folder`` durable (where the system allows opening a directory)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


_SURROGATE = re.compile("[\ud800-\udfff]")


def holds_surrogate(value: Any) -> bool:
    """Whether a JSON value holds a lone surrogate in any text (``"\\ud800"`` parses to one; sit
    never writes one, and no UTF-8 file, hash or XML report can carry it). An object or list is
    searched as its JSON text (one pass in C: keys, texts and nesting alike), which holds every
    lone surrogate of its texts as it is."""
    if isinstance(value, (dict, list)):
        try:
            return _SURROGATE.search(json.dumps(value, ensure_ascii=False, check_circular=False)) is not None
        except (TypeError, ValueError, RecursionError):
            pass  # not JSON data: searched value by value
    return _holds_surrogate(value)


def _holds_surrogate(value: Any) -> bool:
    if isinstance(value, str):
        return _SURROGATE.search(value) is not None
    if isinstance(value, dict):
        return any(_holds_surrogate(k) or _holds_surrogate(v) for k, v in value.items())
    return isinstance(value, list) and any(_holds_surrogate(v) for v in value)


def _checked(convert: Callable[[dict], T]) -> Callable[[Any], T]:
    """``convert`` behind the checks every row of a run directory's JSONL files passes: an
    object, no lone surrogate in its texts."""
    def row(obj: Any) -> T:
        if not isinstance(obj, dict):
            raise TypeError(f"a JSON {type(obj).__name__}, not an object")
        if holds_surrogate(obj):
            raise ValueError("text holding a lone surrogate, which no report can carry")
        return convert(obj)

    return row


#: what a damaged row of a run directory's files says to do
_DAMAGED = "the run directory is damaged: run `sit run` again"


def _read_jsonl(path: Path, convert: Callable[[dict], T] = dict, offsets: Optional[array] = None) -> Iterator[T]:
    """The rows of a JSONL file of a run directory, each an object given to ``convert``; a line
    that is not valid JSON (too deep, a number out of range, not UTF-8) or not of the expected
    shape is an InputError naming the file and line. ``offsets``: each row's byte offset is
    appended to it (:class:`IssueFile`'s index)."""
    return read_jsonl(path, _checked(convert), hint=_DAMAGED, offsets=offsets)


class IssueFile(Sequence[Issue]):
    """A run's findings as ``issues.jsonl`` holds them, read from the file when asked, never
    held: iterating reads the file a line at a time (through the row checks :func:`load_run`
    applies), ``len()`` and indexing use an index of each row's byte offset (an ``array`` of 8
    bytes a finding, made by :meth:`check` or on first use) and read only the rows asked for.
    Re-iterable: every pass reads the file again. :meth:`at` reads many rows through one open
    file. ``convert`` turns a row into an :class:`Issue`. A file of at most :attr:`HOLD` findings
    (a short run's, such as the news set's 535) is read once and held: its reports read it many
    times, and what it holds is bounded."""

    #: the most findings held once read (a bounded window: more are read from the file when asked)
    HOLD = 1000

    def __init__(self, path: str | os.PathLike, convert: Callable[[dict], Issue]):
        self.path = Path(path)
        self.convert = convert
        self._offsets: Optional[array] = None
        self._held: Optional[list[Issue]] = None

    def check(self) -> "IssueFile":
        """Read every row through its checks once (a damaged row is an InputError naming its
        line, as :func:`load_run` always gave) and index them, holding them where they are at
        most :attr:`HOLD`; returns itself."""
        for _ in self._first_pass():
            pass
        return self

    def _first_pass(self) -> Iterator[Issue]:
        """The findings read from the file, indexed (and held, where at most :attr:`HOLD`) as
        they are read: a pass that runs to its end is the last one a short file needs."""
        offsets = array("q")
        held: Optional[list[Issue]] = []
        for issue in _read_jsonl(self.path, self.convert, offsets):
            if held is not None:
                held.append(issue)
                if len(held) > self.HOLD:
                    held = None
            yield issue
        self._offsets, self._held = offsets, held

    def _index(self) -> array:
        if self._offsets is None:
            self.check()
        return self._offsets

    def __len__(self) -> int:
        return len(self._index())

    def __iter__(self) -> Iterator[Issue]:
        if self._held is not None:
            return iter(self._held)
        if self._offsets is None:
            return self._first_pass()
        return _read_jsonl(self.path, self.convert)

    def at(self, indices: Iterable[int]) -> Iterator[Issue]:
        """The findings at ``indices`` (positions in the file's order), in that order."""
        offsets = self._index()
        if self._held is not None:
            return (self._held[i] for i in indices)
        return read_jsonl_at(self.path, (offsets[i] for i in indices), _checked(self.convert), hint=_DAMAGED)

    def __getitem__(self, index):
        positions = range(len(self))[index]  # an IndexError or a TypeError as a list gives
        if isinstance(index, slice):
            return list(self.at(positions))
        return next(self.at((positions,)))

    def __eq__(self, other: Any) -> bool:
        if not isinstance(other, (IssueFile, list, tuple)):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"IssueFile({str(self.path)!r})"


def read_at(issues: Sequence[Issue], positions: Iterable[int]) -> Iterator[Issue]:
    """The findings of ``issues`` at ``positions``, in that order: through one open file where
    ``issues`` is an :class:`IssueFile` (:meth:`IssueFile.at`), else by index."""
    at = getattr(issues, "at", None)
    return at(positions) if at is not None else (issues[n] for n in positions)


def _issue(row: dict, own_kinds: Optional[dict[str, str]] = None) -> Issue:
    """An :class:`Issue` from a row of issues.jsonl, every field of the type sit writes."""
    _fields(row, {"source_id": int, "rank": int, "distance": float, "original": str, "perturbed": str,
                  "original_translation": str, "perturbed_translation": str, "edit": dict},
            {"relation": str, "kind": str, "relation_diff": dict, "scores": dict, "evidence": dict})
    _edit(row["edit"])
    for key, value in row.get("relation_diff", {}).items():
        if not (isinstance(value, list) and len(value) == 2 and all(_is(v, int) for v in value)):
            raise ValueError(f"relation_diff[{key!r}] is not two counts")
    for key, value in row.get("scores", {}).items():
        if value is not None and not _is(value, float):
            raise ValueError(f"scores[{key!r}] is a {type(value).__name__}, not a number")
    return Issue.from_dict(row, own_kinds)


def _ran(row: dict, ran: Optional[set[str]]) -> dict:
    """``row`` where it names a relation the run ran (``ran``: the signature's and those
    ``relations_told`` tells; None: an older run.json that does not say), else a ValueError: its findings would be reported under a
    relation the run never tested."""
    relation = relation_of(row)
    if ran is not None and relation not in ran:
        raise ValueError(f"relation {str(relation)[:40]!r} is not one the run ran ({', '.join(sorted(ran)) or 'none'})")
    return row


def _pair(row: dict) -> Pair:
    _fields(row, {"source_id": int, "original": str, "perturbed": str, "edit": dict}, {"relation": str})
    _edit(row["edit"])
    return Pair.from_dict(row)


def _translation(row: dict) -> dict:
    _fields(row, {"text": str}, {"translation": str, "role": str, "source_id": int})
    return row


def _edit(edit: dict) -> None:
    _fields(edit, {}, {"position": int, "before": str, "after": str, "perturber": str, "char_start": int,
                       "char_end": int, "level": str, "note": str, "zipf": float, "similarity": float,
                       "lm_fall": float, "naturalness": float}, where="edit.")


#: the largest id, rank or count a run directory may hold (far beyond any real run)
MAX_INT = 10**12


def _is(value: Any, kind: type) -> bool:
    if isinstance(value, bool):
        return False
    if kind is int:
        return isinstance(value, int) and -1 <= value <= MAX_INT
    if kind is float:
        return isinstance(value, (int, float)) and abs(value) <= 1e300  # jsonio already refused NaN/inf
    return isinstance(value, kind)


def _fields(row: dict, required: dict[str, type], optional: dict[str, type], where: str = "") -> None:
    for key, kind in {**required, **optional}.items():
        if key not in row or (key in optional and row[key] is None):
            if key in required:
                raise KeyError(f"{where}{key}")
            continue
        if not _is(row[key], kind):
            numeric = isinstance(row[key], (int, float)) and not isinstance(row[key], bool) and kind in (int, float)
            shown = "a number out of range" if numeric else f"a {type(row[key]).__name__}"
            raise ValueError(f"{where}{key} is {shown}, not {_KINDS[kind]}")


_KINDS = {int: "an integer", float: "a number", str: "text", dict: "an object", list: "a list"}


_META_TYPES = {"signature": dict, "counts": dict, "timings": dict, "warnings": list, "teapot": dict, "input": str,
               "signature_line": str, "perturber_reason": str, "parser_reason": str, "relations_reason": str,
               "relations_told": dict, "engine": dict, "cache": str, "created": str, "command": str, "config": dict}
#: (``num_perturb`` and ``distance``: the fixed fields of a signature of old, still checked where present)
_SIGNATURE_TYPES = {"translator": str, "translator_model": str, "source_lang": str, "target_lang": str,
                    "perturber": str, "perturber_model": str, "num_perturb": int, "parser": str,
                    "parser_model": str, "distance": str, "threshold": float, "top_k": int, "seed": int,
                    "versions": dict, "perturber_options": dict, "translator_options": dict, "relations": dict}


def _counts_problem(counts: Any, where: str = "counts") -> Optional[str]:
    """What is wrong with run.json's counts (each a count or an object of counts), or None."""
    for key, value in counts.items():
        if isinstance(value, dict):
            inner = _counts_problem(value, f"{where}.{key}")
            if inner:
                return inner
        elif not _is(value, int) or value < 0:
            return f"{where}.{key} is {value!r:.40}, not a count"
    return None


_SUMMARY = ("mean", "std", "p5", "p95")


def _listed_problem(meta: dict) -> Optional[str]:
    """What is wrong with run.json's warnings (each text) and TEAPOT figures (a rate from 0 to 1,
    a count, score summaries of numbers), or None: a report would render them as they are."""
    bad = next((w for w in meta.get("warnings") or () if not isinstance(w, str)), None)
    if bad is not None:
        return f"warnings holds {bad!r:.40}, not text"
    teapot = meta.get("teapot") or {}
    rate = teapot.get("success_rate")
    if rate is not None and not (_is(rate, float) and 0 <= rate <= 1):
        return f"teapot.success_rate is {rate!r:.40}, not a rate from 0 to 1"
    if teapot.get("n") is not None and not (_is(teapot["n"], int) and teapot["n"] >= 0):
        return f"teapot.n is {teapot['n']!r:.40}, not a count"
    for side in ("s_src", "s_tgt"):
        summary = teapot.get(side)
        if summary is not None and not isinstance(summary, dict):
            return f"teapot.{side} is a {type(summary).__name__}, not a summary of scores"
        bad = next((k for k in _SUMMARY if summary is not None and not _is(summary.get(k), float)), None)
        if bad:
            return f"teapot.{side}.{bad} is {summary.get(bad)!r:.40}, not a number"
    return None


_TOLD_TYPES = {"title": str, "kinds": dict, "sides": list, "kind": str}


def _relations_problem(meta: dict) -> Optional[str]:
    """What is wrong with how run.json names its relations, or None (a report or ``--baseline``
    would otherwise read defaults in their place, or fail)."""
    return _options_problem(meta) or next(filter(None, (_told_problem(name, told) for name, told
                                                        in (meta.get("relations_told") or {}).items())), None)


def _options_problem(meta: dict) -> Optional[str]:
    """Each relation's options an object (in the signature and in ``config``); ``config``'s
    relations a list of names."""
    config = meta.get("config") or {}
    for key, kind in (("relation_options", dict), ("perturber_options", dict), ("relations", list)):
        if config.get(key) is not None and not isinstance(config[key], kind):
            return f"config.{key} is a {type(config[key]).__name__}, not {_KINDS[kind]}"
    if not all(isinstance(n, str) for n in config.get("relations") or ()):
        return "config.relations holds something other than names"
    options = [(f"signature.relations[{n!r}]", o) for n, o in ((meta.get("signature") or {}).get("relations") or {}).items()]
    options += [(f"config.relation_options[{n!r}]", o) for n, o in (config.get("relation_options") or {}).items()]
    return next((f"{where} is a {type(o).__name__}, not an object of options" for where, o in options
                 if not isinstance(o, dict)), None)


def _told_problem(name: str, told: Any) -> Optional[str]:
    """How one relation is told (``relations_told``): of the types sit writes."""
    where = f"relations_told[{name!r}]"
    if not isinstance(told, dict):
        return f"{where} is a {type(told).__name__}, not an object"
    try:
        _fields(told, {}, _TOLD_TYPES, where=f"{where}.")
    except ValueError as exc:
        return str(exc)
    sides = told.get("sides")
    if sides is not None and not (len(sides) == 2 and all(isinstance(s, str) for s in sides)):
        return f"{where}.sides is not two names"
    if not all(isinstance(v, str) for v in (told.get("kinds") or {}).values()):
        return f"{where}.kinds holds something other than text"
    return None


def _check_meta(meta: Any, path: Path) -> RunMeta:
    """run.json as the reports read it: an object, its parts of the right types, a signature."""
    problem = None
    if not isinstance(meta, dict):
        problem = f"a JSON {type(meta).__name__}, not an object"
    elif holds_surrogate(meta):
        problem = "text holding a lone surrogate, which no report can carry"
    else:
        problem = next((f"{k!r} is a {type(meta[k]).__name__}, not a {t.__name__}" for k, t in _META_TYPES.items()
                        if meta.get(k) is not None and not isinstance(meta[k], t)), None)
        if problem is None:
            try:
                _fields(meta.get("signature") or {}, {}, _SIGNATURE_TYPES, where="signature.")
                RunSignature.from_dict(meta.get("signature") or {})
            except (KeyError, TypeError, ValueError) as exc:
                problem = f"its signature is damaged ({exc})"
        if problem is None:
            problem = _counts_problem(meta.get("counts") or {}) or _listed_problem(meta) or _relations_problem(meta) or next(
                (f"timings.{k} is {v!r:.40}, not seconds" for k, v in (meta.get("timings") or {}).items()
                 if not _is(v, float) or v < 0), None)
    if problem:
        raise InputError(f"{path} is not the run.json sit writes ({problem}); run `sit run` again")
    return RunMeta.from_dict(meta)


@dataclass
class RunData:
    """Everything in a run directory, loaded."""

    path: Path
    meta: RunMeta
    #: the findings: a list, or (as :func:`load_run` and the pipeline give them) an
    #: :class:`IssueFile` that reads issues.jsonl when asked
    issues: Sequence[Issue]
    pairs: list[Pair] = field(default_factory=list)
    #: translations.jsonl's rows; None: not loaded, read from the run directory when asked
    #: (:meth:`source_translation`), as the pipeline hands its run to the reports
    translations: Optional[list[dict[str, Any]]] = field(default_factory=list)
    #: source id -> its sentence's translation, made on the first :meth:`source_translation`
    originals: Optional[dict[int, Optional[str]]] = field(default=None, init=False, repr=False, compare=False)
    #: what the reports work out from the findings once and share (their clusters, the per-finding
    #: keys of the view: :mod:`sit.report`), kept for this object's life
    derived: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    @property
    def signature(self) -> RunSignature:
        return self.meta.signature

    def source_translation(self, source_id: int) -> str | None:
        """The translation of sentence ``source_id`` (the first ``original`` row of the
        translations naming it), from the rows held or, where none are, from translations.jsonl
        in one pass."""
        if self.originals is None:
            rows = self.translations if self.translations is not None else _read_jsonl(
                self.path / "translations.jsonl", _translation)
            self.originals = {}
            for t in rows:
                if t.get("role") == "original":
                    self.originals.setdefault(t.get("source_id"), t.get("translation"))
        return self.originals.get(source_id)


def _incomplete(root: Path, name: str) -> InputError:
    return InputError(f"{root} has run.json but no {name}: the run directory is incomplete "
                      "(a run still going, or a file removed); run `sit run` again")


def load_run(path: str | os.PathLike, *, with_pairs: bool = True, check_issues: bool = True) -> RunData:
    """A run directory, checked: its run.json, its findings (:class:`IssueFile`: every row read
    through its checks now, then read again from the file when asked, never held) and, with
    ``with_pairs``, its pairs and translations (held). Damage is an InputError naming file and line.
    Without ``check_issues`` (a run that has just written them) the findings are checked only as
    they are read."""
    root = Path(path)
    meta_path = root / "run.json"
    if not meta_path.is_file():
        raise InputError(f"{root} is not a sit run directory (no run.json); pass the folder `sit run` wrote")
    raw = read_json(meta_path, hint="the run directory is damaged: run `sit run` again")
    meta = _check_meta(raw, meta_path)
    for name in ("issues.jsonl",) + (("pairs.jsonl", "translations.jsonl") if with_pairs else ()):
        if not (root / name).is_file():
            raise _incomplete(root, name)
    own = meta.own_kinds()
    ran = set(meta.signature.relations) | set(meta.relations_told) if "relations" in (raw.get("signature") or {}) else None
    issues = IssueFile(root / "issues.jsonl", lambda row: _issue(_ran(row, ran), own))
    if check_issues:
        issues.check()  # damage found now, as when every finding was loaded
    if "groups" not in raw.get("counts", {}):  # written before counts named their groups: count them (streamed)
        meta = replace(meta, counts=meta.counts.with_findings(issues))
    pairs: list[Pair] = []
    translations: list[dict[str, Any]] = []
    if with_pairs:
        pairs = list(_read_jsonl(root / "pairs.jsonl", _pair))
        translations = list(_read_jsonl(root / "translations.jsonl", _translation))
    return RunData(root, meta, issues, pairs, translations)


def check_run_files(path: str | os.PathLike) -> None:
    """Read a run directory's pairs.jsonl and translations.jsonl through their checks without
    keeping them (what reads only run.json and the issues, as ``sit precision``, still refuses a
    damaged directory): an InputError naming the file and line, as :func:`load_run` gives."""
    root = Path(path)
    for name, convert in (("pairs.jsonl", _pair), ("translations.jsonl", _translation)):
        if not (root / name).is_file():
            raise _incomplete(root, name)
        for _ in _read_jsonl(root / name, convert):
            pass
