"""Make the blind labelling files of docs/precision.md from several run directories.

    python3 docs/labels/blind_sample.py NAME=RUN_DIR [NAME=RUN_DIR ...] --out DIR [--n 50] [--parts 3]

Takes up to ``--n`` random top-1 `sit` structure issues of each run (seed 2026; all of them where
a run has fewer), pools them (an issue two runs share is labelled once), shuffles the pool, numbers
each item (``item``) and splits it into ``--parts`` files ``inK.jsonl`` for as many labellers, who
do not learn which run an item came from. ``members.json`` says which items belong to which run.
Labellers follow docs/labels/GUIDE.md and copy ``item`` into their answers.
"""

import argparse
import json
import random
from pathlib import Path


def top1(run: Path) -> list[dict]:
    rows = [json.loads(line) for line in open(run / "issues.jsonl", encoding="utf-8")]
    return sorted((r for r in rows if r["relation"] == "sit" and not r.get("kind") and r["rank"] == 1),
                  key=lambda r: r["source_id"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", nargs="+", help="NAME=RUN_DIR")
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--n", type=int, default=50)
    ap.add_argument("--parts", type=int, default=3)
    args = ap.parse_args()
    rng = random.Random(2026)
    items: dict[tuple[str, str], dict] = {}
    members: dict[str, list[tuple[str, str]]] = {}
    for spec in args.runs:
        name, run = spec.split("=", 1)
        rows = top1(Path(run))
        rows = rng.sample(rows, args.n) if len(rows) > args.n else rows
        members[name] = []
        for r in rows:
            key = (r["original"], r["perturbed"])
            items.setdefault(key, {
                "source_id": r["source_id"], "rank": 1, "relation": "sit", "original": r["original"],
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
    for part in range(args.parts):
        with open(args.out / f"in{part}.jsonl", "w", encoding="utf-8") as fh:
            for k in keys[part :: args.parts]:
                fh.write(json.dumps({"item": ids[k], **items[k]}, ensure_ascii=False) + "\n")
    print(f"{len(keys)} items in {args.parts} files; " + ", ".join(f"{n}: {len(v)}" for n, v in members.items()))


if __name__ == "__main__":
    main()
