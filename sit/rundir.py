"""The run directory: every file a report needs, so ``sit report`` re-renders without work.

- ``run.json``: ``{"signature": RunSignature, "signature_line": str, "counts": {...},
  "timings": {stage: seconds}, "perturber_reason": str, "warnings": [str], "created": iso time,
  "command": str, "teapot": {...}}``
- ``pairs.jsonl``: one :class:`~sit.records.Pair` per line.
- ``translations.jsonl``: ``{"text", "translation", "role": "original"|"perturbed", "source_id"}``;
  ``translation`` is null where the translator failed.
- ``issues.jsonl``: one :class:`~sit.records.Issue` per line, worst first within each group of
  findings (:func:`sit.rank.worst_first`), each with its ``issue_id``.
- ``report.txt`` (and ``report.html`` and others written by :mod:`sit.report`).
"""

from __future__ import annotations

import json
import os
import tempfile
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, TypeVar

from .errors import InputError, OutputError
from .records import Issue, Pair, RunSignature

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
    probe = path if directory else path.parent
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


def check_same_run(out: Path, signature: RunSignature, source: str, *, force: bool = False) -> None:
    """Refuse to write over another run: ``out`` holds a run.json whose signature or input differs
    from this run's (re-running the same command writes over its own run and keeps the triage
    marks saved beside it); ``force`` allows it. Settings that do not change results (the
    versions of packages) are not compared."""
    meta_path = Path(out) / "run.json"
    if force or not meta_path.is_file():
        return
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        old = RunSignature.from_dict(meta.get("signature") or {})
    except (OSError, ValueError, TypeError, AttributeError):
        raise OutputError(f"--out {out}: holds a run.json sit cannot read; choose another directory or pass --force "
                          "to replace it") from None
    same = ({**old.to_dict(), "versions": {}} == {**signature.to_dict(), "versions": {}}
            and meta.get("input") == source)
    if not same:
        raise OutputError(f"--out {out}: holds another run ({old.format(short=True)}, input {meta.get('input')}); "
                          "choose another directory, or pass --force to replace it")


def write_json_atomic(path: Path, obj: Any) -> None:
    write_bytes_atomic(path, (json.dumps(obj, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))


def write_jsonl_atomic(path: Path, rows: Iterable[dict]) -> None:
    write_bytes_atomic(path, "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows).encode("utf-8"))


def write_text_atomic(path: Path, text: str) -> None:
    write_bytes_atomic(path, text.encode("utf-8"))


def write_bytes_atomic(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` all at once: written to a temporary file beside it,
    ``fsync``-ed, then renamed over it, so a crash leaves the old file or the new one, never a
    part. The new file gets the mode a plain ``open()`` gives (0o666 less the umask, applied by
    the system; the umask is never changed)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    while True:
        tmp = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            break
        except FileExistsError:
            continue
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
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


def _read_jsonl(path: Path, convert: Callable[[dict], T] = dict) -> Iterator[T]:
    """The rows of a JSONL file of a run directory, each an object given to ``convert``; a line
    that is not valid JSON or not of the expected shape is an InputError naming the line."""
    with open(path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputError(f"{path}:{lineno}: not valid JSON ({exc.msg}); is this a sit run directory?") from exc
            try:
                if not isinstance(row, dict):
                    raise TypeError(f"a JSON {type(row).__name__}, not an object")
                yield convert(row)
            except (KeyError, TypeError, ValueError, AttributeError) as exc:
                what = f"no field {exc}" if isinstance(exc, KeyError) else str(exc) or type(exc).__name__
                raise InputError(f"{path}:{lineno}: not a row sit writes ({what}); the run directory is damaged: "
                                 "run `sit run` again") from None


_META_TYPES = {"signature": dict, "counts": dict, "timings": dict, "warnings": list, "teapot": dict}


def _check_meta(meta: Any, path: Path) -> dict:
    """run.json as the reports read it: an object, its parts of the right types, a signature."""
    problem = None
    if not isinstance(meta, dict):
        problem = f"a JSON {type(meta).__name__}, not an object"
    else:
        problem = next((f"{k!r} is a {type(meta[k]).__name__}, not a {t.__name__}" for k, t in _META_TYPES.items()
                        if meta.get(k) is not None and not isinstance(meta[k], t)), None)
        if problem is None:
            try:
                RunSignature.from_dict(meta.get("signature") or {})
            except (KeyError, TypeError, ValueError) as exc:
                problem = f"its signature is damaged ({exc})"
    if problem:
        raise InputError(f"{path} is not the run.json sit writes ({problem}); run `sit run` again")
    return meta


@dataclass
class RunData:
    """Everything in a run directory, loaded."""

    path: Path
    meta: dict[str, Any]
    issues: list[Issue]
    pairs: list[Pair] = field(default_factory=list)
    translations: list[dict[str, Any]] = field(default_factory=list)

    @property
    def signature(self) -> RunSignature:
        return RunSignature.from_dict(self.meta["signature"])

    def source_translation(self, source_id: int) -> str | None:
        for t in self.translations:
            if t.get("role") == "original" and t.get("source_id") == source_id:
                return t.get("translation")
        return None


def load_run(path: str | os.PathLike, *, with_pairs: bool = True) -> RunData:
    root = Path(path)
    meta_path = root / "run.json"
    if not meta_path.is_file():
        raise InputError(f"{root} is not a sit run directory (no run.json); pass the folder `sit run` wrote")
    try:
        meta = _check_meta(json.loads(meta_path.read_text(encoding="utf-8")), meta_path)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputError(f"{meta_path} is not valid JSON: {exc}") from exc
    issues = list(_read_jsonl(root / "issues.jsonl", Issue.from_dict)) if (root / "issues.jsonl").exists() else []
    pairs: list[Pair] = []
    translations: list[dict[str, Any]] = []
    if with_pairs:
        if (root / "pairs.jsonl").exists():
            pairs = list(_read_jsonl(root / "pairs.jsonl", Pair.from_dict))
        if (root / "translations.jsonl").exists():
            translations = list(_read_jsonl(root / "translations.jsonl"))
    return RunData(root, meta, issues, pairs, translations)
