"""The plain, immutable records that flow between the stages of a run."""

from __future__ import annotations

import hashlib
import json
import platform
import re
import sys
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Iterable, Optional

from . import PROGRAM

#: the relation of a record that names none: pairs, findings, label rows and signatures written
#: before sit had other relations (its findings' ids carry no prefix: ``3-1``, not ``sit:3-1``);
#: :mod:`sit.relations.names` says it to the relations
UNNAMED = "sit"


def field_name(words: str) -> str:
    """``words`` as an identifier for a JSON field: ``"token inserted"`` -> ``"token_inserted"``."""
    return "_".join(re.findall(r"\w+", words)) or "side"


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
    #: what changed, where the maker says (case, insertion, substitution, removal); "" lets
    #: :attr:`Issue.change` tell it from ``before`` and ``after``
    change: str = ""
    #: how natural the new sentence likely is, 0-1 (the WordNet perturber's ``Naturalness`` check;
    #: below :data:`sit.relations.rank.NATURAL` it is likely unnatural); written only where measured
    naturalness: Optional[float] = None

    def to_dict(self) -> dict[str, Any]:
        # every field is a number or a string: read them as they are (asdict deep-copies each, and
        # a run writes thousands of edits)
        out = {f.name: getattr(self, f.name) for f in _EDIT_FIELDS}
        if self.naturalness is None:  # edits of the other perturbers keep the keys they always had
            del out["naturalness"]
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Edit":
        names = {f.name for f in fields(cls)}
        # the few values every edit of a run repeats (its perturber, level, note, change) are
        # shared, not one string per edit read back (50,000 edits: about 10 MB)
        return cls(**{k: sys.intern(v) if k in _SHARED and isinstance(v, str) else v
                      for k, v in d.items() if k in names})


_EDIT_FIELDS = fields(Edit)
#: the fields of an Edit whose values repeat from edit to edit
_SHARED = frozenset({"perturber", "level", "note", "change"})


@dataclass(frozen=True)
class Pair:
    """Two source texts a metamorphic relation compares, and what changed between them.

    For ``sit`` and ``patinv``: an original sentence and one perturbation of it. For ``rti``: the
    containing text (``original``) and the noun phrase inside it (``perturbed``). ``relation``
    is the relation whose case it is; "" where none has taken it yet (a perturber's pair)."""

    source_id: int
    original: str
    perturbed: str
    edit: Edit
    relation: str = ""

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
        return cls(d["source_id"], d["original"], d["perturbed"], Edit.from_dict(d["edit"]), relation_of(d))


def relation_of(row: dict[str, Any]) -> str:
    """The relation a record's row names; one that names none was written before sit had other
    relations (:data:`sit.relations.UNNAMED`)."""
    if "relation" in row:
        return row["relation"]
    return UNNAMED


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


