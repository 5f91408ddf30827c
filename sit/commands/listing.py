"""``sit list``: what can be named on the command line."""

from __future__ import annotations

import argparse


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("what", nargs="?", default="all",
                   choices=["all", "datasets", "translators", "perturbers", "relations", "parsers", "scorers"])


def run(args: argparse.Namespace) -> int:
    from ..inputs import dataset_names
    from ..parse import PARSERS
    from ..perturb import PERTURBERS
    from ..relations import RELATIONS
    from ..eval import scorer_names
    from ..translators import TRANSLATORS

    sections = {
        "datasets": [(n, "bundled corpus") for n in dataset_names()],
        "translators": [(n, TRANSLATORS.entry(n).description) for n in TRANSLATORS.names()],
        "perturbers": [(n, PERTURBERS.entry(n).description) for n in PERTURBERS.names()],
        "relations": [(n, RELATIONS.entry(n).description + " (sit run --relation)") for n in RELATIONS.names()],
        "parsers": [(n, PARSERS.entry(n).description) for n in PARSERS.names()],
        "scorers": [(n, "TEAPOT scorer for sit eval (--s-src / --s-tgt)") for n in scorer_names()],
    }
    for name, rows in sections.items():
        if args.what not in ("all", name):
            continue
        print(f"{name}:")
        for n, d in rows:
            print(f"  {n:<20} {d}")
    return 0
