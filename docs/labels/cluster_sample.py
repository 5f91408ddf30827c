"""Print the clusters of a run for a purity check: the top ``--top`` clusters by rank and
``--others`` random ones of the rest (seed 2026), each with up to ``--per`` of its findings
(issue_ids -> issues.jsonl), for labelling whether each finding is the cluster's bug.

    python3 docs/labels/cluster_sample.py RUN_DIR [--top 10] [--others 15] [--per 25]
"""

import argparse
import json
import random
from pathlib import Path


def pick(run: Path, top: int, others: int) -> list[dict]:
    clusters = sorted((json.loads(line) for line in open(run / "clusters.jsonl", encoding="utf-8")),
                      key=lambda c: c["rank"])
    rest = clusters[top:]
    chosen = random.Random(2026).sample(rest, min(others, len(rest)))
    return clusters[:top] + sorted(chosen, key=lambda c: c["rank"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run", type=Path)
    ap.add_argument("--top", type=int, default=10)
    ap.add_argument("--others", type=int, default=15)
    ap.add_argument("--per", type=int, default=25)
    args = ap.parse_args()
    rows = {r["issue_id"]: r for r in map(json.loads, open(args.run / "issues.jsonl", encoding="utf-8"))}
    for c in pick(args.run, args.top, args.others):
        print(f"##### rank {c['rank']} {c['cluster_id']} findings={c['findings']} groups={c['groups']}")
        print(f"### {c['title']}")
        for iid in c["issue_ids"][: args.per]:
            r = rows[iid]
            print(f"-- {iid}\n   S: {r['original']}")
            if r["perturbed"] != r["original"]:
                print(f"   V: {r['perturbed']}")
            print(f"   ST: {r['original_translation']}")
            if r["perturbed_translation"] != r["original_translation"]:
                print(f"   VT: {r['perturbed_translation']}")
            print(f"   E: {json.dumps(r['evidence'], ensure_ascii=False)}")


if __name__ == "__main__":
    main()