def issue_id(source_id: int, rank: int, group: str = "") -> str:
    """The stable id of an issue in a run: ``"<group>:<source id>-<rank>"`` (``"<source id>-<rank>"``
    for the group of the relation of old, :data:`sit.relations.UNNAMED`, or none, as label files
    have always written it)."""
    plain = f"{source_id}-{rank}"
    return plain if not group or group == UNNAMED else f"{group}:{plain}"


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

    @property
    def issue_id(self) -> str:
        """The issue's id in its run (``issues.jsonl``, labels, the HTML's anchors): see :func:`issue_id`."""
        return issue_id(self.pair.source_id, self.rank, self.group)

    @property
    def content_key(self) -> str:
        """A short hash of what the finding is (group, source id, both source texts, both
        translations): the same finding has the same key in every run, whatever its rank or the
        run's time, so triage marks keyed on it survive a re-run."""
        return stable_hash(self.group, self.pair.source_id, self.pair.original, self.pair.perturbed, self.original_translation,
                           self.perturbed_translation)

    @property
    def change(self) -> str:
        """What the case changed in its source: the edit's own word where its maker gave one
        (``case`` for a case variant), else ``none`` (the same text in another place, such as
        rti's phrase alone), ``removal`` (words taken out: ``edit.after`` is empty), ``insertion``
        (``edit.before`` is empty: a pass-through token put in), ``case`` (the same words in
        another case) or ``substitution`` (a word for another)."""
        edit = self.pair.edit
        if edit.change:
            return edit.change
        if edit.before == edit.after:
            return "none"
        if not edit.after or not edit.before:
            return "removal" if not edit.after else "insertion"
        return "case" if edit.before.casefold() == edit.after.casefold() else "substitution"

    def to_dict(self, sides: Optional[tuple[str, str]] = None, own_kind: str = "") -> dict[str, Any]:
        """The issue as ``issues.jsonl`` holds it (docs/report.md, "issues.jsonl"). With ``sides``
        (what the relation calls its two texts, ``run.json``'s ``relations_told``), the two texts
        and their translations are also written under those names (rti: ``container``,
        ``phrase``, ``container_translation``, ``phrase_translation``; a name in words is
        written as an identifier: ``token_inserted``), where such a name is not a field already. ``own_kind`` names the relation's own finding (``kind`` "": sit's
        ``structure``), so that ``kind`` names every finding; :meth:`from_dict` given the same
        name reads it back as ""."""
        out = self._fields()
        if not self.kind and own_kind:
            out["kind"] = own_kind
        if sides:
            texts = ((self.pair.original, self.original_translation), (self.pair.perturbed, self.perturbed_translation))
            for side, (text, translation) in zip(sides, texts):
                name = field_name(side)  # a side told in words ("token inserted") as an identifier
                if name not in out and f"{name}_translation" not in out:
                    out[name], out[f"{name}_translation"] = text, translation
        return out

    def _fields(self) -> dict[str, Any]:
        return {
            "issue_id": self.issue_id,
            "key": self.content_key,
            "source_id": self.pair.source_id,
            "relation": self.pair.relation,
            "kind": self.kind,
            "group": self.group,
            "rank": self.rank,
            "distance": self.distance,
            "original": self.pair.original,
            "perturbed": self.pair.perturbed,
            "original_translation": self.original_translation,
            "perturbed_translation": self.perturbed_translation,
            "edit": self.pair.edit.to_dict(),
            "change": self.change,
            "relation_diff": {k: list(v) for k, v in sorted(self.relation_diff.items())},
            "scores": dict(self.scores),
            "evidence": dict(self.evidence),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any], own_kinds: Optional[dict[str, str]] = None) -> "Issue":
        """The issue of an issues.jsonl row; ``own_kinds`` (relation -> the name of its own
        finding, ``run.json``'s ``relations_told``) reads that name back as kind ""."""
        kind = d.get("kind", "")
        relation = relation_of(d)
        if own_kinds and kind and own_kinds.get(relation) == kind:
            kind = ""
        pair = Pair(d["source_id"], d["original"], d["perturbed"], Edit.from_dict(d["edit"]), relation)
        return cls(
            pair=pair,
            original_translation=d["original_translation"],
            perturbed_translation=d["perturbed_translation"],
            distance=d["distance"],
            relation_diff={k: (int(v[0]), int(v[1])) for k, v in d.get("relation_diff", {}).items()},
            rank=d.get("rank", 0),
            scores=dict(d.get("scores", {})),
            kind=kind,
            evidence=dict(d.get("evidence", {})),
        )


@dataclass(frozen=True)
class GroupCount:
    """One group of findings (``sit``, ``sit.untranslated``, ``rti``, ...): how many findings,
    in how many distinct source sentences, and how many of them are about no sentence of the
    input (``other``: an rti phrase, a relation's variant; source id -1)."""

    findings: int
    sentences: int
    other: int = 0

    def to_dict(self) -> dict[str, int]:
        return {"findings": self.findings, "sentences": self.sentences, "other": self.other}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "GroupCount":
        return cls(int(d.get("findings", 0)), int(d.get("sentences", 0)), int(d.get("other", 0)))


