"""Documents for the lead-bias test: a JSONL file, the bundled ``lead_docs`` set, or a dataset
from the Hugging Face hub (through the ``datasets`` library, where it is installed and the hub
is reachable)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from ..errors import ConfigError, InputError, MissingDependencyError
from ..jsonio import read_jsonl as _read_lines
from ..validate import check_number

TEXT_FIELDS = ("document", "article", "text", "source", "abstract")
SUMMARY_FIELDS = ("summary", "highlights", "reference", "target", "related_work")
BUNDLED = {"lead_docs": "lead_docs.jsonl"}

log = logging.getLogger("sit.summarize")


@dataclass(frozen=True)
class Document:
    id: str
    text: str
    reference: Optional[str] = None


def _pick(record: dict, explicit: Optional[str], candidates: tuple[str, ...], what: str, where: str, required: bool):
    if explicit:
        if explicit not in record:
            raise InputError(f"{where}: no field {explicit!r} (fields: {', '.join(sorted(record))})")
        return explicit
    for name in candidates:
        if name in record:
            return name
    if required:
        raise InputError(
            f"{where}: no {what} field; name it with --{what}-field (looked for {', '.join(candidates)}; "
            f"found {', '.join(sorted(record))})"
        )
    return None


def _documents(records, where: str, text_field, summary_field) -> list[Document]:
    """The documents of ``records`` ((line, object) pairs); empty ones are left out and said (a
    summary of nothing includes no lead sentence: it would count as a miss)."""
    docs, empty = [], []
    for n, rec in records:
        if not isinstance(rec, dict):
            raise InputError(f"{where}:{n}: expected a JSON object per line")
        tf = _pick(rec, text_field, TEXT_FIELDS, "text", f"{where}:{n}", True)
        sf = _pick(rec, summary_field, SUMMARY_FIELDS, "summary", f"{where}:{n}", False)
        text = rec[tf]
        if not isinstance(text, str):
            raise InputError(f"{where}:{n}: field {tf!r} is not a string")
        ref = rec.get(sf) if sf else None
        if ref is not None and not isinstance(ref, str):
            raise InputError(f"{where}:{n}: field {sf!r} is not a string")
        if not text.strip():
            empty.append(n)
            continue
        docs.append(Document(str(rec.get("id", n)), text, ref or None))
    if empty:
        log.warning("%s:%s: an empty document, left out (%d empty in all)", where, empty[0], len(empty))
    if not docs:
        raise InputError(f"{where}: no documents" + (" that are not empty" if empty else ""))
    return docs


def read_jsonl(path: str | Path, *, text_field: Optional[str] = None, summary_field: Optional[str] = None,
               size: Optional[int] = None) -> list[Document]:
    """Documents from a JSONL file, one object per line (``document`` and optional ``summary``)."""
    size = check_number(size, "--size", minimum=1, integer=True)
    p = Path(path)
    records = list(_read_lines(p, hint="each line must be a JSON object with a document",
                              with_lines=True))
    docs = _documents(records, str(p), text_field, summary_field)
    return docs[:size] if size else docs


def bundled_path(name: str) -> Path:
    from importlib import resources

    if name not in BUNDLED:
        raise ConfigError(f"unknown bundled document set {name!r}; choose one of: {', '.join(BUNDLED)}")
    for package in ("sit.datasets", "datasets"):
        try:
            p = resources.files(package) / BUNDLED[name]
            if p.is_file():
                return Path(str(p))
        except (ModuleNotFoundError, TypeError):
            continue
    p = Path(__file__).resolve().parents[2] / "datasets" / BUNDLED[name]
    if p.is_file():
        return p
    raise InputError(f"the bundled document set {name!r} is missing from this installation")


def load_hub(name: str, *, split: str = "test", size: Optional[int] = None, text_field: Optional[str] = None,
             summary_field: Optional[str] = None) -> list[Document]:
    """Documents from a hub dataset such as ``alexfabbri/multi_news`` (fields auto-detected)."""
    import importlib

    size = check_number(size, "--size", minimum=1, integer=True)

    try:
        hf = importlib.import_module("datasets")
        load_dataset = hf.load_dataset
    except (ImportError, AttributeError) as exc:
        raise MissingDependencyError(
            "hub datasets need the `datasets` library: pip install datasets (or pass --input docs.jsonl)"
        ) from exc
    from ..models import hub_reachable

    if not hub_reachable():
        raise InputError(
            f"cannot load dataset {name!r}: the Hugging Face hub is unreachable; pass documents with "
            "--input docs.jsonl (or --input lead_docs for the bundled set)"
        )
    spec = f"{split}[:{size}]" if size else split
    try:
        ds = load_dataset(name, split=spec)
    except Exception as exc:  # the datasets library raises many kinds
        raise InputError(f"cannot load dataset {name!r} split {spec!r}: {exc}") from exc
    return _documents(((i, dict(r)) for i, r in enumerate(ds)), name, text_field, summary_field)
