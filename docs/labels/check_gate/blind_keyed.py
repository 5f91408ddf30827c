"""The gate's 66 findings labelled blind (docs/labels/blind-issue48-s46/gate/: an AI labeller that
read only the sheet) keyed by check and kind, as the checks' ``measured`` reads them: writes
``measured-blind.jsonl`` (``relation``, ``kind``, ``label`` "bug" or "ok", the labeller's note).
A ``whitespace.edges`` finding whose claim is spaces or tabs alone at the end (``end '' -> ' '``)
is keyed ``edges_end_spaces``: the default (``edges=lines``) no longer finds it, only ``edges=all``.

    python3 docs/labels/check_gate/blind_keyed.py
"""

from __future__ import annotations

import json
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
SHEET = HERE.parent / "blind-issue48-s46" / "gate"


def rows(name: str) -> dict[int, dict]:
    return {r["id"]: r for r in map(json.loads, (SHEET / name).read_text(encoding="utf-8").splitlines())}


def main() -> None:
    items, keys, labels = rows("items.jsonl"), rows("key.jsonl"), rows("labels.jsonl")
    out = []
    for n in sorted(labels):
        relation, _, kind = keys[n]["groups"][0].partition(".")
        if kind == "edges" and all(re.search(r"edges: end '' -> '[ \t]+'\)$", c) for c in items[n]["claims"]):
            kind = "edges_end_spaces"
        out.append({"id": n, "relation": relation, "kind": kind,
                    "label": "bug" if labels[n]["label"] == "real" else "ok", "note": labels[n].get("note", "")})
    (HERE / "measured-blind.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in out),
                                               encoding="utf-8")


if __name__ == "__main__":
    main()
