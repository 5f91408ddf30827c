"""The records of a comparison of two run directories: one :class:`ComparedCase` per test case
(and kind of finding), and the :class:`Comparison` that holds them with both runs' signatures,
the counts per relation and kind, and the aggregates (:mod:`sit.compare.stats`)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Optional

from ..records import Issue

#: the statuses of a test case, in the order reports list them
STATUSES = ("new", "fixed", "persisting", "changed", "unchanged")
#: what each status means (reports' legends)
STATUS_TITLES = {
    "new": "a finding in NEW only (a regression)",
    "fixed": "a finding in BASE only",
    "persisting": "a finding in both runs",
    "changed": "no finding in either run, but a translation differs",
    "unchanged": "no finding in either run, the same translations",
}


@dataclass(frozen=True)
class CaseKey:
    """What matches a test case across runs: its relation and its two source texts (for ``sit``
    and ``patinv`` the sentence and its perturbation, for ``rti`` the container and the phrase)."""

    relation: str
    source: str
    case: str

    def to_dict(self) -> dict[str, Any]:
        return {"relation": self.relation, "source": self.source, "case": self.case}


@dataclass(frozen=True)
class ComparedCase:
    """One test case (and one kind of finding of its relation) in both runs.

    ``base_translations`` / ``new_translations`` are the translations of (source, case) in each
    run (None where that run left a text untranslated). ``s_tgt`` is TEAPOT's s_tgt (chrF, in
    [0, 1]) between BASE's and NEW's translation of each of the two texts (1.0 where they are
    the same; None where either is missing). ``base`` / ``new`` are the findings, where any."""

    status: str
    key: CaseKey
    kind: str
    source_id: int
    edit: dict[str, Any]
    base_translations: tuple[Optional[str], Optional[str]]
    new_translations: tuple[Optional[str], Optional[str]]
    s_tgt: tuple[Optional[float], Optional[float]] = (None, None)
    base: Optional[Issue] = None
    new: Optional[Issue] = None
    #: what the two texts of the case are, as its relation tells (``run.json``'s relations_told)
    sides: tuple[str, str] = ("source", "perturbed")
    #: the judge's verdict on NEW against BASE where a translation changed (``sit compare --judge``):
    #: "worse", "better" or "tie" ("" where not judged); ``verdicts`` holds one
    #: :class:`~sit.judge.Verdict` record (as a dict, a = BASE, b = NEW) per side whose translation changed
    judged: str = ""
    verdicts: tuple[Optional[dict[str, Any]], Optional[dict[str, Any]]] = (None, None)

    @property
    def relation(self) -> str:
        return self.key.relation

    @property
    def group(self) -> str:
        """``sit``, ``sit.untranslated``, ``rti``...: relation and kind, as in the reports."""
        return f"{self.key.relation}.{self.kind}" if self.kind else self.key.relation

    @property
    def translation_changed(self) -> bool:
        return self.base_translations != self.new_translations

    @property
    def changed_persisting(self) -> bool:
        """A finding in both runs whose translations differ (not the same finding left as it was)."""
        return self.status == "persisting" and self.translation_changed

    @property
    def min_s_tgt(self) -> Optional[float]:
        """The lower s_tgt of the two texts: how far the translations moved (None when unknown)."""
        known = [s for s in self.s_tgt if s is not None]
        return min(known) if known else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "relation": self.key.relation,
            "kind": self.kind,
            "source_id": self.source_id,
            "source": self.key.source,
            "case": self.key.case,
            "edit": dict(self.edit),
            "base_translations": list(self.base_translations),
            "new_translations": list(self.new_translations),
            "s_tgt": list(self.s_tgt),
            "base": self.base.to_dict() if self.base else None,
            "new": self.new.to_dict() if self.new else None,
            "sides": list(self.sides),
            "translation_changed": self.translation_changed,
            "judged": self.judged,
            "verdicts": list(self.verdicts),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "ComparedCase":
        return cls(
            status=d["status"], key=CaseKey(d["relation"], d["source"], d["case"]), kind=d.get("kind", ""),
            source_id=d["source_id"], edit=dict(d.get("edit", {})),
            base_translations=tuple(d["base_translations"]), new_translations=tuple(d["new_translations"]),
            s_tgt=tuple(d.get("s_tgt", (None, None))),
            base=Issue.from_dict(d["base"]) if d.get("base") else None,
            new=Issue.from_dict(d["new"]) if d.get("new") else None,
            sides=tuple(d.get("sides", ("source", "perturbed"))),
            judged=d.get("judged", ""), verdicts=tuple(d.get("verdicts", (None, None))),
        )


@dataclass(frozen=True)
class RunSide:
    """One of the two runs: where it is and what it was (signature and its one-line form)."""

    path: str
    signature: dict[str, Any]
    signature_line: str
    sentences: int

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "signature": dict(self.signature), "signature_line": self.signature_line,
                "sentences": self.sentences}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "RunSide":
        return cls(d["path"], dict(d["signature"]), d["signature_line"], d["sentences"])


@dataclass(frozen=True)
class CountInterval:
    """Findings of one group (relation and kind) in each run, with a 95% bootstrap interval over
    the sentences for each run's count and for the difference NEW - BASE."""

    group: str
    base: int
    new: int
    base_interval: tuple[float, float]
    new_interval: tuple[float, float]
    delta_interval: tuple[float, float]

    @property
    def delta(self) -> int:
        return self.new - self.base

    def to_dict(self) -> dict[str, Any]:
        return {"group": self.group, "base": self.base, "new": self.new, "delta": self.delta,
                "base_interval": list(self.base_interval), "new_interval": list(self.new_interval),
                "delta_interval": list(self.delta_interval)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "CountInterval":
        return cls(d["group"], d["base"], d["new"], tuple(d["base_interval"]), tuple(d["new_interval"]),
                   tuple(d["delta_interval"]))


@dataclass(frozen=True)
class ScoreDelta:
    """A corpus score of both runs' translations of the source sentences against references, with
    sacrebleu's paired bootstrap resampling: ``p_value`` of the difference, and each run's mean and
    95% confidence half-width over the resamples."""

    metric: str
    base: float
    new: float
    p_value: float
    base_mean: float
    base_ci: float
    new_mean: float
    new_ci: float
    sentences: int
    signature: str

    @property
    def delta(self) -> float:
        return self.new - self.base

    def to_dict(self) -> dict[str, Any]:
        return {"metric": self.metric, "base": self.base, "new": self.new, "delta": self.delta,
                "p_value": self.p_value, "base_mean": self.base_mean, "base_ci": self.base_ci,
                "new_mean": self.new_mean, "new_ci": self.new_ci, "sentences": self.sentences,
                "signature": self.signature}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "ScoreDelta":
        return cls(**{k: d[k] for k in ("metric", "base", "new", "p_value", "base_mean", "base_ci", "new_mean",
                                         "new_ci", "sentences", "signature")})


@dataclass(frozen=True)
class ClusterStatus:
    """One root cause (:mod:`sit.report.clusters`) matched across BASE and NEW by its id:
    ``new`` (in NEW only), ``fixed`` (in BASE only) or ``persisting``, with its findings in each
    run and its triage mark (NEW's ``cluster-marks.jsonl``, else BASE's)."""

    cluster_id: str
    title: str
    status: str
    base_findings: int
    new_findings: int
    rank: int  # its rank in NEW (in BASE for a fixed one)
    label: Optional[str] = None

    def to_dict(self) -> dict[str, Any]:
        return {"cluster_id": self.cluster_id, "title": self.title, "status": self.status,
                "base_findings": self.base_findings, "new_findings": self.new_findings, "rank": self.rank,
                "label": self.label}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "ClusterStatus":
        return cls(d["cluster_id"], d["title"], d["status"], d["base_findings"], d["new_findings"], d["rank"],
                   d.get("label"))


@dataclass(frozen=True)
class Comparison:
    """BASE and NEW compared: every matched test case with its status, the cases only one run
    has (``only_base`` / ``only_new``: different perturbers or versions), and the aggregates."""

    base: RunSide
    new: RunSide
    cases: tuple[ComparedCase, ...]
    counts_by_group: tuple[CountInterval, ...] = ()
    scores: tuple[ScoreDelta, ...] = ()
    only_base: int = 0
    only_new: int = 0
    warnings: tuple[str, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)
    clusters: tuple[ClusterStatus, ...] = ()  # root causes matched by id: new, fixed, persisting

    def cluster_counts(self) -> dict[str, int]:
        """Root causes per status (new, fixed, persisting)."""
        counts = Counter(c.status for c in self.clusters)
        return {s: counts.get(s, 0) for s in ("new", "fixed", "persisting")}

    def by_status(self, status: str) -> list[ComparedCase]:
        return [c for c in self.cases if c.status == status]

    def status_counts(self) -> dict[str, int]:
        """Cases per status, every status present (0 where none)."""
        counts = Counter(c.status for c in self.cases)
        return {s: counts.get(s, 0) for s in STATUSES}

    def judge_counts(self) -> dict[str, int]:
        """Cases the judge found worse, better and tied in NEW (``sit compare --judge``), and the
        persisting findings whose translations changed."""
        counts = Counter(c.judged for c in self.cases if c.judged)
        return {"worse": counts.get("worse", 0), "better": counts.get("better", 0), "tie": counts.get("tie", 0),
                "changed_persisting": sum(1 for c in self.cases if c.changed_persisting)}

    def table(self) -> dict[str, dict[str, int]]:
        """Cases per group (relation and kind) and status. A case with no finding counts under its
        relation; a case with findings of two kinds counts once under each."""
        out: dict[str, dict[str, int]] = {}
        for c in self.cases:
            row = out.setdefault(c.group, {s: 0 for s in STATUSES})
            row[c.status] += 1
        return dict(sorted(out.items()))

    def to_dict(self) -> dict[str, Any]:
        return {"base": self.base.to_dict(), "new": self.new.to_dict(), "status_counts": self.status_counts(),
                "judge_counts": self.judge_counts(),
                "table": self.table(), "counts_by_group": [c.to_dict() for c in self.counts_by_group],
                "scores": [s.to_dict() for s in self.scores], "only_base": self.only_base,
                "only_new": self.only_new, "warnings": list(self.warnings), "options": dict(self.options),
                "cases": [c.to_dict() for c in self.cases], "clusters": [c.to_dict() for c in self.clusters]}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Comparison":
        return cls(RunSide.from_dict(d["base"]), RunSide.from_dict(d["new"]),
                   tuple(ComparedCase.from_dict(c) for c in d["cases"]),
                   tuple(CountInterval.from_dict(c) for c in d.get("counts_by_group", ())),
                   tuple(ScoreDelta.from_dict(s) for s in d.get("scores", ())),
                   d.get("only_base", 0), d.get("only_new", 0), tuple(d.get("warnings", ())),
                   dict(d.get("options", {})), tuple(ClusterStatus.from_dict(c) for c in d.get("clusters", ())))
