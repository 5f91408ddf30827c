"""A regression suite from a run: the failing test cases, kept in a file and re-run on any translator.

``sit export RUN -o cases.jsonl`` (:func:`export_cases`) writes one line per test case with a
finding: ``{"case_id", "relation", "source_id", "source", "variant", "edit", "relation_options",
"translations": {"source", "variant"}, "translator", "failures": [{"issue_id", "group", "kind",
"cluster_id", "bug", "evidence"}]}``. ``sit run --cases cases.jsonl --translator ...`` reads it
(:func:`load_cases`) and runs exactly those cases, through the cache, with each relation's check;
:func:`regression_results` then says, case by case, which still fail and which pass now.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Optional

from .errors import InputError
from .inputs import MAX_LINE_CHARS
from .jsonio import read_jsonl
from .records import Issue, Pair, stable_hash
from .rundir import MAX_INT, holds_surrogate

#: what a run writes beside its reports after ``sit run --cases``: one line per case of the file
RESULTS_FILE = "regression.jsonl"


def case_id(relation: str, source_id: int, source: str, variant: str) -> str:
    """A case's id: a hash of its relation and both source texts (the same in every run)."""
    return stable_hash("case", relation, source_id, source, variant)


def _case_of(issue: Issue) -> str:
    return case_id(issue.relation, issue.pair.source_id, issue.pair.original, issue.pair.perturbed)


def export_rows(run) -> list[dict[str, Any]]:
    """The failing test cases of a loaded run (:class:`sit.rundir.RunData`), one row per case,
    the worst cluster's cases first."""
    from .report.clusters import run_clusters

    clusters = run_clusters(run)
    of_issue = {issue_id: c for c in clusters for issue_id in c.issue_ids}
    # the rows are what is written (every failing case with its failures): held, the findings read once, by cluster
    options = (run.meta.config or {}).get("relation_options") or {}
    rows: dict[str, dict[str, Any]] = {}
    for cluster in clusters:
        for issue in cluster.issues:
            cid = _case_of(issue)
            row = rows.get(cid)
            if row is None:
                pair = issue.pair
                row = rows[cid] = {
                    "case_id": cid, "relation": issue.relation, "source_id": pair.source_id,
                    "source": pair.original, "variant": pair.perturbed, "edit": pair.edit.to_dict(),
                    "relation_options": dict(options.get(issue.relation) or {}),
                    "translations": {"source": issue.original_translation, "variant": issue.perturbed_translation},
                    "translator": run.signature.format(short=True), "failures": []}
            c = of_issue[issue.issue_id]
            row["failures"].append({"issue_id": issue.issue_id, "group": issue.group, "kind": issue.kind,
                                    "cluster_id": c.cluster_id, "bug": c.title, "evidence": dict(issue.evidence)})
    return list(rows.values())


def export_cases(run, path: str | os.PathLike) -> int:
    """Write the failing test cases of ``run`` to ``path`` (JSONL); returns how many."""
    from .rundir import write_jsonl_atomic

    rows = export_rows(run)
    write_jsonl_atomic(Path(path), rows)
    return len(rows)


@dataclass(frozen=True)
class CaseFile:
    """The test cases of a cases file: their pairs by relation, the sentences they come from,
    the relations' options as the exporting run set them, and the rows as read."""

    path: str
    pairs: dict[str, list[Pair]]
    ids: list[int]
    texts: list[str]
    relation_options: dict[str, dict[str, Any]]
    rows: list[dict[str, Any]]

    @property
    def relations(self) -> tuple[str, ...]:
        return tuple(self.pairs)


def _row(row: Any, max_chars: int = MAX_LINE_CHARS) -> dict[str, Any]:
    if not isinstance(row, dict):
        raise TypeError("a case is a JSON object")
    for key, kind in (("relation", str), ("source_id", int), ("source", str), ("variant", str), ("edit", dict)):
        if not isinstance(row.get(key), kind) or isinstance(row.get(key), bool):
            raise ValueError(f"`{key}` is missing or not {kind.__name__}")
    if not 0 <= row["source_id"] <= MAX_INT:  # a line number, as a run directory holds it
        raise ValueError(f"`source_id` is not a line number from 0 to {MAX_INT:,}")
    if not isinstance(row.get("relation_options") or {}, dict):
        raise ValueError("`relation_options` is not an object of option: value")
    for key in ("source", "variant"):
        if len(row[key]) > max_chars:
            raise ValueError(f"the {key} has {len(row[key]):,} characters, over the limit of {max_chars:,}: "
                             "raise it with --max-line-chars")
    if holds_surrogate(row):
        raise ValueError("it holds a lone surrogate: an escape such as \\ud800, which is no character")
    Pair.from_dict({**row, "original": row["source"], "perturbed": row["variant"]})  # the edit must read
    return row


