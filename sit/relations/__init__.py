"""Metamorphic relations, looked up by name without importing their dependencies.

- ``sit``: substituting one noun/adjective by a similar word keeps the structure of the translation
  (Structure-Invariant Testing, ICSE 2020).
- ``rti``: a noun phrase is translated the same alone and inside the text that contains it
  (Purity, referential transparency, ICSE 2021).
- ``patinv``: sentences with different meanings do not get the same translation (Pathological
  Invariance, ESEC/FSE 2020).
- production relations (the bugs MT teams file; docs/relations.md): ``numbers``, ``passthrough``,
  ``case``, ``punctuation``, ``length``, ``language``, ``batch``.
- ``cit``: taking an optional constituent out of a sentence (an adjunct, a clause, a noun
  phrase's modifiers) or a pronoun in a subject's place keeps the translation of the rest
  (constituency invariance, CIT; syntactic tree pruning, STP).
- single-translation checks of what MQM annotators mark: ``spelling`` (hunspell dictionaries), ``typography`` (CLDR's
  quotation marks), ``coverage`` (omitted and added content, Apertium's bilingual dictionaries),
  ``concord`` (agreement: spaCy's parse, Apertium's lexicon), ``declension`` (German determiners and nouns:
  Wiktionary's forms, the HanTa tagger).
- the checks of a localisation gate (``sit check``; :mod:`sit.relations.gate`): ``brackets``, ``whitespace``,
  ``repetition``, ``codes``, ``width``, ``consistency``, ``terms``.

``--relation all`` runs every registered relation.
"""

from __future__ import annotations

from typing import Optional

from .. import hints
from ..errors import ConfigError, SitError
from ..registry import Entry, Registry
from .base import Checked, Relation, RelationInfo, RunContext
from .names import UNNAMED


#: the relations a run tests when it names none (``--relation``): those at least 90% of whose top
#: findings on held-out news were real bugs by blind labels and that cost at most a third more
#: translation (issue 27's rule; docs/precision.md and docs/relations.md have the figures);
#: ``spelling`` and ``typography`` translate nothing (blind labels 15/16 and 15/15, issue 45)
DEFAULT_RELATIONS: tuple[str, ...] = ("sit", "numbers", "passthrough", "case", "language", "spelling", "typography")

RELATIONS = Registry(
    "relation",
    {
        "sit": Entry("sit.relations.sit:SitRelation", "",
                     "a similar word keeps the translation's structure (dependency relation counts)"),
        "rti": Entry("sit.relations.rti:RtiRelation", "",
                     "a noun phrase translates the same alone and in its container (referential transparency)"),
        "patinv": Entry("sit.relations.patinv:PatInvRelation", "",
                        "different meanings never share one translation (pathological invariance)"),
        "numbers": Entry("sit.relations.numbers:NumbersRelation", hints.BABEL,
                         "numbers come out, written the target's way; one number changed changes only it"),
        "passthrough": Entry("sit.relations.passthrough:PassthroughRelation", "",
                             "URLs, addresses, handles, emoji, code, placeholders and tags come through verbatim"),
        "case": Entry("sit.relations.case:CaseRelation", "",
                      "ALL CAPS, lower and Title Case translate the same up to case"),
        "punctuation": Entry("sit.relations.punctuation:PunctuationRelation", "",
                             "a final period, curly quotes or a trailing space change only that mark"),
        "length": Entry("sit.relations.length:LengthRelation", "",
                        "no loops, empty or cut-off outputs, no outlying length ratios (every translation)"),
        "language": Entry("sit.relations.language:LanguageRelation", hints.LANGID,
                          "the translation is in the target language, no source words copied"),
        "spelling": Entry("sit.relations.spelling:SpellingRelation", hints.SPYLLS,
                          "every translation's words are in the target language's hunspell dictionary"),
        "typography": Entry("sit.relations.typography:TypographyRelation", "",
                            "every translation's quotation marks (CLDR), spaces and dashes as the target language writes them"),
        "coverage": Entry("sit.relations.coverage:CoverageRelation", hints.APERTIUM,
                          "every translation's content words and the source's cover each other (Apertium's lexicon)"),
        "brackets": Entry("sit.relations.gate:BracketsCheck", "", "brackets and quotation marks paired as in the source"),
        "whitespace": Entry("sit.relations.gate:WhitespaceCheck", "",
                            "leading and trailing whitespace, line breaks and double spaces as in the source"),
        "repetition": Entry("sit.relations.gate:RepetitionCheck", "", "no word written twice back to back"),
        "codes": Entry("sit.relations.gate:CodesCheck", "", "inline codes as many and in the order of the source"),
        "width": Entry("sit.relations.gate:WidthCheck", "", "no translation longer than its maxwidth or --max-width"),
        "consistency": Entry("sit.relations.gate:ConsistencyCheck", "",
                             "a file translates one source one way (sit check)"),
        "terms": Entry("sit.relations.gate:TermsCheck", "", "a glossary's terms and a do-not-translate list kept"),
        "concord": Entry("sit.relations.concord:ConcordRelation", hints.STREAMPARSER,
                         "every Spanish translation's determiners, adjectives and verbs agree with their nouns"),
        "declension": Entry("sit.relations.declension:DeclensionRelation", hints.HANTA,
                           "every German translation's determiners agree with their nouns; no short word doubled"),
        "cit": Entry("sit.relations.cit:CitRelation", "",
                     "taking an optional constituent out keeps the rest's translation (constituency invariance)"),
        "batch": Entry("sit.relations.batch:BatchRelation", "",
                       "a text translates the same whatever its batch neighbours"),
    },
    group="sit.relations",
    base="sit.relations.base:Relation",
)


