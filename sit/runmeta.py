"""What ``run.json`` says of a run, as records: :class:`RunMeta` and, per relation,
:class:`RelationTold`.

The pipeline builds one :class:`RunMeta` and writes it (:meth:`RunMeta.to_dict`); the run
directory's loader reads it back (:meth:`RunMeta.from_dict`) for the reports, ``sit compare`` and
``sit run --baseline``. Keys this sit does not know (a relation's run-level figures, such as
sit's ``teapot``) are kept in :attr:`RunMeta.figures` and written back under their own keys.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any, Mapping

from .records import RunCounts, RunSignature


@dataclass(frozen=True)
class RelationTold:
    """How the reports tell one relation's findings, as the relation declared it
    (:meth:`sit.relations.base.Relation.telling`), so that a report needs no relation's code."""

    title: str = ""
    kinds: dict[str, str] = field(default_factory=dict)  # kind -> what its findings claim
    sides: tuple[str, str] = ("source", "perturbed")  # what the case's two source texts are called
    kind: str = ""  # the name of the relation's own finding (sit's "structure"), "" where it has none

    def to_dict(self) -> dict[str, Any]:
        return {"title": self.title, "kinds": dict(self.kinds), "sides": list(self.sides), "kind": self.kind}

    @classmethod
    def from_dict(cls, d: Any) -> "RelationTold":
        """The relation as told; what is missing or of the wrong shape takes its default."""
        if not isinstance(d, Mapping):
            return cls()
        kinds = d.get("kinds")
        sides = d.get("sides")
        return cls(title=_text(d.get("title")),
                   kinds={str(k): str(v) for k, v in kinds.items()} if isinstance(kinds, Mapping) else {},
                   sides=(str(sides[0]), str(sides[1])) if isinstance(sides, list) and len(sides) == 2
                   else cls.sides,
                   kind=_text(d.get("kind")))


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


@dataclass(frozen=True)
class RunMeta:
    """``run.json``: the run's signature, input, counts, why its components were chosen, how
    its relations tell their findings, warnings, engine, cache, time, command, the options that
    decide its cases (``config``, for ``--baseline``) and its timings; see :mod:`sit.rundir`."""

    signature: RunSignature
    signature_line: str = ""
    input: str = ""
    counts: RunCounts = field(default_factory=RunCounts)
    perturber_reason: str = ""
    parser_reason: str = ""
    relations_reason: str = ""
    relations_told: dict[str, RelationTold] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()
    engine: dict[str, Any] = field(default_factory=dict)
    cache: str = ""
    created: str = ""
    command: str = ""
    config: dict[str, Any] = field(default_factory=dict)
    figures: dict[str, Any] = field(default_factory=dict)  # relations' run-level figures (sit's "teapot")
    timings: dict[str, float] = field(default_factory=dict)  # stage -> seconds

    def to_dict(self) -> dict[str, Any]:
        """run.json's object: the fields in order, each figure under its own key before the timings."""
        out = {f.name: getattr(self, f.name) for f in fields(self) if f.name not in ("figures", "timings")}
        out.update(signature=self.signature.to_dict(), counts=self.counts.to_dict(), warnings=list(self.warnings),
                   relations_told={name: told.to_dict() for name, told in self.relations_told.items()})
        return {**out, **self.figures, "timings": self.timings}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "RunMeta":
        """The meta of a run.json object whose parts have their types (:func:`sit.rundir.load_run`
        checks them); what is missing takes its default, keys it does not name are ``figures``."""
        names = {f.name for f in fields(cls)} - {"figures"}
        told = d.get("relations_told")
        kept: dict[str, Any] = {k: v for k, v in d.items() if k in names and v is not None}
        kept.update(
            signature=RunSignature.from_dict(d.get("signature") or {}),
            counts=RunCounts.from_dict(d.get("counts") or {}),
            relations_told={str(n): RelationTold.from_dict(t) for n, t in told.items()}
            if isinstance(told, Mapping) else {},
            warnings=tuple(str(w) for w in d.get("warnings") or ()),
            figures={k: v for k, v in d.items() if k not in names},
        )
        return cls(**kept)

    def with_timings(self, timings: Mapping[str, float]) -> "RunMeta":
        return replace(self, timings=dict(timings))

    def told(self, relation: str) -> RelationTold:
        """How ``relation`` tells its findings (defaults where the run does not say)."""
        return self.relations_told.get(relation) or RelationTold()

    def group_title(self, group: str) -> str:
        """What a group of findings claims, as its relation told it: ``"sit"`` -> sit's title,
        ``"sit.untranslated"`` -> its kind's; the group's own name where the run does not say."""
        name, _, kind = group.partition(".")
        told = self.told(name)
        return (told.kinds.get(kind) if kind else told.title) or group

    def sides(self, relation: str) -> tuple[str, str]:
        """What the two source texts of ``relation``'s cases are called."""
        return self.told(relation).sides

    def own_kinds(self) -> dict[str, str]:
        """relation -> the name of its own finding (sit's ``structure``), which issues.jsonl writes
        as ``kind`` where :class:`~sit.records.Issue` holds ""."""
        return {name: told.kind for name, told in self.relations_told.items() if told.kind}

    def reasons(self) -> list[tuple[str, str]]:
        """(component, why it was chosen) of the parser and the relations, where the run says."""
        return [(name, why) for name, why in (("parser", self.parser_reason), ("relations", self.relations_reason))
                if why]


__all__ = ["RelationTold", "RunMeta"]
