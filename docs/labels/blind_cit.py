"""Make a blind labelling sheet of ``cit`` findings (issue 45): the top-1 finding of every
flagged sentence of each group (``cit``, ``cit.np``, ``cit.pronoun``; at most ``--n`` a group,
``random.Random(46)``), shuffled together (seed 46), numbered C00, C01 ... The sheet shows the two
English sentences, their two Spanish translations and the claim in neutral words; no group,
score or rank. The item -> finding map is written apart (``--key``, outside the sheet's folder), to be read only after
labelling.

    python3 docs/labels/blind_cit.py RUN_DIR [RUN_DIR ...] --out docs/labels/blind-s46-cit --key docs/labels/blind-s46-cit-key.json

Several runs are pooled (their findings per group, in the order given) before the sample.
"""

import argparse
import json
import random
from pathlib import Path

INSTRUCTIONS = """\
Each item: S is an English sentence, V the same sentence with one part taken out or replaced by a
pronoun, ST and VT their Spanish translations by one machine translator. The claim: where the
words of ST named under "changed" stand, the translator rendered the rest of the sentence in
another way once the part went ("ST words -> VT words").
Label each item strictly: "real" only if ST or VT is wrong (grammar, structure, word sense) in the
words the claim names, in a way a translator would fix; "not_real" if both are acceptable there
(a change the removal itself calls for, a synonym, a clitic); "unsure" if you cannot tell.
Judge only the named words, not errors elsewhere in the sentences.
Write one JSON line per item: {"id": "C00", "label": "real|not_real|unsure", "note": "..."}.
"""


def top1(runs: list[Path]) -> dict[str, list[dict]]:
    groups: dict[str, list[dict]] = {}
    for run in runs:
        for line in open(run / "issues.jsonl", encoding="utf-8"):
            issue = json.loads(line)
            if issue["relation"] == "cit" and issue["rank"] == 1:
                group = "cit" + (f".{issue['kind']}" if issue["kind"] not in ("", "rest-changed") else "")
                groups.setdefault(group, []).append({**issue, "run": run.name})
    return groups


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", type=Path, nargs="+")
    ap.add_argument("--n", type=int, default=20)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--key", type=Path, help="where the item -> finding map goes (default: OUT/key.json)")
    args = ap.parse_args()
    rng = random.Random(46)
    items = []
    for group, issues in sorted(top1(args.runs).items()):
        picked = issues if len(issues) <= args.n else rng.sample(issues, args.n)
        items.extend((group, i) for i in sorted(picked, key=lambda i: (i["run"], i["source_id"])))
    random.Random(46).shuffle(items)
    args.out.mkdir(parents=True, exist_ok=True)
    key = {f"C{n:02d}": {"group": g, "run": i["run"], "source_id": i["source_id"], "issue_id": i.get("issue_id", "")}
           for n, (g, i) in enumerate(items)}
    (args.key or args.out / "key.json").write_text(json.dumps(key, indent=1) + "\n")
    with open(args.out / "items.txt", "w", encoding="utf-8") as fh:
        fh.write(INSTRUCTIONS + "\n")
        for n, (_, i) in enumerate(items):
            changed = "; ".join(f"'{a}' -> '{b}'" for a, b in i["evidence"]["changed"])
            fh.write(f"== C{n:02d}\n   S: {i['original']}\n   V: {i['perturbed']}\n")
            fh.write(f"   ST: {i['original_translation']}\n   VT: {i['perturbed_translation']}\n")
            fh.write(f"   changed: {changed}\n")
    print(f"{len(items)} items: " + ", ".join(f"{g}: {sum(1 for x, _ in items if x == g)}" for g in sorted({g for g, _ in items})))


if __name__ == "__main__":
    main()
