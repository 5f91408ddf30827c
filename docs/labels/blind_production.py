"""Make a blind labelling file of production groups from a run directory: the sample of
docs/labels/production_sample.py (top-1 of up to ``--n`` flagged sentences per group, seed 2026),
for the groups named, shuffled together (seed 2026) and numbered B00, B01 ... so that the labeller
does not see which group an item came from, nor the group's earlier figures.

    python3 docs/labels/blind_production.py RUN_DIR --groups passthrough.context,case.upper,case.lower,case.title --out DIR

Writes ``DIR/items.txt`` (what the labeller reads) and ``DIR/members.json`` (item -> issue_id).
"""

import argparse
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from production_sample import PRODUCTION, sample  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run", type=Path)
    ap.add_argument("--groups", required=True, help="comma list of groups (case.upper, passthrough.context ...)")
    ap.add_argument("--n", type=int, default=20)
    ap.add_argument("--relations", default=",".join(sorted(PRODUCTION)),
                    help="comma list of the relations sampled (default: the production relations)")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    wanted = sorted(args.groups.split(","))  # a fixed order before the shuffle, whatever the order given
    picked = sample(args.run, args.n, set(args.relations.split(",")))
    items = [r for g in wanted for r in picked.get(g, [])]
    random.Random(2026).shuffle(items)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "members.json").write_text(json.dumps({f"B{i:02d}": r["issue_id"] for i, r in enumerate(items)}, indent=1))
    with open(args.out / "items.txt", "w", encoding="utf-8") as fh:
        for i, r in enumerate(items):
            fh.write(f"== B{i:02d}\n   S: {r['original']}\n")
            if r["perturbed"] != r["original"]:
                fh.write(f"   V: {r['perturbed']}\n")
            fh.write(f"   ST: {r['original_translation']}\n")
            same = r["perturbed_translation"] == r["original_translation"]
            fh.write(f"   VT: {'(same)' if same else r['perturbed_translation']}\n")
            fh.write(f"   E: {json.dumps(r['evidence'], ensure_ascii=False)}\n")
    print(f"{len(items)} items: " + ", ".join(f"{g}: {len(picked.get(g, []))}" for g in wanted))


if __name__ == "__main__":
    main()
