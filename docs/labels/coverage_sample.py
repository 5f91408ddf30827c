"""Blind sample of the coverage check's findings (issues 45 and 44) and its score.

    python3 docs/labels/coverage_sample.py sample RUN_DIR [RUN_DIR ...] --out FOLDER [--n 30] [--seed 45]
        every text a coverage finding of the runs names (issues.jsonl), each (text, kind) once, shuffled
        with the seed; the first N go to FOLDER/items.txt as source, translation and a neutral
        claim, numbered V00..; FOLDER/members.json keeps which finding each item is (the key)
    python3 docs/labels/coverage_sample.py translations RUN_DIR --out FOLDER [--from-id 31] [--n 30] [--seed 45]
            [--exclude EARLIER_FOLDER]
        the same from a run made without the coverage check: its translations.jsonl checked by
        the coverage check here (Apertium's dictionaries and WordNet, the defaults), the texts of
        sentences numbered from --from-id on (those the check's rules were not tuned on)
    python3 docs/labels/coverage_sample.py score FOLDER
        FOLDER/labels.jsonl ({"item": "V00", "real": true, "note": ...}) against members.json:
        real findings per kind

The sheet says only what a finding claims (the words it names), not how sure the check is, so a
labeller reads each item as a claim to verify against the two texts.
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from pathlib import Path

CLAIMS = {"omission": "the translation has nothing for (or mistranslates) most of these source words",
          "addition": "the translation adds content the source does not have, in most of these words",
          "date": "the translation has nothing for (or mistranslates) this day or month of the source"}


def findings(runs: list[str]) -> list[dict]:
    """Every text a coverage finding names (a finding merged over a sentence's variants names each
    variant: its own text, translation and words), each (text, kind) once."""
    out, seen = [], set()
    for run in runs:
        for line in (Path(run) / "issues.jsonl").read_text(encoding="utf-8").splitlines():
            issue = json.loads(line)
            if issue["relation"] != "coverage":
                continue
            texts = issue["evidence"].get("variants") or [
                {"text": issue["original"], "translation": issue["original_translation"], "relation": "original",
                 "evidence": issue["evidence"]}]
            for v in texts:
                key = (v["text"], issue["kind"])
                if key in seen:
                    continue
                seen.add(key)
                out.append({"run": run, "issue_id": issue["issue_id"], "source_id": issue["source_id"],
                            "kind": issue["kind"], "made_by": v["relation"], "source": v["text"],
                            "translation": v["translation"], "words": v["evidence"]["words"]})
    return out


def checked(run: str, from_id: int) -> list[dict]:
    """Every (text, kind) the coverage check finds in a run's translations, sentences from ``from_id`` on."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from sit.models import wordnet
    from sit.textcheck.coverage import Lexicon, WordNetSynonyms, calendar_names, unbalanced

    rows = [json.loads(line) for line in (Path(run) / "translations.jsonl").read_text(encoding="utf-8").splitlines()]
    rows = [r for r in rows if r.get("translation") and (r.get("source_id") or 0) >= from_id]
    meta = json.loads((Path(run) / "run.json").read_text(encoding="utf-8"))["signature"]
    lexicon = Lexicon(meta["source_lang"], meta["target_lang"], synonyms=WordNetSynonyms(wordnet()))
    out = []
    for r, coverage in zip(rows, lexicon.cover([(r["text"], r["translation"]) for r in rows])):
        for kind, words in unbalanced(coverage, dates=calendar_names(meta["source_lang"])).items():
            out.append({"run": run, "issue_id": "", "source_id": r["source_id"], "kind": kind,
                        "made_by": r.get("relation") or r.get("role", ""), "source": r["text"],
                        "translation": r["translation"], "words": [w.surface for w in words]})
    return out


def sample(args) -> None:
    pool = findings(args.runs) if args.what == "sample" else checked(args.runs[0], args.from_id)
    for folder in args.exclude or ():  # texts an earlier sheet already showed
        shown = {(m["source"], m["kind"]) for m in json.loads((Path(folder) / "members.json").read_text()).values()}
        pool = [f for f in pool if (f["source"], f["kind"]) not in shown]
    random.Random(args.seed).shuffle(pool)
    chosen = pool[:args.n]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    lines, members = [], {}
    for n, f in enumerate(chosen):
        item = f"V{n:02d}"
        members[item] = f
        lines += [f"## {item}", f"source:      {f['source']}", f"translation: {f['translation']}",
                  f"claim:       {CLAIMS[f['kind']]}: {', '.join(f['words'])}", ""]
    (out / "items.txt").write_text("\n".join(lines), encoding="utf-8")
    (out / "members.json").write_text(json.dumps(members, ensure_ascii=False, indent=1), encoding="utf-8")
    print(f"{len(chosen)} of {len(pool)} findings -> {out}/items.txt")


def score(args) -> None:
    folder = Path(args.folder)
    members = json.loads((folder / "members.json").read_text(encoding="utf-8"))
    labels = [json.loads(line) for line in (folder / "labels.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    real, total = Counter(), Counter()
    for label in labels:
        kind = members[label["item"]]["kind"]
        total[kind] += 1
        real[kind] += bool(label["real"])
    for kind in sorted(total):
        print(f"coverage.{kind}: {real[kind]}/{total[kind]} real ({100 * real[kind] / total[kind]:.0f}%)")
    print(f"all: {sum(real.values())}/{sum(total.values())} real ({100 * sum(real.values()) / sum(total.values()):.0f}%)")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="what", required=True)
    s = sub.add_parser("sample")
    s.add_argument("runs", nargs="+")
    s.add_argument("--out", required=True)
    s.add_argument("--n", type=int, default=30)
    s.add_argument("--seed", type=int, default=45)
    s.add_argument("--exclude", action="append", help="a folder of an earlier sheet whose texts are left out")
    t = sub.add_parser("translations")
    t.add_argument("runs", nargs=1)
    t.add_argument("--out", required=True)
    t.add_argument("--from-id", type=int, default=31)
    t.add_argument("--n", type=int, default=30)
    t.add_argument("--seed", type=int, default=45)
    t.add_argument("--exclude", action="append", help="a folder of an earlier sheet whose texts are left out")
    c = sub.add_parser("score")
    c.add_argument("folder")
    args = p.parse_args()
    (score if args.what == "score" else sample)(args)


if __name__ == "__main__":
    main()
