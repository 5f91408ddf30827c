"""Make a blind labelling sample of the grammar check's findings of one or more run directories.

    python3 docs/labels/blind_grammar.py /tmp/gr/run-news-all /tmp/gr/run-business \
        --out docs/labels/blind-grammar-sample.jsonl --key docs/labels/blind-grammar-key.json

Every finding of the relation ``concord`` (named ``grammar`` when the first two samples were made) in each RUN/issues.jsonl is taken, or a random sample of
at most ``--max`` (random.Random(SEED)) where there are more. The items are shuffled
(random.Random(SEED), SEED = 45) and numbered G00, G01 ... One JSON line per item carries only: the
opaque id, the English source, the Spanish text the finding names (for a finding on several texts
of a sentence, the first) and the claim in neutral words (which words should agree, in what). No
scores, ranks or kind names; the item -> (run, issue_id) map is written apart to ``--key``.
"""

import argparse
import json
import random
from pathlib import Path

SEED = 45


def claim(r: dict) -> str:
    parts = []
    for p in (r.get("evidence") or {}).get("pairs") or []:
        a, b = p["words"]
        if r["kind"] == "subject":
            parts.append(f"the subject '{a}' and its verb '{b}' do not agree in {p['feature']}")
        else:
            parts.append(f"'{a}' and '{b}' belong together and do not agree in {p['feature']}")
    return "grammar error in the Spanish translation: " + "; ".join(parts)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--out", required=True)
    ap.add_argument("--key", required=True)
    ap.add_argument("--max", type=int, default=30)
    ap.add_argument("--prefix", default="G", help="the items' id prefix")
    args = ap.parse_args()
    rows = []
    for run in args.runs:
        for line in (Path(run) / "issues.jsonl").read_text(encoding="utf-8").splitlines():
            r = json.loads(line)
            if r["relation"] in ("concord", "grammar"):  # grammar: its name when the first samples were made
                rows.append((Path(run).name, r))
    rng = random.Random(SEED)
    if len(rows) > args.max:
        rows = rng.sample(rows, args.max)
    rng.shuffle(rows)
    sample, key = [], {}
    for n, (run, r) in enumerate(rows):
        item = f"{args.prefix}{n:02d}"
        sample.append({"id": item, "source": r["original"], "translation": r["original_translation"], "claim": claim(r)})
        key[item] = {"run": run, "issue_id": r["issue_id"], "kind": r["kind"]}
    Path(args.out).write_text("".join(json.dumps(s, ensure_ascii=False) + "\n" for s in sample), encoding="utf-8")
    Path(args.key).write_text(json.dumps(key, indent=1) + "\n", encoding="utf-8")
    print(f"{len(sample)} items -> {args.out}")


if __name__ == "__main__":
    main()
