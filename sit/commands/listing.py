"""``sit list``: what can be named on the command line, sit's own and the plugins' (entry points)."""

from __future__ import annotations

import argparse

SECTIONS = ("datasets", "translators", "relations", "perturbers", "parsers", "engines", "judges", "scorers", "formats")


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("what", nargs="?", default="all", choices=["all", *SECTIONS])
    p.epilog = "with -v, each component's options as it declares them (type, default, rule, run-wide name)"


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
    if name == "relations":
        from ..relations import DEFAULT_RELATIONS

        return [(n, registry.entry(n).description + (" (a run's default)" if n in DEFAULT_RELATIONS else ""))
                for n in registry.names()]
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


def options_of(section: str, cls: type) -> list:
    """The :class:`sit.options.Option`\\ s a component of ``section`` declares, as the command
    line, the signature and the checks read them (none for a section without options)."""
    from ..options import named_options, option_specs

    if section in ("translators", "judges"):
        return list(named_options(cls).values())
    if section == "relations":
        return list(option_specs(cls, frozenset({"ctx"})).values())
    if section == "perturbers":
        return list(option_specs(cls).values())
    return []


def _option_lines(section: str, registry, name: str) -> list[str]:
    """``sit list -v``: a line per option component ``name`` declares (one that does not load: why)."""
    from ..errors import SitError
    from ..options import described

    try:
        cls = registry.get(name)
    except SitError as exc:
        return [f"not usable: {exc}"]
    return [described(spec) for spec in options_of(section, cls)]


def run(args: argparse.Namespace) -> int:
    registries = _registries()
    for name in SECTIONS:
        if args.what in ("all", name):
            print(f"{name}:")
            for n, d in _rows(name, registries):
                print(f"  {n:<20} {d}")
                if getattr(args, "verbose", False) and name in registries:
                    for line in _option_lines(name, registries[name], n):
                        print(f"      {line}")
    return 0