@dataclass(frozen=True)
class RelationCounts:
    """One relation's counts (``run.json``'s ``counts.relations``): its test cases, the cases it
    compared (both texts translated), its findings and the run sentences they flag, then its own
    figures in the order it gave them (findings of each kind as ``<kind>_issues``, sit's
    ``untranslated_pairs``, the batch relation's ``batches``...)."""

    cases: int = 0
    compared: int = 0
    issues: int = 0
    flagged_sentences: int = 0
    own: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, int]:
        return {"cases": self.cases, "compared": self.compared, "issues": self.issues,
                "flagged_sentences": self.flagged_sentences, **self.own}

    def plus(self, other: "RelationCounts") -> "RelationCounts":
        """These counts and ``other``'s added up (one relation's counts over two blocks of a run's
        sentences: each sentence is in one block, so its flagged sentences add up too); its own
        figures in the order they first came."""
        own = dict(self.own)
        for key, value in other.own.items():
            own[key] = own.get(key, 0) + value
        return RelationCounts(self.cases + other.cases, self.compared + other.compared, self.issues + other.issues,
                              self.flagged_sentences + other.flagged_sentences, own)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "RelationCounts":
        names = [f.name for f in fields(cls) if f.name != "own"]
        return cls(**{k: int(d.get(k, 0)) for k in names}, own={k: v for k, v in d.items() if k not in names})


@dataclass(frozen=True)
class RunCounts:
    """The counts of one run, each defined once (docs/report.md, "Counts"); the pipeline writes
    them to ``run.json`` and every report and the CLI's summary read them from there.

    ``translations`` are the distinct source texts the run needed translated (sentences, and
    every relation's texts); of them ``cache_hits`` came from the cache, ``translated`` from the
    translator in ``translator_calls`` calls, and ``untranslated`` the translator failed (left
    without a translation: not the same as an untranslated-word finding, which is a finding of
    its own group); ``empty`` the translator answered with nothing (asked twice: its answer,
    cached, not a failure). ``issues`` counts findings, ``groups`` the findings of each group and
    their sentences, ``flagged_sentences`` the distinct source sentences (ids 0 and up) with any
    finding; findings about a text that is no sentence of the input (an rti phrase, a variant:
    source id -1) count in ``issues`` and in their group's ``other``, never as a sentence."""

    sentences: int = 0
    perturbations: int = 0  # substitution pairs the perturber made (0 where no relation substitutes)
    cases: int = 0  # test cases of all relations
    translations: int = 0
    translated: int = 0
    translator_calls: int = 0
    cache_hits: int = 0
    untranslated: int = 0
    empty: int = 0  # texts the translator answered with nothing, twice: its answer (length.empty findings)
    issues: int = 0
    flagged_sentences: int = 0
    groups: dict[str, GroupCount] = field(default_factory=dict)
    relations: dict[str, RelationCounts] = field(default_factory=dict)  # each relation's own counts
    compared: int = 0
    perturbation_cache_hits: int = 0
    parse_cache_hits: int = 0
    candidates_dropped: dict[str, int] = field(default_factory=dict)

    @staticmethod
    def tally(issues: Iterable["Issue"]) -> tuple[dict[str, GroupCount], int]:
        """Per group (in the issues' order), findings and distinct sentences; and the distinct
        sentences with any finding (one pass: ``issues`` may be a file read as it goes)."""
        return RunCounts.tally_keys((issue.group, issue.pair.source_id) for issue in issues)

    @staticmethod
    def tally_keys(keys: Iterable[tuple[str, int]]) -> tuple[dict[str, GroupCount], int]:
        """:meth:`tally` of the findings' ``(group, source id)`` alone, in the findings' order."""
        found: dict[str, list[int]] = {}
        for group, source_id in keys:
            found.setdefault(group, []).append(source_id)
        groups = {g: GroupCount(len(ids), len({i for i in ids if i >= 0}), sum(1 for i in ids if i < 0))
                  for g, ids in found.items()}
        return groups, len({i for ids in found.values() for i in ids if i >= 0})

    def with_findings(self, issues: Iterable["Issue"]) -> "RunCounts":
        """These counts with ``issues``, ``groups`` and ``flagged_sentences`` taken from ``issues``
        (read once: a file of findings is streamed, never held)."""
        from dataclasses import replace

        groups, flagged = self.tally(issues)
        return replace(self, issues=sum(c.findings for c in groups.values()), groups=groups, flagged_sentences=flagged)

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["groups"] = {g: c.to_dict() for g, c in self.groups.items()}
        out["relations"] = {name: c.to_dict() for name, c in self.relations.items()}
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "RunCounts":
        names = {f.name for f in fields(cls)}
        kept = {k: v for k, v in d.items() if k in names}
        kept["groups"] = {g: GroupCount.from_dict(c) for g, c in (d.get("groups") or {}).items()}
        kept["relations"] = {name: RelationCounts.from_dict(c) for name, c in (d.get("relations") or {}).items()}
        return cls(**kept)