def create_relation(name: str, ctx: RunContext, options: dict) -> Relation:
    """The relation ``name`` for this run; an option it does not have is a one-line error."""
    from ..options import check_given

    cls = RELATIONS.get(name)
    return RELATIONS.build(name, ctx, **check_given(options, relation_options(cls), f"the {name} relation"))


def relation_options(cls: type) -> dict:
    """Name -> :class:`sit.options.Option` of every option relation class ``cls`` takes."""
    from ..options import option_specs

    return option_specs(cls, frozenset({"ctx"}))


def declared(name: str) -> Optional[type]:
    """The class of relation ``name``, for what it declares (cluster keys, measured precision,
    severity, rank tier), or None where no relation of that name loads here (a run directory read
    without the plugin that made it)."""
    if name not in RELATIONS:
        return None
    try:
        return RELATIONS.get(name)
    except SitError:
        return None


def declared_info(name: str) -> Optional[RelationInfo]:
    """What relation ``name`` declares for its readers (:meth:`Relation.info`), or None where no
    relation of that name loads here."""
    cls = declared(name)
    return cls.info() if cls is not None else None


def alone_checks() -> tuple[str, ...]:
    """The relations that check one translation by itself (:attr:`Relation.alone`), in their
    order: what ``sit check`` runs (sit's, and those of the plugins ``$SIT_PLUGINS`` names, as
    ``--relation all``)."""
    from ..registry import plugins_allowed

    every = RELATIONS.names(plugins=plugins_allowed() is not None)
    found = [(info.alone, name) for name in every if (info := declared_info(name)) and info.alone]
    return tuple(name for _, name in sorted(found))


def default_alone_checks() -> tuple[str, ...]:
    """Of :func:`alone_checks`, those ``sit check`` runs when ``--checks`` names none
    (:attr:`Relation.alone_default`)."""
    return tuple(name for name in alone_checks() if declared_info(name).alone_default)


def parse_relations(value: str | list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """``"sit,rti"`` -> ``("sit", "rti")``: known names, each once, in the order given; ``all``
    stands for sit's relations and those of the plugins ``$SIT_PLUGINS`` names (installing a
    package does not add to what ``all`` runs; a plugin relation named itself runs)."""
    from ..registry import plugins_allowed
    from ..validate import names_list

    names = names_list(value, "--relation")
    if "all" in names:  # every relation all stands for, in the registry's order, once
        every = RELATIONS.names(plugins=plugins_allowed() is not None)
        names = tuple(dict.fromkeys(n for name in names for n in (every if name == "all" else (name,))))
    if not names:
        raise ConfigError(f"--relation needs at least one of: {', '.join(RELATIONS.names())}")
    for name in names:
        RELATIONS.entry(name)  # an unknown name: one line listing the relations
    return names


__all__ = ["DEFAULT_RELATIONS", "RELATIONS", "UNNAMED", "Checked", "Relation", "RelationInfo", "RunContext", "alone_checks", "create_relation", "default_alone_checks", "declared", "declared_info", "parse_relations", "relation_options"]
