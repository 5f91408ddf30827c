"""Make a blind labelling sample of stop 46's new single-translation findings on MQM files' machine
translations: ``declension`` (German determiner and noun; short doubled words) and the two new
``typography`` kinds (``straight``, ``period``).

    python3 docs/labels/blind_s46_mqm.py --de ted/ende/mqm_ted_ende.tsv sxs_mqm_generalMT2023_ende...tsv \
        --zh sxs_mqm_generalMT2023_zhen...tsv --out docs/labels/blind-s46-mqm/items.jsonl \
        --key docs/labels/blind-s46-mqm-key.json

Each file's segments are read as ``benchmarks/bench_mqm.py`` reads them (the annotators' marks taken
out; nothing of their annotations goes into the items), each distinct (source, translation) once,
checked by ``sit check --checks declension`` (German) or ``--checks typography`` (Chinese to English).
Of each group's findings at most ``--max`` are drawn (random.Random(SEED)), the items shuffled
together and numbered M00, M01 ... One JSON line per item carries only the opaque id, the source,
the translation and the claim in neutral words; the item -> (group, what the finding names) map is written
apart to ``--key``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

SEED = 46
GROUPS = {"de": ("declension.noun", "declension.doubled"), "zh": ("typography.straight", "typography.period")}


def claim(group: str, evidence: dict) -> str:
    if group == "declension.noun":
        return ("grammar error in the German translation: in " + "; ".join(f"'{p['words']}'" for p in evidence["pairs"])
                + " the determiner and the noun do not agree in gender, number or case")
    if group == "declension.doubled":
        return "grammar error in the German translation: the word " + ", ".join(
            f"'{w} {w}'" for w in evidence["words"]) + " is written twice in a row by mistake"
    if group == "typography.straight":
        return ("punctuation error in the English translation: it quotes with straight quotation marks (\") where "
                "the source uses typographic ones; English writes “ ”")
    return "punctuation error in the English translation: it ends with a period the source (a title or headline) does not have"


def findings(paths: list[str], source_lang: str, target_lang: str, check_name: str) -> list[tuple[str, dict]]:
    from bench_mqm import read_mqm

    from sit.check import CheckConfig, check

    pairs = list(dict.fromkeys((s.source, s.translation) for s in read_mqm(paths)))
    with tempfile.TemporaryDirectory() as tmp:
        tsv = Path(tmp) / "pairs.tsv"
        tsv.write_text("source\ttranslation\n" + "".join(
            f"{a.replace(chr(9), ' ')}\t{b.replace(chr(9), ' ')}\n" for a, b in pairs), encoding="utf-8")
        check(CheckConfig(source=str(tsv), source_lang=source_lang, target_lang=target_lang, checks=(check_name,),
                          out=str(Path(tmp) / "run"), cache_dir=str(Path(tmp) / "cache"), report_formats=()))
        rows = [json.loads(line) for line in (Path(tmp) / "run" / "issues.jsonl").read_text().splitlines()]
    return [(r["group"], r) for r in rows]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--de", nargs="*", default=[], help="MQM files with German translations of English")
    ap.add_argument("--zh", nargs="*", default=[], help="MQM files with English translations of Chinese")
    ap.add_argument("--max", type=int, default=20, help="findings drawn per group, at most")
    ap.add_argument("--out", required=True)
    ap.add_argument("--key", required=True)
    args = ap.parse_args()
    rng = random.Random(SEED)
    drawn = []
    for lang, paths, src, tgt, name in (("de", args.de, "en", "de", "declension"), ("zh", args.zh, "zh", "en", "typography")):
        if not paths:
            continue
        found = findings(paths, src, tgt, name)
        for group in GROUPS[lang]:
            rows = [r for g, r in found if g == group]
            drawn += [(group, r) for r in rng.sample(rows, min(args.max, len(rows)))]
    rng.shuffle(drawn)
    items, key = [], {}
    for n, (group, r) in enumerate(drawn):
        item_id = f"M{n:02d}"
        items.append({"id": item_id, "source": r["original"], "translation": r["original_translation"],
                      "claim": claim(group, r["evidence"])})
        key[item_id] = {"group": group,
                        "named": r["evidence"].get("pairs") or r["evidence"].get("words") or r["evidence"].get("marks")}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text("".join(json.dumps(i, ensure_ascii=False) + "\n" for i in items), encoding="utf-8")
    Path(args.key).write_text(json.dumps(key, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"{len(items)} items -> {args.out}; key -> {args.key}")


if __name__ == "__main__":
    main()