def load_cases(path: str | os.PathLike, max_chars: int = MAX_LINE_CHARS) -> CaseFile:
    """Read a cases file written by ``sit export`` (an InputError names a damaged line: one that
    is not a case, or whose texts are longer than ``max_chars``, ``--max-line-chars``)."""
    p = Path(path)
    if not p.is_file():
        raise InputError(f"--cases {p}: no such file; write it with `sit export RUN -o {p}`")
    rows = list(read_jsonl(p, lambda row: _row(row, max_chars), hint="write it with `sit export RUN -o FILE`"))
    if not rows:
        raise InputError(f"--cases {p}: no test cases in it (`sit export` writes none for a run without findings)")
    pairs: dict[str, list[Pair]] = {}
    sentences: dict[int, str] = {}
    options: dict[str, dict[str, Any]] = {}
    elsewhere: list[Pair] = []
    for row in rows:
        pair = Pair.from_dict({**row, "original": row["source"], "perturbed": row["variant"]})
        pairs.setdefault(pair.relation, []).append(pair)
        options.setdefault(pair.relation, dict(row.get("relation_options") or {}))
        if not _is_sentence(pair):
            elsewhere.append(pair)
        elif sentences.setdefault(pair.source_id, pair.original) != pair.original:
            raise InputError(f"--cases {p}: source {pair.source_id} has two different sentences; "
                             "export the cases of one run into one file")
    for pair in elsewhere:  # a sentence no case of the file gives: its first text stands for it
        sentences.setdefault(pair.source_id, pair.original)
    ids = sorted(sentences)
    return CaseFile(str(p), pairs, ids, [sentences[i] for i in ids], options, rows)


def _is_sentence(pair: Pair) -> bool:
    """Whether the first text of a case is the sentence it belongs to: as its relation declares,
    but not where a single-translation check found something in a text another relation made
    (:func:`sit.relations.every.text_issue`: its edit's note names that relation, such as a
    ``language`` finding in a phrase ``sit`` translated alone), whose first text is that text."""
    return _first_is_sentence(pair.relation) and not (pair.edit.level == "sentence" and pair.edit.note not in ("", "original")
                                                       and pair.original == pair.perturbed)


def _first_is_sentence(relation: str) -> bool:
    """Whether the first text of ``relation``'s cases is their sentence (as it declares; a
    relation that does not load here is taken to say so)."""
    from .relations import declared_info

    info = declared_info(relation)
    return info is None or info.first_is_sentence


def regression_results(cases: CaseFile, issues: Iterable[Issue]) -> list[dict[str, Any]]:
    """For each case of the file: its id, relation, source id, the groups it failed before, those
    it fails now (``still_fails``: any of them again) and the new translation's findings."""
    return regression_check(cases, issues)[0]


def regression_check(cases: CaseFile, issues: Iterable[Issue]) -> tuple[list[dict[str, Any]], list[Issue]]:
    """:func:`regression_results`, and the run's findings that fail a case again (on a case of the
    file, in a group it failed before): what ``sit run --cases --fail-on`` counts."""
    wanted = {case_id(row["relation"], row["source_id"], row["source"], row["variant"]) for row in cases.rows}
    now: dict[str, list[Issue]] = {}
    for issue in issues:  # read once (a run's issues.jsonl streams): only the file's cases' findings are kept
        cid = _case_of(issue)
        if cid in wanted:
            now.setdefault(cid, []).append(issue)
    out, again, counted = [], [], set()
    for row in cases.rows:
        cid = case_id(row["relation"], row["source_id"], row["source"], row["variant"])
        before = [f.get("group") for f in row.get("failures") or [] if isinstance(f, dict)]
        found = now.get(cid, [])
        groups = [i.group for i in found]
        if cid not in counted:  # a case given twice counts its findings once
            again += [i for i in found if i.group in before]
            counted.add(cid)
        out.append({"case_id": cid, "relation": row["relation"], "source_id": row["source_id"],
                    "variant": row["variant"], "failed": before, "fails_now": groups,
                    "still_fails": bool(set(before) & set(groups)),
                    "bugs": sorted({f.get("bug") for f in row.get("failures") or [] if isinstance(f, dict)} - {None}),
                    "translation": found[0].perturbed_translation if found else None})
    return out, again


def summary_line(results: list[dict[str, Any]]) -> str:
    """``12 of 40 exported cases still fail, 28 pass now (by relation: ...)``."""
    still = Counter(r["relation"] for r in results if r["still_fails"])
    total = Counter(r["relation"] for r in results)
    by = ", ".join(f"{rel} {still[rel]}/{n}" for rel, n in total.items())
    n_still = sum(still.values())
    return (f"{n_still} of {len(results)} exported case(s) still fail, {len(results) - n_still} pass now "
            f"(still failing by relation: {by})")


def write_results(run_dir: str | os.PathLike, results: list[dict[str, Any]]) -> Optional[Path]:
    """Write ``regression.jsonl`` into the run directory."""
    from .rundir import write_jsonl_atomic

    path = Path(run_dir) / RESULTS_FILE
    write_jsonl_atomic(path, results)
    return path


__all__ = ["CaseFile", "RESULTS_FILE", "case_id", "export_cases", "export_rows", "load_cases", "regression_check",
           "regression_results", "summary_line", "write_results"]
