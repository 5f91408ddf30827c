"""Blind labelling sheets of ``sit check``'s findings on message catalogues (issue 48, stop 46):
``--findings`` messages with a finding, drawn with ``--seed`` from the run directories given, each
with its source, its translation and what the findings claim of it in words (the check's kind,
said as a sentence, and its evidence), with no check name; shuffled. Written: ``items.jsonl`` and
``sheet.md`` (what the labeller reads), ``key.jsonl`` (run, line and groups of each item: kept
apart, for scoring). The labeller writes ``labels.jsonl``: ``id``, ``label`` ("real": the claim is
right and a localiser would change the translation for it; "false": the claim is wrong, or right
but nothing a localiser would change; borderline cases "false"), ``note``. ``--score`` prints the
share labelled real, per group.

    python3 docs/labels/check_sheet.py RUN_DIR... --out docs/labels/blind-issue48-s46/done-when --seed 4648
    python3 docs/labels/check_sheet.py --score docs/labels/blind-issue48-s46/done-when

``--gate-items FILE`` makes the sheet of items written by ``docs/labels/check_gate/sample.py`` (the
gate checks' findings, labelled before by their author, not blind) instead: every item, shuffled.
"""

import argparse
import json
import random
from collections import Counter
from pathlib import Path

#: evidence fields that say nothing to a reader (scores, internal distances)
QUIET = {"distance", "z", "run_median_ratio", "probability", "target_probability", "mqm", "mqm_severity"}


def claim(issue: dict, kinds: dict) -> str:
    """What one finding claims, in words: its kind's description and its evidence."""
    said = kinds.get(issue["group"], issue["kind"])
    shown = []
    for key, value in (issue.get("evidence") or {}).items():
        if key in QUIET or value in (None, "", [], {}):
            continue
        if isinstance(value, list):
            value = ", ".join(json.dumps(v, ensure_ascii=False) if isinstance(v, (dict, list)) else str(v)
                              for v in value)
        shown.append(f"{key}: {str(value)[:160]}")
    return said + (f" ({'; '.join(shown)})" if shown else "")


def descriptions() -> dict:
    """group -> the description its relation declares (sit's registry)."""
    from sit.relations import RELATIONS, declared_info

    out = {}
    for name in RELATIONS.names():
        info = declared_info(name)
        if info is not None:
            out.update({f"{name}.{kind}": text for kind, text in info.kinds.items()})
    return out


def sample(runs: list, out: Path, findings: int, seed: int) -> None:
    rng, kinds, flagged = random.Random(seed), descriptions(), []
    for run in runs:
        lang = json.loads((run / "run.json").read_text())["signature"]["target_lang"]
        by_line: dict = {}
        for line in (run / "issues.jsonl").read_text().splitlines():
            issue = json.loads(line)
            by_line.setdefault(issue["source_id"], []).append(issue)
        for line, issues in sorted(by_line.items()):
            flagged.append((run.name, lang, line, issues))
    chosen = rng.sample(flagged, min(findings, len(flagged)))
    write(out, [({"run": run, "line": line, "groups": [i["group"] for i in issues]}, lang, issues[0]["original"],
                 issues[0]["original_translation"], list(dict.fromkeys(claim(i, kinds) for i in issues)))
                for run, lang, line, issues in chosen])
    print(f"{len(chosen)} of {len(flagged)} messages with a finding in {out}: {Counter(c[0] for c in chosen)}")


def write(out: Path, chosen: list) -> None:
    """The sheet of ``chosen``: (key fields, lang, source, translation, claims) each, in order."""
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "items.jsonl", "w", encoding="utf-8") as items, \
            open(out / "key.jsonl", "w", encoding="utf-8") as key, open(out / "sheet.md", "w", encoding="utf-8") as md:
        md.write(f"# Blind sheet: {len(chosen)} messages (label each in labels.jsonl: real or false)\n\n")
        for n, (keyed, lang, source, translation, claims) in enumerate(chosen, start=1):
            items.write(json.dumps({"id": n, "lang": lang, "source": source, "translation": translation,
                                    "claims": claims}, ensure_ascii=False) + "\n")
            key.write(json.dumps({"id": n, **keyed}) + "\n")
            md.write(f"## {n} ({lang})\n\nsource:\n```\n{source}\n```\ntranslation:\n```\n{translation}\n```\n"
                     "claimed:\n" + "".join(f"- {c}\n" for c in claims) + "\n")


def gate_sheet(items: Path, out: Path, seed: int) -> None:
    kinds = descriptions()
    rows = [json.loads(line) for line in items.read_text(encoding="utf-8").splitlines() if line.strip()]
    random.Random(seed).shuffle(rows)
    write(out, [({"item": r["id"], "package": r["package"], "line": r["line"], "groups": [f"{r['check']}.{r['kind']}"]},
                 r["lang"], r["source"], r["translation"],
                 [claim({"group": f"{r['check']}.{r['kind']}", "kind": r["kind"], "evidence": r["evidence"]}, kinds)])
                for r in rows])
    print(f"{len(rows)} gate findings in {out}")


def score(folder: Path) -> None:
    key = {r["id"]: r for r in map(json.loads, (folder / "key.jsonl").read_text().splitlines())}
    labels = {r["id"]: r["label"] for r in map(json.loads, (folder / "labels.jsonl").read_text().splitlines())}
    real = sum(1 for i in key if labels.get(i) == "real")
    print(f"{real} of {sum(1 for i in key if i in labels)} labelled real")
    per = Counter((g, labels[i]) for i, k in key.items() if i in labels for g in set(k["groups"]))
    for g in sorted({g for g, _ in per}):
        print(f"   {g}: {per[(g, 'real')]} real, {per[(g, 'false')]} false")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", nargs="*", type=Path)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--findings", type=int, default=30)
    ap.add_argument("--seed", type=int, default=4648)
    ap.add_argument("--score", type=Path)
    ap.add_argument("--gate-items", type=Path)
    args = ap.parse_args()
    if args.score:
        score(args.score)
    elif args.gate_items:
        gate_sheet(args.gate_items, args.out, args.seed)
    else:
        sample(args.runs, args.out, args.findings, args.seed)


if __name__ == "__main__":
    main()