def package_versions(names: tuple[str, ...] = (PROGRAM, "transformers", "torch", "spacy", "stanza", "sacrebleu", "nltk", "jieba")) -> dict[str, str]:
    """Installed versions of the packages that can change a result (without importing them)."""
    from importlib import metadata

    out = {"python": platform.python_version()}
    for name in names:
        dist = "sit-mt" if name == PROGRAM else name
        try:
            out[name] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            continue
    return out


@dataclass(frozen=True)
class RunSignature:
    """Every choice that changes a run's result, like sacrebleu's ``Signature``: one block per
    component of the run (the translator, the perturber, the parser, each relation: its name, its
    model and its options, the options it declares itself), then the run's own settings (the
    languages, the threshold and top-k every relation's findings are ranked by, the seed every
    component draws from) and the versions of sit, the packages and the plugins it used.

    It is written to ``run.json`` and printed in reports; a run's option is in the block of the
    component that takes it (``num_perturb`` in the perturber's, the sit relation's ``distance``
    in that relation's), so a run of plugins alone names no option of sit's own components.
    """

    translator: str
    translator_model: str
    source_lang: str
    target_lang: str
    perturber: str  # "none" (and no block in the line) where no perturber ran
    perturber_model: str
    parser: str  # "none" where no parser ran
    parser_model: str
    threshold: float
    top_k: int
    seed: int
    versions: dict[str, str] = field(default_factory=dict)
    perturber_options: dict[str, Any] = field(default_factory=dict)
    translator_options: dict[str, Any] = field(default_factory=dict)  # those that change translations
    #: name -> options; a signature of old names no relation: its run's was :data:`sit.relations.UNNAMED`
    relations: dict[str, dict[str, Any]] = field(default_factory=lambda: {relation_of({}): {}})
    #: the fixed fields of a signature of old (:data:`LEGACY_FIELDS`: ``num_perturb``, ``distance``),
    #: as its run.json or line held them: the same values its perturber's and relations' blocks
    #: hold, so they are no part of the configuration (not compared, not written back); kept only
    #: so that its :meth:`digest` is the one its run had (the browser's saved marks are under it)
    legacy: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        del out["legacy"]
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "RunSignature":
        """The signature of a run.json, of this sit or of old (whose fixed ``num_perturb`` and
        ``distance`` go to :attr:`legacy`)."""
        names = {f.name for f in fields(cls)} - {"legacy"}
        return cls(**{k: v for k, v in d.items() if k in names}, legacy={k: d[k] for k in LEGACY_FIELDS if k in d})

    def blocks(self) -> list[tuple[str, str, str, dict[str, Any]]]:
        """(role, name, model, options) of each component of the run, in the line's order: the
        translator, the perturber and the parser where they ran, then each relation (whose
        model is "")."""
        parts = [("translator", self.translator, self.translator_model, self.translator_options)]
        if (self.perturber, self.perturber_model) != ("none", "none") or self.perturber_options:
            parts.append(("perturber", self.perturber, self.perturber_model, self.perturber_options))
        if (self.parser, self.parser_model) != ("none", "none"):
            parts.append(("parser", self.parser, self.parser_model, {}))
        return parts + [("relation", name, "", opts) for name, opts in self.relations.items()]

    def format(self, short: bool = False) -> str:
        """The signature as one flat line in sacrebleu's style: ``key:value`` parts joined by ``|``,
        booleans as ``yes``/``no``, one block per component (its name, its model, its options
        under its prefix: ``tr.temperature:0``, ``pert.num_perturb:10``, ``rel.rti.compare:words``),
        then the run's own settings and the sit version last:
        ``tr:apertium|model:eng-spa|pert:wordnet|pmodel:wordnet-3.0|pert.num_perturb:10|...|parse:spacy|
        parsemodel:...|rel:sit+rti|rel.sit.distance:relation|...|src:en|tgt:es|thr:0|k:3|seed:0|version:0.1.0``.
        A component that did not run has no block. ``short`` uses one- or two-letter keys
        (``t:apertium|m:eng-spa|...``), as sacrebleu's short signature does, and stands for the
        options by the digest of the whole signature (``h:``, :meth:`digest`). Either form parses
        back with :meth:`parse` (the short one without options)."""
        keys = _SHORT_KEYS if short else _KEYS
        parts: list[str] = []
        for role, name, model, opts in self.blocks():
            if role == "relation":
                continue
            parts += [f"{keys[role]}:{_flat_value(name)}", f"{keys[role + '_model']}:{_flat_value(model)}"]
            if not short:
                parts += [f"{_PREFIX[role]}.{k}:{_flat_value(v)}" for k, v in _flatten(opts) if v is not None]
        parts.append(f"{keys['relations']}:{'+'.join(self.relations) or 'none'}")
        if not short:
            parts += [f"rel.{name}.{k}:{_flat_value(v)}" for name, opts in self.relations.items()
                      for k, v in _flatten(opts) if v is not None]
        parts += [f"{keys[name]}:{_flat_value(getattr(self, name))}" for name in _RUN_SETTINGS]
        if short:
            parts.append(f"h:{self.digest()}")
        return "|".join(parts + [f"{keys['version']}:{self.versions.get(PROGRAM, '?')}"])

    @classmethod
    def parse(cls, line: str) -> "RunSignature":
        """The signature a :meth:`format` line (long or short, of this sit or of old: the fixed
        ``num:`` and ``dist:`` parts of old go to :attr:`legacy`) holds: numbers and ``yes``/``no``
        come back as numbers and booleans; a component without a block is "none"; ``versions``
        holds sit's version only. ValueError names a part that is not ``key:value`` or a run
        setting that is missing."""
        values: dict[str, Any] = {"translator_options": {}, "perturber_options": {}, "relations": {}, "legacy": {},
                                  "perturber": "none", "perturber_model": "none", "parser": "none",
                                  "parser_model": "none"}
        for part in line.strip().split("|"):
            key, colon, raw = part.partition(":")
            if not colon or not key:
                raise ValueError(f"signature part {part!r} is not key:value")
            _read_part(values, key, raw)
        missing = [n for n in ("translator", "translator_model", *_RUN_SETTINGS) if n not in values]
        if missing:
            raise ValueError(f"the signature has no {', '.join(missing)}")
        for name in ("translator", "translator_model", "source_lang", "target_lang", "perturber",
                     "perturber_model", "parser", "parser_model"):
            values[name] = str(values[name])
        if "distance" in values["legacy"]:
            values["legacy"]["distance"] = str(values["legacy"]["distance"])
        values["threshold"] = float(values["threshold"])
        return cls(**values)

    def digest(self) -> str:
        """A short hash of the whole signature (versions included); of a signature of old, the
        hash its run had (:attr:`legacy` included)."""
        blob = json.dumps({**self.to_dict(), **self.legacy}, sort_keys=True)
        return hashlib.sha256(blob.encode()).hexdigest()[:12]


