"""The ``Relation`` face: a metamorphic relation builds its test cases, names the source texts it
needs translated, and checks the translations (docs/relations.md).

The pipeline asks every relation of a run for its cases first, translates the texts of all of them
once (de-duplicated, through the cache), then lets each relation check its own cases. What
relations share in a run (the substitution perturber and its pairs, the English parse of the
sources, the target-language parser) lives in :class:`RunContext` and is built at most once.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Optional, Sequence

from ..records import Issue, Pair, RelationCounts
from ..runmeta import FigureTable, RelationTold, plain_figures
from ..stage import Declares


@dataclass
class Checked:
    """What :meth:`Relation.check` found: ranked issues, counts for ``run.json``, and run-level
    figures (such as TEAPOT's summary) under ``extra``."""

    issues: list[Issue]
    counts: RelationCounts  # a mapping of counts is read as one (RelationCounts.from_dict)
    #: run-level figures, written to ``run.json`` under their own keys (sit's ``teapot``)
    extra: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if isinstance(self.counts, Mapping):
            self.counts = RelationCounts.from_dict(dict(self.counts))


@dataclass(frozen=True)
class RelationInfo:
    """What a relation declares for its readers, as evaluate's ``_info()`` does (its checks are the
    relation object's: :meth:`Relation.cases`, :meth:`Relation.check`): the claim of its findings
    (``title``) and of each kind, what the two texts of a case are (``sides``), how bad each kind is
    (``severity``, ``mqm``), what the committed blind labels measured of it (``measured``) and how
    ``sit check`` runs it alone. ``sit list``, the reports, the clusters, the severities and ``sit
    check`` read this record (:meth:`Relation.info`), never the relation's class attributes."""

    name: str
    title: str = ""
    kinds: Mapping[str, str] = field(default_factory=dict)
    kind: str = ""
    sides: tuple[str, str] = ("source", "perturbed")
    measured: Mapping[str, tuple[int, int, str]] = field(default_factory=dict)
    severity: Mapping[str, float] = field(default_factory=dict)
    mqm: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    alone: int = 0
    alone_default: bool = True
    alone_needs: str = "none"
    alone_options: Mapping[str, Any] = field(default_factory=dict)
    first_is_sentence: bool = True

    def measured_of(self, kind: str) -> Optional[tuple[int, int, str]]:
        """(real bugs, findings labelled, label file) of the relation's findings of ``kind`` ("":
        its own), None where no label measured them."""
        return self.measured.get(kind)

    def severity_of(self, kind: str, default: float) -> float:
        """How bad a finding of ``kind`` is: its kind's, else the relation's own, else ``default``."""
        return self.severity.get(kind, self.severity.get("", default))

    def told(self, figures: Sequence[FigureTable] = ()) -> RelationTold:
        """How the reports tell the relation's findings (``run.json``'s ``relations_told``)."""
        return RelationTold(self.title, dict(self.kinds), (str(self.sides[0]), str(self.sides[1])), self.kind,
                            tuple(figures))


@dataclass
class RunContext:
    """What the relations of one run share, each piece built on first use and then kept."""

    cache: Any
    source_lang: str
    target_lang: str
    seed: int = 0
    top_k: int = 3
    threshold: float = 0.0
    progress: bool = False
    make_perturber: Optional[Callable[[], tuple[Any, str]]] = None
    make_parser: Optional[Callable[[], tuple[Any, str, str]]] = None
    #: the run's translator (set by the pipeline), for a relation that must re-translate texts in
    #: chosen company (``Translator.translate_in_batch``); None where a run has none at hand
    translator: Any = None
    _perturber: Any = None
    _parser: Any = None
    _frequencies: Any = None
    _substitutions: dict = field(default_factory=dict)
    _docs: dict = field(default_factory=dict)
    #: target-language trees parsed before the check stage, by translation (see :meth:`parse`)
    early_trees: dict = field(default_factory=dict)
    #: the substitution pairs of the run's sentences (after :meth:`substitutions`, until
    #: :meth:`cases_made`)
    perturbations: list = field(default_factory=list)
    #: how many substitution pairs the perturber made for the run's sentences
    perturbation_count: int = 0
    reasons: dict[str, str] = field(default_factory=dict)
    #: the generator the perturber's seeds are drawn from, one per sentence in order, over every
    #: block of a run checked a block of sentences at a time (:mod:`sit.blocks`); None: a new one
    #: from :attr:`seed` at each :meth:`substitutions` (a run in one block)
    rng: Optional[random.Random] = None
    _origins: Optional[dict] = None
    _make_origins: Optional[Callable[[], dict]] = None

    @property
    def origins(self) -> dict:
        """text -> where it came from (:class:`sit.relations.every.Origin`), for every text of the
        run, so that the single-translation checks see every translation the run made (empty: only
        a relation's own cases); made on first use from what :meth:`origins_from` was given (a run
        whose relations check no text by itself never makes it)."""
        if self._origins is None:
            self._origins = self._make_origins() if self._make_origins is not None else {}
            self._make_origins = None
        return self._origins

    @origins.setter
    def origins(self, value: dict) -> None:
        self._origins, self._make_origins = value, None

    def origins_from(self, make: Callable[[], dict]) -> None:
        """Make :attr:`origins` with ``make()`` when a relation first reads it (the pipeline, once
        every relation has built its cases)."""
        self._origins, self._make_origins = None, make

    def perturber(self):
        """The run's substitution perturber (``--perturber``), built once."""
        if self._perturber is None:
            self._perturber, self.reasons["perturber"] = self.make_perturber()
        return self._perturber

    def parser(self):
        """The target-language dependency parser, built once: (parser, name)."""
        if self._parser is None:
            parser, name, self.reasons["parser"] = self.make_parser()
            self._parser = (parser, name)
        return self._parser

    def frequencies(self):
        """The run's word frequencies (:class:`sit.textcheck.untranslated.Frequencies`, through
        the cache), built once: the untranslated-word rules' Zipf lookup."""
        if self._frequencies is None:
            from ..textcheck.untranslated import Frequencies

            self._frequencies = Frequencies(self.cache)
        return self._frequencies

    @property
    def built_perturber(self):
        """The substitution perturber if a relation of the run has asked for it, else None."""
        return self._perturber

    @property
    def built_parser(self):
        """(parser, name) of the target-language parser if a relation has asked for it, else None."""
        return self._parser

    def parse(self, texts: Sequence[str]) -> list:
        """The target-language trees of ``texts`` (non-empty translations): those the run parsed
        early (:attr:`early_trees`, filled beside the perturber), the others by :meth:`parser`."""
        early = self.early_trees
        todo = [t for t in texts if t not in early]
        parsed = dict(zip(todo, self.parser()[0].parse(todo))) if todo else {}
        known = [t for t in texts if t in early]
        parsed.update(early.many(known) if hasattr(early, "many") else {t: early[t] for t in known})
        return [parsed[t] for t in texts]

    def substitutions(self, ids: Sequence[int], texts: Sequence[str], *,
                      on_texts: Optional[Callable[[list[str]], None]] = None) -> list[Pair]:
        """The perturber's pairs for ``texts`` (computed once per run, shared by relations);
        ``on_texts`` as in :meth:`sit.perturb.base.Perturber.perturb`."""
        key = (tuple(ids), tuple(texts))
        if key not in self._substitutions:
            perturber = self.perturber()
            rng = self.rng if self.rng is not None else random.Random(self.seed)
            pairs = perturber.perturb(list(texts), rng, ids=list(ids), on_texts=on_texts)
            self._substitutions[key] = [p for p in pairs if p.perturbed != p.original]
            self.perturbations = self._substitutions[key]
            self.perturbation_count = len(self.perturbations)
        return self._substitutions[key]

    def cases_made(self) -> None:
        """Let go of the substitution pairs once every relation has made its cases (each relation
        holds its own; :attr:`perturbation_count` stays)."""
        self._substitutions.clear()
        self.perturbations = []

    def release(self) -> None:
        """Let go of what the relations shared while they built and checked their cases (the
        substitution pairs, the English docs, the texts' origins, the early trees), once the run
        has written them: the reports read the run directory."""
        self._substitutions.clear()
        self._docs.clear()
        self.perturbations = []
        self.origins = {}
        self.early_trees = {}

    def english(self, texts: Sequence[str], *, keep: bool = True) -> list:
        """spaCy docs of the English sources (tagged, parsed, named entities), parsed once; with
        ``keep`` False, those the run does not hold yet are parsed for this call only, not kept
        (a relation that reads them once, a window at a time)."""
        todo = [t for t in dict.fromkeys(texts) if t not in self._docs]
        new: dict = {}
        if todo:
            from ..perturb.substitution import Tagger

            tagger = getattr(self._perturber, "tagger", None) or Tagger()
            new = dict(zip(todo, tagger.tag(todo, entities=True)))
            if keep:
                self._docs.update(new)
        return [self._docs[t] if t in self._docs else new[t] for t in texts]


class Relation(Declares):
    """One metamorphic relation. Subclasses set ``name``, declare how their findings are told
    (``title``, ``kinds``, ``sides``) and implement :meth:`cases` and :meth:`check`; the conductor
    and the reports read only these declarations, never a relation's name."""

    name = "base"
    #: what a finding of this relation claims (the report's section title)
    title = ""
    #: the claim of each secondary kind of finding (``Issue.kind`` -> title), such as sit's
    #: ``untranslated``
    kinds: Mapping[str, str] = {}
    #: whether :meth:`check` is given the translator's empty answers as they are (``""``: the
    #: length relation's ``empty`` findings); to the others such a text is untranslated (None)
    sees_empty = False
    #: the name of the relation's own finding (``Issue.kind`` ""), written as ``kind`` in
    #: issues.jsonl so that every finding names its kind (sit's ``structure``)
    kind = ""
    #: what the two source texts of a case are, as the reports name them
    sides: tuple[str, str] = ("source", "perturbed")
    #: the options the relation takes (:class:`sit.options.Option`: typed, with their rule and
    #: help); one declared ``run_wide`` is a setting of the whole run (``sit run --set NAME=VALUE``,
    #: sit's ``--distance``). A keyword of the constructor that none declares is taken, typed by
    #: its default (the relations of old)
    option_specs: tuple = ()
    #: the relations of old: fields of the run's configuration passed as options of the same name
    #: (a run-wide :class:`~sit.options.Option` says it now)
    run_options: tuple[str, ...] = ()
    #: what of the run's shared models the relation uses (``perturber``: the substitution
    #: perturber; ``parser``: the target-language parser), so that ``sit download`` fetches them
    uses: frozenset = frozenset()
    #: whether both texts of every substitution pair of the run are among this relation's
    #: sources: then the pipeline translates them as the perturber finishes each batch
    translates_substitutions = False
    #: what the committed blind labels measured of the relation's findings, by kind ("": its own
    #: finding): kind -> (real bugs, findings labelled, the label file under docs/labels/); ranks
    #: the clusters of a run (:mod:`sit.report.clusters`; tests/test_clusters.py recomputes it)
    measured: Mapping[str, tuple[int, int, str]] = {}
    #: how bad a finding is, 1 (cosmetic) to 3 (meaning or data lost), by kind; "" is the
    #: relation's own finding and every kind not named (none: the clusters' default)
    severity: Mapping[str, float] = {}
    #: where the relation stands among ``sit check``'s checks of one translation by itself (1
    #: first); 0: it needs test cases, so ``sit check`` does not run it
    alone: int = 0
    #: whether ``sit check`` runs it when ``--checks`` is not given (False: only where named, as for
    #: checks that do not read a program's messages yet: docs/check.md)
    alone_default: bool = True
    #: what language data the relation needs to check a translation alone (``sit check --help``
    #: and docs/check.md say it)
    alone_needs: str = "none"
    #: the options ``sit check`` gives the relation unless ``--relation-option`` says otherwise (a
    #: program's messages: ``software``; docs/check.md)
    alone_options: Mapping[str, Any] = {}
    #: a finding's severity (minor, major, critical) and MQM category by kind ("" the relation's own
    #: and every kind not named); none: :data:`sit.severity.DEFAULT` (docs/check.md)
    mqm: Mapping[str, tuple[str, str]] = {}
    #: whether the relation's cases and findings of a sentence depend on that sentence alone (its
    #: own cases, ranked per sentence), so that a long run may check a block of sentences at a
    #: time (:mod:`sit.blocks`): :meth:`check` is then called once per block, its counts are added
    #: up, and its run-level figures are those its last call gives (a relation that has any keeps
    #: what they need over the calls). A run with any other relation is checked in one block
    blockwise = False
    #: whether the first text of each case is the run's sentence it was made from (rti's is a
    #: text that contains its phrase: several cases of one source differ there)
    first_is_sentence = True

    def __init__(self, ctx: RunContext, **options: Any):
        self.ctx = ctx

    @classmethod
    def info(cls) -> RelationInfo:
        """What the relation declares for its readers (:class:`RelationInfo`): :meth:`_info`'s."""
        return cls._info()

    @classmethod
    def _info(cls) -> RelationInfo:
        """The relation's declarations as one record; by default its class attributes (``title``,
        ``kinds``, ``measured``, ...). Override it to declare them another way."""
        return RelationInfo(cls.name, cls.title, dict(cls.kinds), cls.kind, (cls.sides[0], cls.sides[1]),
                            dict(cls.measured), dict(cls.severity), dict(cls.mqm), cls.alone, cls.alone_default,
                            cls.alone_needs, dict(cls.alone_options), cls.first_is_sentence)

    @classmethod
    def telling(cls, extra: Optional[Mapping[str, Any]] = None) -> RelationTold:
        """How the reports tell this relation's findings (``run.json``'s ``relations_told``, so
        that a report needs no relation's code): its declarations' (:meth:`info`: title, kinds'
        titles, sides, own kind's name) and its run-level figures ``extra`` (:attr:`Checked.extra`)
        as titled rows (:meth:`figures`)."""
        return cls.info().told(cls.figures(extra or {}))

    @classmethod
    def figures(cls, extra: Mapping[str, Any]) -> list[FigureTable]:
        """The relation's run-level figures (what :meth:`check` put in :attr:`Checked.extra`) as
        titled rows, which every report format renders as they are; by default one table per key,
        a row per value (:func:`sit.runmeta.plain_figures`). Override it to title and format them."""
        return plain_figures(extra)

    @classmethod
    def mqm_of(cls, issue: Issue) -> Optional[tuple[str, str]]:
        """(severity, MQM category) of ``issue`` as the relation declares it (:attr:`mqm`), None
        where it declares none."""
        mqm = cls.info().mqm
        return mqm.get(issue.kind) or mqm.get("")

    @classmethod
    def without_counts(cls, issue: Issue, one_alone: bool = True) -> Optional[Issue]:
        """``issue`` on a plural message's singular form, less what it may leave out there (the
        count: "ein Byte" for "%lu byte", where ``one_alone``: the target's plural category "one"
        holds the number 1 alone) or add (the count: "%d файл" for "one file", in any language);
        None where nothing is left. By default the finding as it is."""
        return issue

    @classmethod
    def without_file_terms(cls, issue: Issue, kept: frozenset) -> Optional[Issue]:
        """``issue`` on a file's message, less what the file's translated messages keep as their
        sources write them (``kept``, case-folded words: :func:`sit.textcheck.targetword.kept_terms`);
        None where nothing is left. By default the finding as it is."""
        return issue

    @classmethod
    def usable(cls, source_lang: str, target_lang: str) -> str:
        """Why the relation cannot check these languages (``sit check`` leaves it out with this
        warning), or "" where it can."""
        return ""

    @classmethod
    def tier(cls, issue: Issue) -> int:
        """The tier of ``issue`` in its group's ranking: a finding of tier 0 never outranks one of
        tier 1 (:func:`sit.relations.rank.rank_issues`); 1 for all by default."""
        return 1

    @classmethod
    def cluster_keys(cls, issue: Issue, stops: frozenset[str]) -> Optional[tuple[list[tuple[str, ...]], tuple[str, ...]]]:
        """What bug ``issue`` shows, as keys of a cluster (:mod:`sit.report.clusters`): (the keys
        it may join, most specific first; the key it takes when none of them is shared). A key
        that stands for one bug whichever relation saw it is shared: ``("word", word_key(w))``
        for word ``w`` left untranslated. ``stops``: the target language's function words. None:
        the finding clusters with the others of its group."""
        return None

    @classmethod
    def cluster_title(cls, key: Sequence[str], issues: Sequence[Issue]) -> str:
        """What the bug of a cluster keyed ``key`` (one of :meth:`cluster_keys`'s) is, in words,
        or "" where the key is not the relation's to title."""
        return ""

    def signature(self) -> dict[str, Any]:
        """Every option that changes this relation's findings (written to the run signature)."""
        return {}

    def describe(self) -> str:
        return self.name

    def cases(self, ids: Sequence[int], texts: Sequence[str]) -> list[Pair]:
        """The relation's test cases for the source sentences ``texts`` (numbered ``ids``)."""
        raise NotImplementedError

    def forget(self) -> None:
        """Let go of what the relation kept of the block of sentences it has checked (a
        :attr:`blockwise` relation, once the block is written); nothing by default."""

    def sources(self, cases: Sequence[Pair]) -> list[str]:
        """Every source text the check needs translated (the pipeline adds the sentences)."""
        return [t for p in cases for t in (p.original, p.perturbed)]

    def probes(self, cases: Sequence[Pair]) -> list[str]:
        """Texts the check reads translated that are no texts of the run (``sit``'s phrases alone):
        translated with the others, listed in ``translations.jsonl`` (role ``probe``), and
        shown to no other relation's check, so that the single-translation checks never judge
        them."""
        return []

    def check(self, cases: Sequence[Pair], translation: Mapping[str, Optional[str]]) -> Checked:
        raise NotImplementedError

    @staticmethod
    def translated(cases: Sequence[Pair], translation: Mapping[str, Optional[str]]) -> list[tuple[Pair, str, str]]:
        """``(case, translation of its first text, of its second)`` for the cases whose two texts
        were both translated (a text the translator left untranslated makes no comparison)."""
        return [(p, y, y2) for p in cases
                if (y := translation.get(p.original)) is not None and (y2 := translation.get(p.perturbed)) is not None]

    def checked(self, found: Sequence[Issue], *, cases: int, compared: int, kinds: Sequence[str] = (),
                **extra: int) -> Checked:
        """``found`` ranked by the run's threshold and top-k (:func:`sit.relations.rank.rank_issues`), with the
        counts every relation reports: ``cases``, ``compared``, ``issues``, ``flagged_sentences``
        (distinct run sentences), ``<kind>_issues`` for each of ``kinds``, then ``extra``."""
        from .rank import rank_issues

        issues = rank_issues(found, threshold=self.ctx.threshold, top_k=self.ctx.top_k, tier=self.tier)
        counts = RelationCounts(cases, compared, len(issues), len({i.pair.source_id for i in issues if i.pair.source_id >= 0}),
                                {**{f"{k}_issues": sum(1 for i in issues if i.kind == k) for k in kinds}, **extra})
        return Checked(issues, counts)
