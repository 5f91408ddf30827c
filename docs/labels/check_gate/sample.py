"""The sample of the gate checks' findings labelled for docs/check.md (issue 48): from the findings
``benchmarks/bench_check_gate.py --sample`` wrote on the eight catalogue sets (every kind on), every
finding of a kind with at most 12, else 12 drawn with seed 48; written to items.jsonl in a shuffled
order. labels.jsonl holds one label an item: "error" where a localiser would change the translation
for what the check claims, "ok" otherwise (strict: a borderline case is "ok").

    python3 docs/labels/check_gate/sample.py FINDINGS.jsonl... > docs/labels/check_gate/items.jsonl
"""

from __future__ import annotations

import json
import random
import sys
from collections import defaultdict

PER_KIND = 12


def main() -> None:
    rows = [json.loads(line) for path in sys.argv[1:] for line in open(path, encoding="utf-8")]
    by_kind: dict[str, list] = defaultdict(list)
    for row in rows:
        by_kind[f"{row['check']}.{row['kind']}"].append(row)
    rng = random.Random(48)
    chosen = [r for kind in sorted(by_kind) for r in
              (by_kind[kind] if len(by_kind[kind]) <= PER_KIND else rng.sample(by_kind[kind], PER_KIND))]
    rng.shuffle(chosen)
    for n, row in enumerate(chosen, start=1):
        print(json.dumps({"id": n, **row}, ensure_ascii=False))


if __name__ == "__main__":
    main()
