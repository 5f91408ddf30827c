"""Make the blind labelling files of docs/precision.md from several run directories.

    python3 docs/labels/blind_sample.py NAME=RUN_DIR [NAME=RUN_DIR ...] --out DIR [--n 50] [--parts 3] [--top N]

Takes up to ``--n`` random top-1 `sit` structure issues of each run (seed 2026; all of them where
a run has fewer), or with ``--top N`` the first N `sit` structure issues of each run in the order
``issues.jsonl`` keeps them (the report's order, every rank), pools them (an issue two runs share is labelled once), shuffles the pool, numbers
each item (``item``) and splits it into ``--parts`` files ``inK.jsonl`` for as many labellers, who
do not learn which run an item came from. ``members.json`` says which items belong to which run.
Labellers follow docs/labels/GUIDE.md and copy ``item`` into their answers.

With ``--known docs/labels``, an item whose perturbed sentence and both translations match an item
labelled there (a label row whose ``item`` names a labelled input line, ``DIR/L000`` or ``L000``)
keeps that label: ``known.jsonl`` holds those labels under the new item ids, and only the other
items go to the labellers, as ``new-K.jsonl`` (at most ``--per-file`` each) instead of ``inK.jsonl``.
"""

import argparse
import json
import random
from pathlib import Path


def top1(run: Path) -> list[dict]:
    rows = [json.loads(line) for line in open(run / "issues.jsonl", encoding="utf-8")]
    return sorted((r for r in rows if r.get("group", r["relation"]) == "sit" and r.get("kind") in (None, "", "structure") and r["rank"] == 1),
                  key=lambda r: r["source_id"])


def top(run: Path, n: int) -> list[dict]:
    """The first ``n`` `sit` structure issues of ``run`` in ``issues.jsonl``'s order (every rank)."""
    rows = [json.loads(line) for line in open(run / "issues.jsonl", encoding="utf-8")]
    return [r for r in rows if r.get("group", r["relation"]) == "sit" and r.get("kind") in (None, "", "structure")][:n]


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in open(path, encoding="utf-8") if line.strip()]


def _key(row: dict) -> tuple:
    return row["perturbed"], row["original_translation"], row["perturbed_translation"]


def known_labels(root: Path) -> dict[tuple, dict]:
    """(perturbed, original translation, perturbed translation) -> a label given under ``root``."""
    inputs: dict[tuple[str, str], list[dict]] = {}  # (folder, item) and ("", item) -> input lines
    for path in sorted(root.glob("*/*.jsonl")):
        for row in _rows(path):
            if "item" in row and "perturbed_translation" in row:
                for where in (path.parent.name, ""):
                    inputs.setdefault((where, row["item"]), []).append(row)
    known: dict[tuple, dict] = {}
    for path in sorted(root.glob("labels-*.jsonl")) + sorted(root.glob("*/out*.jsonl")):
        for row in _rows(path):
            if "label" not in row or not row.get("item"):
                continue
            folder, _, item = row["item"].rpartition("/")
            folder = folder or (path.parent.name if path.parent != root else "")
            for line in inputs.get((folder, item), []) or inputs.get(("", item), []):
                if line["perturbed"] == row["perturbed"]:
                    known.setdefault(_key(line), row)
    return known


def write_parts(out: Path, keys: list, items: dict, ids: dict, args) -> None:
    """The labellers' files: every item in ``--parts`` files, or with ``--known`` the items no
    label there covers, ``--per-file`` at most each, and ``known.jsonl`` with the others' labels."""
    if args.known is None:
        parts = [keys[part :: args.parts] for part in range(args.parts)]
        names = [f"in{part}.jsonl" for part in range(args.parts)]
    else:
        known = known_labels(args.known)
        with open(out / "known.jsonl", "w", encoding="utf-8") as fh:
            for k in keys:
                if _key(items[k]) in known:
                    fh.write(json.dumps({**known[_key(items[k])], "item": ids[k]}, ensure_ascii=False) + "\n")
        new = [k for k in keys if _key(items[k]) not in known]
        count = max(1, -(-len(new) // args.per_file))
        parts = [new[part :: count] for part in range(count)]
        names = [f"new-{part}.jsonl" for part in range(count)]
        print(f"{len(keys) - len(new)} items keep a label from {args.known} (known.jsonl); {len(new)} new")
    for name, part in zip(names, parts):
        with open(out / name, "w", encoding="utf-8") as fh:
            for k in part:
                fh.write(json.dumps({"item": ids[k], **items[k]}, ensure_ascii=False) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", nargs="+", help="NAME=RUN_DIR")
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--n", type=int, default=50)
    ap.add_argument("--parts", type=int, default=3)
    ap.add_argument("--known", type=Path, help="labels folder (docs/labels): items labelled there keep their label")
    ap.add_argument("--per-file", type=int, default=25, help="with --known: items per new-K.jsonl")
    ap.add_argument("--top", type=int, help="the first N structure issues of each run (every rank), not a sample")
    args = ap.parse_args()
    rng = random.Random(2026)
    items: dict[tuple[str, str], dict] = {}
    members: dict[str, list[tuple[str, str]]] = {}
    for spec in args.runs:
        name, run = spec.split("=", 1)
        if args.top:
            rows = top(Path(run), args.top)
        else:
            rows = top1(Path(run))
            rows = rng.sample(rows, args.n) if len(rows) > args.n else rows
        members[name] = []
        for r in rows:
            key = (r["original"], r["perturbed"])
            items.setdefault(key, {
                "source_id": r["source_id"], "rank": r["rank"], "relation": "sit", "original": r["original"],
                "perturbed": r["perturbed"], "original_translation": r["original_translation"],
                "perturbed_translation": r["perturbed_translation"],
                "edit": {"before": r["edit"]["before"], "after": r["edit"]["after"]},
            })
            members[name].append(key)
    keys = list(items)
    rng.shuffle(keys)
    ids = {k: f"L{n:03d}" for n, k in enumerate(keys)}
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "members.json").write_text(json.dumps({n: [ids[k] for k in ks] for n, ks in members.items()}, indent=1))
    write_parts(args.out, keys, items, ids, args)
    print(f"{len(keys)} items in {args.parts} files; " + ", ".join(f"{n}: {len(v)}" for n, v in members.items()))


if __name__ == "__main__":
    main()
