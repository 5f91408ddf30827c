"""The plain, immutable records that flow between the stages of a run."""

from __future__ import annotations

import hashlib
import json
import platform
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Optional


@dataclass(frozen=True)
class Edit:
    """What one perturbation changed: token ``position`` (and character span) from ``before`` to ``after``."""

    position: int
    before: str
    after: str
    perturber: str
    char_start: int = -1  # character offset of the change in the perturbed text (-1: unknown)
    char_end: int = -1
    level: str = "word"
    note: str = ""  # e.g. why a perturbation could not apply
    zipf: Optional[float] = None  # the new word's frequency (wordfreq Zipf), where the quality stage ran
    similarity: Optional[float] = None  # sentence-encoder cosine of the new sentence to the original
    lm_fall: Optional[float] = None  # how much less likely (log10) an n-gram model finds the new word in place

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Edit":
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in names})


@dataclass(frozen=True)
class Pair:
    """Two source texts a metamorphic relation compares, and what changed between them.

    For ``sit`` and ``patinv``: an original sentence and one perturbation of it. For ``rti``: the
    containing text (``original``) and the noun phrase inside it (``perturbed``)."""

    source_id: int
    original: str
    perturbed: str
    edit: Edit
    relation: str = "sit"

    def to_dict(self) -> dict[str, Any]:
        return {
            "source_id": self.source_id,
            "relation": self.relation,
            "original": self.original,
            "perturbed": self.perturbed,
            "edit": self.edit.to_dict(),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Pair":
        return cls(d["source_id"], d["original"], d["perturbed"], Edit.from_dict(d["edit"]), d.get("relation", "sit"))


@dataclass(frozen=True)
class Tree:
    """A dependency parse: tokens, 1-based heads (0 = root) and relation labels, one per token."""

    tokens: tuple[str, ...]
    heads: tuple[int, ...]
    relations: tuple[str, ...]

    def __post_init__(self) -> None:
        if not (len(self.tokens) == len(self.heads) == len(self.relations)):
            raise ValueError("a Tree needs as many heads and relations as tokens")

    def to_dict(self) -> dict[str, Any]:
        return {"tokens": list(self.tokens), "heads": list(self.heads), "relations": list(self.relations)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Tree":
        return cls(tuple(d["tokens"]), tuple(d["heads"]), tuple(d["relations"]))


@dataclass(frozen=True)
class Issue:
    """A finding of one metamorphic relation (``pair.relation``) on one pair of source texts.

    ``kind`` names a secondary kind of finding of that relation (``"untranslated"`` for a ``sit``
    substitute the translator left as it was); ``""`` is the relation's own violation (for
    ``sit``, a structure change). ``group`` (relation and kind) is what ranks, reports and
    labels keep apart. ``evidence`` holds what a reader needs to judge it (for ``rti`` the
    tokens the phrase's translation has and the container's lacks)."""

    pair: Pair
    original_translation: str
    perturbed_translation: str
    distance: float
    relation_diff: dict[str, tuple[int, int]]  # dependency label -> (count in original, count in perturbed)
    rank: int = 0  # 1-based rank within its source sentence and group
    scores: dict[str, float] = field(default_factory=dict)  # e.g. s_src, s_tgt
    kind: str = ""
    evidence: dict[str, Any] = field(default_factory=dict)

    @property
    def relation(self) -> str:
        return self.pair.relation

    @property
    def group(self) -> str:
        """``sit``, ``sit.untranslated``, ``rti``, ``patinv``: what is ranked and labelled apart."""
        return f"{self.pair.relation}.{self.kind}" if self.kind else self.pair.relation

    def to_dict(self) -> dict[str, Any]:
        return {
            "source_id": self.pair.source_id,
            "relation": self.pair.relation,
            "kind": self.kind,
            "rank": self.rank,
            "distance": self.distance,
            "original": self.pair.original,
            "perturbed": self.pair.perturbed,
            "original_translation": self.original_translation,
            "perturbed_translation": self.perturbed_translation,
            "edit": self.pair.edit.to_dict(),
            "relation_diff": {k: list(v) for k, v in sorted(self.relation_diff.items())},
            "scores": dict(self.scores),
            "evidence": dict(self.evidence),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Issue":
        pair = Pair(d["source_id"], d["original"], d["perturbed"], Edit.from_dict(d["edit"]), d.get("relation", "sit"))
        return cls(
            pair=pair,
            original_translation=d["original_translation"],
            perturbed_translation=d["perturbed_translation"],
            distance=d["distance"],
            relation_diff={k: (int(v[0]), int(v[1])) for k, v in d.get("relation_diff", {}).items()},
            rank=d.get("rank", 0),
            scores=dict(d.get("scores", {})),
            kind=d.get("kind", ""),
            evidence=dict(d.get("evidence", {})),
        )


def package_versions(names: tuple[str, ...] = ("sit", "transformers", "torch", "spacy", "stanza", "sacrebleu", "nltk", "jieba")) -> dict[str, str]:
    """Installed versions of the packages that can change a result (without importing them)."""
    from importlib import metadata

    out = {"python": platform.python_version()}
    for name in names:
        dist = "sit-mt" if name == "sit" else name
        try:
            out[name] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            continue
    return out


@dataclass(frozen=True)
class RunSignature:
    """Every choice that changes a run's result, like sacrebleu's ``Signature``.

    It is written to ``run.json`` and printed in reports; the translator, parser and perturber
    parts of it also name their cache namespaces (see :mod:`sit.cache`).
    """

    translator: str
    translator_model: str
    source_lang: str
    target_lang: str
    perturber: str
    perturber_model: str
    num_perturb: int
    parser: str
    parser_model: str
    distance: str
    threshold: float
    top_k: int
    seed: int
    versions: dict[str, str] = field(default_factory=dict)
    perturber_options: dict[str, Any] = field(default_factory=dict)
    translator_options: dict[str, Any] = field(default_factory=dict)  # those that change translations
    relations: dict[str, dict[str, Any]] = field(default_factory=lambda: {"sit": {}})  # name -> options

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "RunSignature":
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in names})

    def format(self) -> str:
        """A one-line signature, e.g. ``tr:apertium(eng-spa)|lang:en-es|pert:wordnet(...)|...``."""
        v = self.versions
        parts = [
            f"tr:{self.translator}({self.translator_model})"
            + "".join(f"|{k}:{v}" for k, v in sorted(self.translator_options.items())),
            f"lang:{self.source_lang}-{self.target_lang}",
            f"pert:{self.perturber}({self.perturber_model})|num:{self.num_perturb}"
            + "".join(
                f"|{k}:{v}" for k, v in sorted(self.perturber_options.items()) if k != "num_perturb" and v is not None
            ),
            f"parse:{self.parser}({self.parser_model})",
            f"dist:{self.distance}|thr:{self.threshold:g}|k:{self.top_k}|seed:{self.seed}",
            "rel:" + "+".join(
                name + "".join(f",{k}={v}" for k, v in sorted(opts.items())) for name, opts in self.relations.items()
            ),
            f"sit:{v.get('sit', '?')}",
        ]
        return "|".join(parts)

    def digest(self) -> str:
        return hashlib.sha256(json.dumps(self.to_dict(), sort_keys=True).encode()).hexdigest()[:12]


def stable_hash(*parts: Any) -> str:
    """A short, stable hash of JSON-serialisable parts (for cache namespaces)."""
    blob = json.dumps(parts, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]
