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
class Figure:
    """One row of a component's run-level figures, as every report shows it: a title and its value
    (text: the component formats its own numbers)."""

    title: str
    value: str


@dataclass(frozen=True)
class FigureTable:
    """A titled table of run-level figures (:class:`Figure` rows) that a relation declares
    (:meth:`sit.relations.base.Relation.figures`); the reports render it without knowing whose it is.
    ``key`` names the ``run.json`` key whose raw figures the rows tell ("" where none)."""

    title: str
    rows: tuple[Figure, ...] = ()
    note: str = ""  # what the figures are (a scale, a method), said beside the title
    key: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"title": self.title, "note": self.note, "key": self.key,
                "rows": [[row.title, row.value] for row in self.rows]}

    @classmethod
    def from_dict(cls, d: Any) -> "FigureTable | None":
        """The table written by :meth:`to_dict`; None where ``d`` is no such table."""
        if not isinstance(d, Mapping) or not isinstance(d.get("title"), str) or not isinstance(d.get("rows"), list):
            return None
        rows = tuple(Figure(str(r[0]), str(r[1])) for r in d["rows"] if isinstance(r, list) and len(r) == 2)
        return cls(d["title"], rows, _text(d.get("note")), _text(d.get("key")))


def plain_figures(figures: Mapping[str, Any]) -> list[FigureTable]:
    """Run-level figures nobody declared rows for, as tables all the same: one per key, a row per
    value (nested mappings as ``outer.inner``), numbers to four significant digits."""
    tables = []
    for key, value in figures.items():
        rows = tuple(Figure(name, text) for name, text in _flat(value, ""))
        if rows:
            tables.append(FigureTable(str(key), rows, key=str(key)))
    return tables


def _flat(value: Any, prefix: str) -> list[tuple[str, str]]:
    if isinstance(value, Mapping):
        return [row for k, v in value.items() for row in _flat(v, f"{prefix}.{k}" if prefix else str(k))]
    if isinstance(value, float):
        return [(prefix or "value", f"{value:.4g}")]
    if isinstance(value, list):
        return [(prefix or "value", ", ".join(f"{v:.4g}" if isinstance(v, float) else str(v) for v in value))]
    return [(prefix or "value", "-" if value is None else str(value))]


@dataclass(frozen=True)
class RelationTold:
    """How the reports tell one relation's findings, as the relation declared it
    (:meth:`sit.relations.base.Relation.telling`), so that a report needs no relation's code."""

    title: str = ""
    kinds: dict[str, str] = field(default_factory=dict)  # kind -> what its findings claim
    sides: tuple[str, str] = ("source", "perturbed")  # what the case's two source texts are called
    kind: str = ""  # the name of the relation's own finding (sit's "structure"), "" where it has none
    #: the relation's run-level figures as titled rows (written only where it has some)
    figures: tuple[FigureTable, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out = {"title": self.title, "kinds": dict(self.kinds), "sides": list(self.sides), "kind": self.kind}
        if self.figures:
            out["figures"] = [table.to_dict() for table in self.figures]
        return out

    @classmethod
    def from_dict(cls, d: Any) -> "RelationTold":
        """The relation as told; what is missing or of the wrong shape takes its default."""
        if not isinstance(d, Mapping):
            return cls()
        kinds = d.get("kinds")
        sides = d.get("sides")
        figures = d.get("figures")
        tables = [FigureTable.from_dict(t) for t in figures] if isinstance(figures, list) else []
        return cls(title=_text(d.get("title")),
                   kinds={str(k): str(v) for k, v in kinds.items()} if isinstance(kinds, Mapping) else {},
                   sides=(str(sides[0]), str(sides[1])) if isinstance(sides, list) and len(sides) == 2
                   else cls.sides,
                   kind=_text(d.get("kind")), figures=tuple(t for t in tables if t is not None))


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
    #: the identity of the sentences tested (:meth:`sit.plan.Inputs.identity`: their source,
    #: ``--limit``, how many and their digest), which a re-run into the same --out must match
    inputs: dict[str, Any] = field(default_factory=dict)
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

    def figure_tables(self) -> list[FigureTable]:
        """Every run-level figure as titled rows: each relation's declared tables that hold rows,
        in the run's order, then the figures no table tells (an older run's, a relation that declared none) as
        :func:`plain_figures`."""
        tables = [t for told in self.relations_told.values() for t in told.figures]
        told_keys = {t.key for t in tables}
        return [t for t in tables if t.rows] + plain_figures({k: v for k, v in self.figures.items()
                                                              if k not in told_keys})

    def reasons(self) -> list[tuple[str, str]]:
        """(component, why it was chosen) of the parser and the relations, where the run says."""
        return [(name, why) for name, why in (("parser", self.parser_reason), ("relations", self.relations_reason))
                if why]


__all__ = ["Figure", "FigureTable", "RelationTold", "RunMeta", "plain_figures"]
