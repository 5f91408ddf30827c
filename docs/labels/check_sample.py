"""A blind sample of ``sit check``'s findings on message catalogues (issue 48): ``--findings`` of
the findings of the run directories given and ``--controls`` messages without a finding, seeded,
shuffled together, written without what sit says of them (items.jsonl) and with it apart
(key.jsonl). The labeller reads items.jsonl alone and writes labels.jsonl (``id``, ``label``:
"error" where the translation has an error a localiser would fix (a placeholder, option, URL or
number lost or changed, text left in English or in another language, a wrong word), else "ok",
and a ``note``); ``--score`` prints the share of findings labelled error, per group, and of
controls.

    python3 docs/labels/check_sample.py RUN_DIR... --out docs/labels/blind-issue48 [--seed 48]
    python3 docs/labels/check_sample.py --score docs/labels/blind-issue48
"""

import argparse
import json
import random
from collections import Counter
from pathlib import Path


def sample(runs: list[Path], out: Path, findings: int, controls: int, seed: int) -> None:
    rng = random.Random(seed)
    found, clean = [], []
    for run in runs:
        lang = json.loads((run / "run.json").read_text())["signature"]["target_lang"]
        rows = [json.loads(line) for line in (run / "translations.jsonl").read_text().splitlines()]
        flagged = {}
        for line in (run / "issues.jsonl").read_text().splitlines():
            issue = json.loads(line)
            flagged.setdefault(issue["source_id"], []).append(issue["group"])
        for row in rows:
            item = {"run": run.name, "lang": lang, "source": row["text"], "translation": row["translation"]}
            (found if row["source_id"] in flagged else clean).append((item, flagged.get(row["source_id"], [])))
    chosen = [(i, g, "finding") for i, g in rng.sample(found, min(findings, len(found)))]
    chosen += [(i, g, "control") for i, g in rng.sample(clean, min(controls, len(clean)))]
    rng.shuffle(chosen)
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "items.jsonl", "w", encoding="utf-8") as items, open(out / "key.jsonl", "w", encoding="utf-8") as key:
        for n, (item, groups, what) in enumerate(chosen, start=1):
            items.write(json.dumps({"id": n, "lang": item["lang"], "source": item["source"],
                                    "translation": item["translation"]}, ensure_ascii=False) + "\n")
            key.write(json.dumps({"id": n, "run": item["run"], "is": what, "groups": groups}) + "\n")
    print(f"{len(chosen)} items ({sum(1 for c in chosen if c[2] == 'finding')} findings) in {out}")


def score(folder: Path) -> None:
    key = {r["id"]: r for r in map(json.loads, (folder / "key.jsonl").read_text().splitlines())}
    labels = {r["id"]: r["label"] for r in map(json.loads, (folder / "labels.jsonl").read_text().splitlines())}
    for what in ("finding", "control"):
        ids = [i for i, k in key.items() if k["is"] == what and i in labels]
        errors = sum(1 for i in ids if labels[i] == "error")
        print(f"{what}s: {errors} of {len(ids)} labelled error ({100 * errors / max(1, len(ids)):.0f}%)")
    per = Counter()
    for i, k in key.items():
        if k["is"] == "finding" and i in labels:
            for g in set(k["groups"]):
                per[(g, labels[i])] += 1
    for g in sorted({g for g, _ in per}):
        print(f"   {g}: {per[(g, 'error')]} error, {per[(g, 'ok')]} ok")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", nargs="*", type=Path)
    ap.add_argument("--out", type=Path, default=Path("docs/labels/blind-issue48"))
    ap.add_argument("--findings", type=int, default=30)
    ap.add_argument("--controls", type=int, default=15)
    ap.add_argument("--seed", type=int, default=48)
    ap.add_argument("--score", type=Path)
    args = ap.parse_args()
    if args.score:
        score(args.score)
    else:
        sample(args.runs, args.out, args.findings, args.controls, args.seed)


if __name__ == "__main__":
    main()
