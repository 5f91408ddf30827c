"""Make a blind labelling sample of the spelling and typography findings of a run directory.

    python3 docs/labels/blind_spelling_typography.py /tmp/blind-st \
        --out docs/labels/blind-spelling-typography-sample.jsonl \
        --key docs/labels/blind-spelling-typography-key.json

Every finding of the relations ``spelling`` and ``typography`` in RUN/issues.jsonl is taken, or a
random sample of at most ``--max`` per kind (group) where a kind has more (random.Random(SEED)).
The items are shuffled together (random.Random(SEED), SEED = 44) and numbered X00, X01 ... One JSON
line per item carries only: the opaque id, the English source sentence, its translation, and the
finding's claim in neutral words. No scores, ranks, relation or group names go into the sample; the
item -> issue_id map is written apart to ``--key`` (read only after labelling). ``--prefix`` names
the items (X: stop 44's news sheet; S: stop 46's held-out sheet, docs/labels/blind-s46-spelling-typography/).

    python3 docs/labels/blind_spelling_typography.py keyed LABELS KEY OUT

joins a sheet's labels ({"id", "label": "real"/"not_real", "reason"}) with its key into one line per
item with its relation, kind and ``label`` bug/not_bug (the form ``Relation.measured``'s files have:
tests/test_clusters.py counts them).
"""

import argparse
import json
import random
import sys
from pathlib import Path

SEED = 44
RELATIONS = ("spelling", "typography")


def claim(r: dict) -> str:
    ev = r.get("evidence") or {}
    if r["relation"] == "spelling":
        words = ev.get("words") or []
        if len(words) == 1:
            return f"the word '{words[0]}' is misspelled (not a Spanish word) in the Spanish translation"
        return "the words " + ", ".join(f"'{w}'" for w in words) + " are misspelled (not Spanish words) in the Spanish translation"
    parts = []
    for s in ev.get("stretches") or []:
        shown = s.replace("  ", "\u2423\u2423")  # make a double space visible
        if "  " in s:
            parts.append(f"two spaces in a row at '{shown}'")
        elif " ," in s or " ." in s:
            parts.append(f"a space before punctuation at '{shown}'")
        else:
            parts.append(f"a wrong space at '{shown}'")
    return "spacing error in the Spanish translation: " + "; ".join(parts) + " (\u2423 marks a space)"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run", type=Path)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--key", type=Path, required=True)
    ap.add_argument("--max", type=int, default=40)
    ap.add_argument("--prefix", default="X", help="the items' id prefix")
    args = ap.parse_args()
    by_kind: dict[str, list[dict]] = {}
    with open(args.run / "issues.jsonl", encoding="utf-8") as fh:
        for line in fh:
            r = json.loads(line)
            if r["relation"] in RELATIONS:
                by_kind.setdefault(r["group"], []).append(r)
    items = []
    for kind in sorted(by_kind):
        rows = sorted(by_kind[kind], key=lambda r: r["issue_id"])
        if len(rows) > args.max:
            rows = random.Random(SEED).sample(rows, args.max)
        items.extend(rows)
    random.Random(SEED).shuffle(items)
    key = {}
    with open(args.out, "w", encoding="utf-8") as fh:
        for i, r in enumerate(items):
            item_id = f"{args.prefix}{i:02d}"
            key[item_id] = {"issue_id": r["issue_id"], "kind": r["group"]}
            fh.write(json.dumps({"id": item_id, "source": r["original"], "translation": r["original_translation"],
                                 "claim": claim(r)}, ensure_ascii=False) + "\n")
    args.key.write_text(json.dumps(key, indent=1) + "\n", encoding="utf-8")
    print(f"{len(items)} items: " + ", ".join(f"{k}: {len(v)} (sampled {min(len(v), args.max)})" for k, v in sorted(by_kind.items())))


def keyed(labels: Path, key: Path, out: Path) -> None:
    """``labels`` joined with ``key``: relation, kind and bug/not_bug per item, written to ``out``."""
    which = json.loads(key.read_text(encoding="utf-8"))
    rows = []
    for line in labels.read_text(encoding="utf-8").splitlines():
        if line.strip():
            r = json.loads(line)
            relation, kind = which[r["id"]]["kind"].split(".")
            rows.append({"id": r["id"], "issue_id": which[r["id"]]["issue_id"], "relation": relation, "kind": kind,
                         "label": "bug" if r["label"] == "real" else "not_bug", "reason": r["reason"]})
    out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    print(f"{len(rows)} labels -> {out}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["keyed"]:
        keyed(*map(Path, sys.argv[2:5]))
    else:
        main()
