"""The run directory: every file a report needs, so ``sit report`` re-renders without work.

- ``run.json``: ``{"signature": RunSignature, "signature_line": str, "counts": {...},
  "timings": {stage: seconds}, "perturber_reason": str, "warnings": [str], "created": iso time,
  "command": str, "teapot": {...}}``
- ``pairs.jsonl``: one :class:`~sit.records.Pair` per line.
- ``translations.jsonl``: ``{"text", "translation", "role": "original"|"perturbed", "source_id"}``;
  ``translation`` is null where the translator failed.
- ``issues.jsonl``: one :class:`~sit.records.Issue` per line, ranked: by source id, then rank.
- ``report.txt`` (and ``report.html`` and others written by :mod:`sit.report`).
"""

from __future__ import annotations

import json
import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator

from .errors import InputError
from .records import Issue, Pair, RunSignature


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


def _read_jsonl(path: Path) -> Iterator[dict]:
    with open(path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                yield json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputError(f"{path}:{lineno}: not valid JSON ({exc.msg}); is this a sit run directory?") from exc


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
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputError(f"{meta_path} is not valid JSON: {exc}") from exc
    issues = [Issue.from_dict(d) for d in _read_jsonl(root / "issues.jsonl")] if (root / "issues.jsonl").exists() else []
    pairs: list[Pair] = []
    translations: list[dict[str, Any]] = []
    if with_pairs:
        if (root / "pairs.jsonl").exists():
            pairs = [Pair.from_dict(d) for d in _read_jsonl(root / "pairs.jsonl")]
        if (root / "translations.jsonl").exists():
            translations = list(_read_jsonl(root / "translations.jsonl"))
    return RunData(root, meta, issues, pairs, translations)
