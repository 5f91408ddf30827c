"""Batch isolation: every text of a run translated alone against the run's translation of it
(prints figures; no assertion).

A run translates its texts in batches (Apertium: 256 a call). A text's translation must not
depend on the texts beside it in its batch: this re-translates every text of a run's
``translations.jsonl`` alone (a batch of one, no cache) with the run's translator and counts the
texts whose translation differs, by role and relation, and prints the first few.

Without ``--run`` it first makes the run: ``sit run --dataset news --relation all`` into a
temporary directory with a cache of its own (so that every translation is made now, in batches).
``--process N`` also translates the first N texts with one ``apertium -u <pair>`` process each
(Apertium only: the reference of "alone" outside sit, about 150 ms a text).

    python3 benchmarks/bench_isolation.py [--run DIR] [--dataset news] [--relation all]
                                          [--limit N] [--workers 2] [--process 0]
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sit.translators import get_translator  # noqa: E402


def make_run(dataset: str, relation: str, out: Path) -> Path:
    """``sit run`` on ``dataset`` with ``relation`` into ``out/run`` (cache in ``out/cache``)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    cmd = [sys.executable, "-c", "from sit.cli import console; console()", "run", "--dataset", dataset,
           "--relation", relation, "--cache-dir", str(out / "cache"), "--out", str(out / "run"), "--no-progress"]
    start = time.perf_counter()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    print(f"run: sit {' '.join(cmd[3:])}: exit {proc.returncode} in {time.perf_counter() - start:.1f} s")
    if proc.returncode != 0:
        print(proc.stderr[-2000:])
    return out / "run"


def run_rows(run: Path) -> tuple[dict, list[dict]]:
    """The run's signature and its translations (one row per text, first occurrence)."""
    signature = json.loads((run / "run.json").read_text(encoding="utf-8"))["signature"]
    rows: dict[str, dict] = {}
    with open(run / "translations.jsonl", encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            if row.get("translation") is not None:
                rows.setdefault(row["text"], row)
    return signature, list(rows.values())


def count_disagreements(run: Path) -> list[str]:
    """Every count of ``run.json`` against the same count taken from ``issues.jsonl`` and the
    summary of ``report.txt``: what disagrees (empty: all agree)."""
    import re

    counts = json.loads((run / "run.json").read_text(encoding="utf-8"))["counts"]
    issues = [json.loads(line) for line in open(run / "issues.jsonl", encoding="utf-8")]
    ids: dict[str, list[int]] = collections.defaultdict(list)
    for issue in issues:
        ids[issue["group"]].append(issue["source_id"])
    bad = [f"issues {counts['issues']} != {len(issues)}"] if counts["issues"] != len(issues) else []
    flagged = len({i["source_id"] for i in issues if i["source_id"] >= 0})
    if counts["flagged_sentences"] != flagged:
        bad.append(f"flagged_sentences {counts['flagged_sentences']} != {flagged}")
    summary = (run / "report.txt").read_text(encoding="utf-8").split("signature:")[0]
    for group, found in ids.items():
        mine = {"findings": len(found), "sentences": len({i for i in found if i >= 0}),
                "other": sum(1 for i in found if i < 0)}
        if counts["groups"].get(group) != mine:
            bad.append(f"group {group}: run.json {counts['groups'].get(group)} != issues.jsonl {mine}")
        line = re.search(rf"^\s+{re.escape(group)}\s+([\d,]+) finding\(s\) in ([\d,]+) sentence\(s\)", summary, re.M)
        if not line or [int(x.replace(",", "")) for x in line.groups()] != [mine["findings"], mine["sentences"]]:
            bad.append(f"summary {group}: {line.groups() if line else 'missing'} != {mine}")
    for name, rel in counts["relations"].items():
        # a relation's own count holds all its findings, but sit's (its structure findings; its
        # untranslated ones count in untranslated_issues)
        own = [i for i in issues if i["relation"] == name and (name != "sit" or i["group"] == name)]
        if rel["issues"] != len(own) or rel["flagged_sentences"] != len({i["source_id"] for i in own if i["source_id"] >= 0}):
            bad.append(f"relation {name}: run.json {rel['issues']}/{rel['flagged_sentences']} != issues.jsonl")
    return bad


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--run", type=Path, help="an existing run directory (default: make one)")
    ap.add_argument("--dataset", default="news")
    ap.add_argument("--relation", default="all")
    ap.add_argument("--limit", type=int, default=0, help="re-translate only the first N texts (0: all)")
    ap.add_argument("--workers", type=int, default=2, help="texts translated alone at once")
    ap.add_argument("--process", type=int, default=0, help="Apertium: texts to translate one `apertium -u` each")
    ap.add_argument("--show", type=int, default=10, help="differences to print")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        run = args.run or make_run(args.dataset, args.relation, Path(tmp))
        signature, rows = run_rows(run)
        bad = count_disagreements(run)
    print(f"counts: {len(bad)} disagreement(s) between run.json, issues.jsonl and report.txt's summary")
    for line in bad:
        print("  " + line)
    if args.limit:
        rows = rows[:args.limit]
    name, model = signature["translator"], signature.get("translator_model")
    translator = get_translator(name, source_lang=signature["source_lang"], target_lang=signature["target_lang"],
                                model=model, batch_size=1, **signature.get("translator_options", {}))
    start = time.perf_counter()
    with ThreadPoolExecutor(max(1, args.workers)) as pool:
        alone = list(pool.map(lambda row: translator.translate([row["text"]])[0], rows))
    seconds = time.perf_counter() - start
    differ = [(row, a) for row, a in zip(rows, alone) if a != row["translation"]]
    by = collections.Counter(f"{r['role']}/{r.get('relation', '-')}" for r, _ in differ)
    total = collections.Counter(f"{r['role']}/{r.get('relation', '-')}" for r in rows)
    print(f"{name}:{model}: {len(differ)} of {len(rows)} texts translate differently alone than in the run "
          f"({1000 * seconds / max(1, len(rows)):.1f} ms a text alone, {args.workers} at once)")
    for key in sorted(total):
        print(f"  {key:28} {by[key]:5} of {total[key]}")
    for row, a in differ[:args.show]:
        print(f"- {row['text']!r}\n    run:   {row['translation']!r}\n    alone: {a!r}")
    if args.process and name == "apertium":
        env = dict(os.environ, LC_ALL="C.UTF-8")
        sample = rows[:args.process]
        solo = [subprocess.run(["apertium", "-u", model], input=r["text"], capture_output=True, text=True,
                               env=env).stdout.strip() for r in sample]
        odd = [(r, s) for r, s in zip(sample, solo) if s != r["translation"]]
        print(f"apertium -u {model}, one process a text: {len(odd)} of {len(sample)} differ from the run")
        for row, s in odd[:args.show]:
            print(f"- {row['text']!r}\n    run:     {row['translation']!r}\n    process: {s!r}")


if __name__ == "__main__":
    main()
