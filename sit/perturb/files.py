"""Perturbing a file line by line: one perturbed line per input line (line-aligned, ready for
``sit eval --adv-src``) and one JSON record per line saying what changed, or why nothing could."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any, Optional, Sequence

from .. import inputs
from ..errors import InputError
from ..rundir import write_text_atomic
from .noise import NoisePerturber, Outcome, not_applied


def outcomes(perturber, texts: Sequence[str], rng: random.Random) -> list[Outcome]:
    """One outcome per text from any registered perturber: a noise perturber's first variant
    (with every change), or another perturber's first pair that changes the text."""
    texts = list(texts)
    if isinstance(perturber, NoisePerturber):
        return [outs[0] for outs in perturber.perturb_detailed(texts, rng)]
    todo = [i for i, t in enumerate(texts) if t.strip()]
    first: dict[int, Any] = {}
    if todo:
        for p in perturber.perturb([texts[i] for i in todo], rng, ids=todo):
            if p.perturbed != p.original:
                first.setdefault(p.source_id, p)
    out = []
    for i, t in enumerate(texts):
        p = first.get(i)
        if not t.strip():
            out.append(not_applied(t, "empty text"))
        elif p is None:
            out.append(not_applied(t, f"{perturber.name} proposed no change"))
        else:
            out.append(Outcome(t, p.perturbed, (p.edit,)))  # one change: it stood where it stands
    return out


def read_lines(path: str | os.PathLike) -> list[str]:
    """The lines of a UTF-8 file (empty lines kept, so the output stays line-aligned)."""
    lines = inputs.read_lines(path)
    if not any(line.strip() for line in lines):
        raise InputError(f"{path} has no text (it is empty or blank); put one text per line")
    return lines


def _one_line(text: str) -> str:
    return text.replace("\r\n", " ").replace("\n", " ").replace("\r", " ")


def records_path_for(output_path: str | os.PathLike) -> Path:
    """Where the records of ``output_path`` go when no path is given: ``<output>.edits.jsonl``."""
    out_path = Path(output_path)
    return out_path.with_name(out_path.name + ".edits.jsonl")


def perturb_file(
    input_path: str | os.PathLike,
    output_path: str | os.PathLike,
    perturber,
    *,
    seed: int = 0,
    records_path: Optional[str | os.PathLike] = None,
) -> dict[str, Any]:
    """Perturb ``input_path`` line by line with ``random.Random(seed)``; write the perturbed lines
    to ``output_path`` (a line that cannot be perturbed is copied unchanged) and a JSONL record
    per line to ``records_path`` (default ``<output>.edits.jsonl``). Returns counts and paths."""
    lines = read_lines(input_path)
    out_path = Path(output_path)
    rec_path = Path(records_path) if records_path else records_path_for(out_path)
    if out_path.resolve() == Path(input_path).resolve() or rec_path.resolve() == Path(input_path).resolve():
        raise InputError("the output would overwrite the input; choose another --output")
    results = outcomes(perturber, lines, random.Random(seed))
    options = perturber.options()
    recs = []
    for n, o in enumerate(results, start=1):
        d = o.to_dict()
        recs.append(json.dumps({"line": n, "perturbation": perturber.name, "level": perturber.level,
                                "seed": seed, **d, "perturbed": _one_line(d["perturbed"])}, ensure_ascii=False))
    write_text_atomic(out_path, "".join(_one_line(o.text) + "\n" for o in results))
    write_text_atomic(rec_path, "".join(r + "\n" for r in recs))
    applied = sum(1 for o in results if o.applied)
    reasons: dict[str, int] = {}
    for o in results:
        if not o.applied:
            reasons[o.reason] = reasons.get(o.reason, 0) + 1
    return {
        "lines": len(results), "applied": applied, "not_applied": len(results) - applied,
        "reasons": reasons, "output": str(out_path), "records": str(rec_path), "options": options,
    }