def _read_part(values: dict[str, Any], key: str, raw: str) -> None:
    """Put one ``key:value`` part of a signature line where it belongs in ``values``."""
    field_name = _LONG_OF.get(key)
    owner, dot, rest = key.partition(".")
    if dot and owner in ("tr", "pert"):
        _unflatten(values["translator_options" if owner == "tr" else "perturber_options"], rest, raw)
    elif dot and owner == "rel":
        name, _, option = rest.partition(".")
        _unflatten(values["relations"].setdefault(name, {}), option, raw)
    elif field_name == "relations":
        values["relations"] = {n: values["relations"].get(n, {}) for n in raw.split("+") if n != "none"}
    elif field_name == "version":
        values["versions"] = {PROGRAM: raw}
    elif field_name in LEGACY_FIELDS:
        values["legacy"][field_name] = _parse_value(raw)
    elif field_name is not None:
        values[field_name] = _parse_value(raw)
    # else: the short form's ``h:`` (the digest of the options), or a part this sit does not know


#: the run's own settings, after the components' blocks: the languages, what every relation's
#: findings are ranked by (:func:`sit.relations.rank.rank_issues`) and the seed every component draws from
_RUN_SETTINGS = ("source_lang", "target_lang", "threshold", "top_k", "seed")
#: the fixed fields of a signature of old that are its components' options now: ``num_perturb``
#: (the perturber's), ``distance`` (the sit relation's); parsed and read, never written
LEGACY_FIELDS = ("num_perturb", "distance")
#: each component's options prefix in the line
_PREFIX = {"translator": "tr", "perturber": "pert", "parser": "parse", "relation": "rel"}
#: the keys of a signature line, long and short (sacrebleu-like); ``num``/``n`` and ``dist``/``d``
#: are those of old lines
_KEYS = {"translator": "tr", "translator_model": "model", "source_lang": "src", "target_lang": "tgt",
         "perturber": "pert", "perturber_model": "pmodel", "num_perturb": "num", "parser": "parse",
         "parser_model": "parsemodel", "distance": "dist", "threshold": "thr", "top_k": "k", "seed": "seed",
         "relations": "rel", "version": "version"}
