"""Print the labelling sample of the production relations from a run directory: the top-1
finding of up to ``--n`` flagged sentences per group (seed 2026; all where a group has fewer),
one compact block per finding, for labelling by docs/labels/GUIDE.md's strict rule.

    python3 docs/labels/production_sample.py RUN_DIR [--n 20] [--group numbers.format]
"""

import argparse
import json
import random
from collections.abc import Collection
from pathlib import Path

PRODUCTION = ("numbers", "passthrough", "case", "punctuation", "length", "language", "batch")


def sample(run: Path, n: int, relations: Collection[str] = PRODUCTION) -> dict[str, list[dict]]:
    rows = [json.loads(line) for line in open(run / "issues.jsonl", encoding="utf-8")]
    groups: dict[str, list[dict]] = {}
    for r in rows:
        if r["relation"] in relations and r["rank"] == 1:
            groups.setdefault(r.get("group") or (f"{r['relation']}.{r['kind']}" if r["kind"] else r["relation"]),
                              []).append(r)
    out = {}
    for group, members in groups.items():
        members.sort(key=lambda r: r["source_id"])
        picked = members if len(members) <= n else random.Random(2026).sample(members, n)
        out[group] = sorted(picked, key=lambda r: r["source_id"])
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("run", type=Path)
    ap.add_argument("--n", type=int, default=20)
    ap.add_argument("--group")
    args = ap.parse_args()
    for group, rows in sample(args.run, args.n).items():
        if args.group and group != args.group:
            continue
        for r in rows:
            print(f"== {group} {r['source_id']}: {r['original']}")
            if r["perturbed"] != r["original"]:
                print(f"   variant: {r['perturbed']}")
            print(f"   T: {r['original_translation']}")
            if r["perturbed_translation"] != r["original_translation"]:
                print(f"   V: {r['perturbed_translation']}")
            print(f"   E: {json.dumps(r['evidence'], ensure_ascii=False)}")


if __name__ == "__main__":
    main()
