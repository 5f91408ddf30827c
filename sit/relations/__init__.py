"""Metamorphic relations, looked up by name without importing their dependencies.

- ``sit``: substituting one noun/adjective by a similar word keeps the structure of the translation
  (Structure-Invariant Testing, ICSE 2020).
- ``rti``: a noun phrase is translated the same alone and inside the text that contains it
  (Purity, referential transparency, ICSE 2021).
- ``patinv``: sentences with different meanings do not get the same translation (Pathological
  Invariance, ESEC/FSE 2020).
"""

from __future__ import annotations

from ..errors import ConfigError
from ..registry import Entry, Registry
from .base import Checked, Relation, RunContext

RELATIONS = Registry(
    "relation",
    {
        "sit": Entry("sit.relations.sit:SitRelation", "",
                     "a similar word keeps the translation's structure (dependency relation counts)"),
        "rti": Entry("sit.relations.rti:RtiRelation", "",
                     "a noun phrase translates the same alone and in its container (referential transparency)"),
        "patinv": Entry("sit.relations.patinv:PatInvRelation", "",
                        "different meanings never share one translation (pathological invariance)"),
    },
    group="sit.relations",
)


def create_relation(name: str, ctx: RunContext, options: dict) -> Relation:
    """The relation ``name`` for this run; an option it does not have is a one-line error."""
    from ..options import MACHINERY, checked_options, declared_options

    cls = RELATIONS.get(name)
    return cls(ctx, **checked_options(options, declared_options(cls, MACHINERY | {"ctx"}), f"the {name} relation"))


def parse_relations(value: str | list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """``"sit,rti"`` -> ``("sit", "rti")``: known names, each once, in the order given."""
    from ..validate import names_list

    names = names_list(value, "--relation")
    if not names:
        raise ConfigError(f"--relation needs at least one of: {', '.join(RELATIONS.names())}")
    for name in names:
        RELATIONS.entry(name)  # an unknown name: one line listing the relations
    return names


__all__ = ["RELATIONS", "Checked", "Relation", "RunContext", "create_relation", "parse_relations"]