_SHORT_KEYS = {"translator": "t", "translator_model": "m", "source_lang": "s", "target_lang": "g",
               "perturber": "p", "perturber_model": "pm", "num_perturb": "n", "parser": "pa",
               "parser_model": "pam", "distance": "d", "threshold": "th", "top_k": "k", "seed": "sd",
               "relations": "r", "version": "v"}
_LONG_OF = {v: k for k, v in _SHORT_KEYS.items()} | {v: k for k, v in _KEYS.items()}


def _flat_value(value: Any) -> str:
    """A value as a signature line writes it: yes/no for booleans, ``%g`` for floats."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, (list, tuple)):
        return ",".join(_flat_value(v) for v in value)
    return str(value).replace("|", "/")


def _parse_value(raw: str) -> Any:
    if raw in ("yes", "no"):
        return raw == "yes"
    for kind in (int, float):
        try:
            return kind(raw)
        except ValueError:
            continue
    return raw


def _flatten(options: dict[str, Any], prefix: str = "") -> list[tuple[str, Any]]:
    """``{"contrast": {"model": "x"}}`` -> ``[("contrast.model", "x")]``, keys sorted."""
    out: list[tuple[str, Any]] = []
    for key, value in sorted(options.items()):
        if isinstance(value, dict):
            out.extend(_flatten(value, f"{prefix}{key}."))
        else:
            out.append((f"{prefix}{key}", value))
    return out


def _unflatten(into: dict[str, Any], dotted: str, raw: str) -> None:
    head, dot, rest = dotted.partition(".")
    if dot:
        _unflatten(into.setdefault(head, {}), rest, raw)
    else:
        into[head] = _parse_value(raw)


def stable_hash(*parts: Any) -> str:
    """A short, stable hash of JSON-serialisable parts (for cache namespaces)."""
    blob = json.dumps(parts, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True)
class Need:
    """One model or piece of data a stage needs, declared by the stage (:meth:`Declares.needs`):
    ``part`` (``translator``, ``mlm``, ``parser``, ``spacy``, ``wordnet``: what ``sit download
    --only`` names), what it is, whether the run cannot go without it, where it would load from
    (``local``; ``hub``: fetchable from its source, a model hub, a package index or a data index;
    None: nowhere), why, the command that fetches it (``sit download ...``, filled in by
    :mod:`sit.models.downloads`), how it is fetched (``hf``, ``stanza``, ``pip``, ``wordnet``) and what
    (a hub id, a language, pip's arguments)."""

    part: str
    what: str
    required: bool
    where: Optional[str]
    why: str
    fix: str = ""
    fetch: str = ""
    spec: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Need":
        return cls(**d)
