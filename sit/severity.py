"""Severity and MQM category of a finding (issue 48): every finding is ``minor``, ``major`` or
``critical`` and names the MQM category it falls in, as a localisation gate (Lokalise, Phrase,
Xbench) gives each check a severity and blocks on the highest. ``--fail-on major`` counts the
findings of that severity or worse; docs/check.md has the table and which findings block.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

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


#: group -> (severity, MQM category); a relation's own group (``sit``) and any group not here:
#: DEFAULT (a metamorphic relation's finding: the translation changed where it should not)
GROUPS: dict[str, tuple[str, str]] = {
    "passthrough.missing": ("major", "Accuracy/Omission"),
    "passthrough.changed": ("critical", "Accuracy/Mistranslation"),
    "passthrough.localised": ("minor", "Locale convention"),
    "passthrough.context": ("minor", "Accuracy/Mistranslation"),
    "numbers.missing": ("major", "Accuracy/Mistranslation"),
    "numbers.currency": ("major", "Accuracy/Mistranslation"),
    "numbers.format": ("minor", "Locale convention/Number format"),
    "numbers.grouping": ("minor", "Locale convention/Number format"),
    "numbers.date": ("minor", "Locale convention/Date format"),
    "numbers.conversion": ("minor", "Locale convention/Measurement format"),
    "numbers.unit": ("minor", "Locale convention/Measurement format"),
    "language.untranslated": ("major", "Accuracy/Untranslated"),
    "language.wrong_language": ("critical", "Accuracy/Untranslated"),
    "language.copied": ("minor", "Accuracy/Untranslated"),
    "length.empty": ("critical", "Accuracy/Omission"),
    "length.cut": ("major", "Accuracy/Omission"),
    "length.loop": ("major", "Accuracy/Addition"),
    "length.ratio": ("minor", "Accuracy/Omission"),
    "punctuation.final": ("minor", "Fluency/Punctuation"),
}
DEFAULT = ("major", "Accuracy/Mistranslation")
#: the kinds of lost token that break a program: a format specifier it fills in
_CRASHING = frozenset({"placeholder", "icu"})


def severity_of(issue: Issue) -> Severity:
    """The severity and category of ``issue``: its group's (:data:`GROUPS`), a lost format
    specifier ``critical`` (the program fills it in: a crash or a wrong value)."""
    level, category = GROUPS.get(issue.group, DEFAULT)
    tokens = issue.evidence.get("tokens") if issue.group == "passthrough.missing" else None
    if tokens and any(isinstance(t, dict) and t.get("type") in _CRASHING for t in tokens):
        level = "critical"
    return Severity(level, category)


def severity_name(value: str) -> Optional[str]:
    """``value`` if it names a severity, else None."""
    return value if value in SEVERITIES else None


__all__ = ["DEFAULT", "GROUPS", "SEVERITIES", "Severity", "severity_name", "severity_of"]
