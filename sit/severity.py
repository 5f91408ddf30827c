"""Severity and MQM category of a finding (issue 48): every finding is ``minor``, ``major`` or
``critical`` and names the MQM category it falls in, as a localisation gate (Lokalise, Phrase,
Xbench) gives each check a severity and blocks on the highest. Each relation declares its own
(:attr:`sit.relations.base.Relation.mqm`); ``--fail-on major`` counts the findings of that
severity or worse; docs/check.md has the table and which findings block.
"""

from __future__ import annotations

from dataclasses import dataclass

from .records import Issue

#: the severities, least first
SEVERITIES = ("minor", "major", "critical")


@dataclass(frozen=True)
class Severity:
    """A finding's severity and its MQM category (``Accuracy/Untranslated``, ``Locale convention``)."""

    level: str
    category: str

    def at_least(self, level: str) -> bool:
        return SEVERITIES.index(self.level) >= SEVERITIES.index(level)


#: a finding whose relation declares no severity (a plugin's, or a ``sit run`` relation's own)
DEFAULT = ("major", "Accuracy/Mistranslation")


def severity_of(issue: Issue) -> Severity:
    """The severity and MQM category of ``issue``, as its relation declares them
    (:meth:`sit.relations.base.Relation.mqm_of`), else :data:`DEFAULT`."""
    from .relations import RELATIONS

    declared = RELATIONS.get(issue.relation).mqm_of(issue) if issue.relation in RELATIONS else None
    level, category = declared if declared and declared[0] in SEVERITIES else DEFAULT  # a plugin's own word: the default
    return Severity(level, str(category))


__all__ = ["DEFAULT", "SEVERITIES", "Severity", "severity_of"]
