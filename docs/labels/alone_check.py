"""Re-translate every text of a run's findings alone (one `apertium -u PAIR` process per text,
no batch neighbours) and count the texts whose translation differs from the run's: a finding
that rests on such a text is sit's artefact (batching), not the translator's.

    python3 docs/labels/alone_check.py RUN_DIR [--pair eng-spa] [--groups case.,passthrough.context]
"""

import argparse
import json
import subprocess
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run", type=Path)
    ap.add_argument("--pair", default="eng-spa")
    ap.add_argument("--groups", default="", help="comma list of group prefixes (default: every group)")
    args = ap.parse_args()
    prefixes = tuple(p for p in args.groups.split(",") if p)
    texts: dict[str, str] = {}
    for line in open(args.run / "issues.jsonl", encoding="utf-8"):
        r = json.loads(line)
        if prefixes and not (r.get("group") or r["relation"]).startswith(prefixes):
            continue
        texts.setdefault(r["original"], r["original_translation"])
        texts.setdefault(r["perturbed"], r["perturbed_translation"])
    differ = []
    for src, run_translation in texts.items():
        alone = subprocess.run(["apertium", "-u", args.pair], input=src, capture_output=True, text=True,
                               timeout=120, check=True).stdout.rstrip("\n")
        if alone != run_translation:
            differ.append({"source": src, "run": run_translation, "alone": alone})
    for d in differ:
        print(json.dumps(d, ensure_ascii=False))
    print(f"{len(differ)} of {len(texts)} texts translate differently alone")


if __name__ == "__main__":
    main()
