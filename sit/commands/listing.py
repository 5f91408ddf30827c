"""``sit list``: what can be named on the command line, sit's own and the plugins' (entry points)."""

from __future__ import annotations

import argparse

SECTIONS = ("datasets", "translators", "relations", "perturbers", "parsers", "engines", "judges", "scorers", "formats")


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("what", nargs="?", default="all", choices=["all", *SECTIONS])


def _registries() -> dict:
    from ..engine import ENGINES
    from ..formats import WRITERS
    from ..judge import JUDGES
    from ..parse import PARSERS
    from ..perturb import PERTURBERS
    from ..relations import RELATIONS
    from ..translators import TRANSLATORS

    return {"translators": TRANSLATORS, "relations": RELATIONS, "perturbers": PERTURBERS, "parsers": PARSERS,
            "engines": ENGINES, "judges": JUDGES, "formats": WRITERS}


def _rows(name: str, registries: dict) -> list[tuple[str, str]]:
    if name == "datasets":
        from ..inputs import dataset_names

        return [(n, "bundled corpus") for n in dataset_names()]
    if name == "scorers":
        from ..eval import scorer_names

        return [(n, "TEAPOT scorer for sit eval (--s-src / --s-tgt)") for n in scorer_names()]
    registry = registries[name]
    if name == "formats":
        return [(n, _files(registry, n)) for n in registry.names()]
    return [(n, registry.entry(n).description) for n in registry.names()]


def _files(writers, name: str) -> str:
    """What the format ``name`` writes (``report.txt, compare.txt``), and whose plugin it is."""
    from ..errors import ConfigError

    plugin = writers.entry(name).description
    try:
        cls = writers.get(name)
    except ConfigError as exc:
        return f"{plugin} (not usable: {exc})".strip()
    files = ", ".join(f for f in (cls.report_file, cls.compare_file) if f)
    return f"{files} {plugin}".strip()


def run(args: argparse.Namespace) -> int:
    registries = _registries()
    for name in SECTIONS:
        if args.what in ("all", name):
            print(f"{name}:")
            for n, d in _rows(name, registries):
                print(f"  {n:<20} {d}")
    return 0
