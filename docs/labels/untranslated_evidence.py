"""How each rule of ``sit.untranslated`` judges the labelled `sit` findings (docs/precision.md, stop 19).

    PYTHONPATH=. python3 docs/labels/untranslated_evidence.py [--write evidence.jsonl]

Every distinct perturbed sentence of the `sit` label files (``labels-*.jsonl``) with its labellers'
``untranslated`` answers (the majority; a tie counts as true). Its edit and both translations come
from the blind input files (``*/in*.jsonl``, ``*/new.jsonl``) that were labelled; items of the
early label files (labels-A/B, stop 8) that no blind file holds are rebuilt from
``datasets/news.txt`` (the line ``source_id``, the one word that differs) and translated again by
Apertium. Prints, per rule, the substitutes labelled untranslated that it misses and the ones
labelled translated that it calls untranslated.
"""

import argparse
import difflib
import json
from pathlib import Path

from sit.records import Edit
from sit.relations.sit import UNTRANSLATED_RULES, left_untranslated

HERE = Path(__file__).parent


def labelled() -> dict[str, dict]:
    items: dict[str, dict] = {}
    for f in sorted(HERE.glob("labels-*.jsonl")):
        for line in open(f, encoding="utf-8"):
            r = json.loads(line)
            if r["relation"] == "sit":
                item = items.setdefault(r["perturbed"], {"perturbed": r["perturbed"], "source_id": r["source_id"], "votes": []})
                item["votes"].append(r["untranslated"])
    for item in items.values():
        item["untranslated"] = 2 * sum(item["votes"]) >= len(item["votes"])
    return items


def with_translations(items: dict[str, dict]) -> list[dict]:
    blind = {}
    for f in list(HERE.glob("*/in*.jsonl")) + list(HERE.glob("*/new.jsonl")):
        for line in open(f, encoding="utf-8"):
            r = json.loads(line)
            blind[r["perturbed"]] = r
    news = [x.strip() for x in open(HERE.parent.parent / "sit/datasets/news.txt", encoding="utf-8") if x.strip()]
    rebuilt = []
    for p, item in items.items():
        if p in blind:
            item.update({k: blind[p][k] for k in ("original", "edit", "original_translation", "perturbed_translation")})
        else:
            item.update(original=news[item["source_id"] - 1], edit=_edit(news[item["source_id"] - 1], p))
            rebuilt.append(item)
    if rebuilt:
        from sit.translators import get_translator

        texts = sorted({t for it in rebuilt for t in (it["original"], it["perturbed"])})
        done = dict(zip(texts, get_translator("apertium", target_lang="es").translate(texts)))
        for it in rebuilt:
            it["original_translation"], it["perturbed_translation"] = done[it["original"]], done[it["perturbed"]]
    return list(items.values())


def _edit(original: str, perturbed: str) -> dict:
    # the one whitespace token that differs, less the punctuation both sides share
    a, b = original.split(), perturbed.split()
    (op, i, _, j, _), = [o for o in difflib.SequenceMatcher(a=a, b=b).get_opcodes() if o[0] != "equal"]
    before, after = a[i], b[j]
    while before[-1] == after[-1] and not before[-1].isalnum():
        before, after = before[:-1], after[:-1]
    while before[0] == after[0] and not before[0].isalnum():
        before, after = before[1:], after[1:]
    return {"before": before, "after": after}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", type=Path, help="also write the evidence set (JSON lines)")
    args = ap.parse_args()
    rows = with_translations(labelled())
    true = [r for r in rows if r["untranslated"]]
    print(f"{len(rows)} labelled sit items, {len(true)} with the substitute labelled untranslated")
    for rule in UNTRANSLATED_RULES:
        called = {r["perturbed"] for r in rows if left_untranslated(
            Edit(0, r["edit"]["before"], r["edit"]["after"], "wordnet"),
            r["original_translation"], r["perturbed_translation"], "es", "en", rule)}
        missed = [r["edit"]["after"] for r in true if r["perturbed"] not in called]
        wrong = [r["edit"]["after"] for r in rows if not r["untranslated"] and r["perturbed"] in called]
        print(f"{rule}: {len(true) - len(missed)}/{len(true)} found, missed {missed}; "
              f"{len(wrong)} labelled translated called untranslated {wrong}")
    if args.write:
        with open(args.write, "w", encoding="utf-8") as fh:
            for r in rows:
                fh.write(json.dumps(r, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
