"""The summary of a run, said the same way everywhere: at the top of report.txt, report.md and
report.html's first screen, and by ``sit run`` on standard error.

Every number comes from the run's :class:`~sit.records.RunCounts` (``run.json``'s ``counts``),
each defined once in docs/report.md; the groups of findings are titled by their relation
(``relations_told``), so this module names no relation.
"""

from __future__ import annotations

from dataclasses import dataclass
from ..records import RunCounts
from ..runmeta import RunMeta


@dataclass(frozen=True)
class GroupLine:
    """One group of findings in the summary: its name, what it claims, findings, the input
    sentences they are about, and those about no input sentence (``other``: rti phrases)."""

    group: str
    title: str
    findings: int
    sentences: int
    other: int = 0

    def text(self, width: int = 18) -> str:
        where = f"{self.sentences:,} sentence(s)"
        if self.other:
            where += f" and {self.other:,} other text(s)"
        return f"{self.group:<{width}} {self.findings:>6,} finding(s) in {where}: {self.title}"


def plural(n: int, word: str) -> str:
    """``1 sentence``, ``2 sentences`` (thousands separated)."""
    return f"{n:,} {word}" + ("" if n == 1 else "s")


def work_lines(counts: RunCounts) -> list[str]:
    """What the run did: sentences and test cases, then what translating them took."""
    per_relation = ", ".join(f"{name} {c.cases:,}" for name, c in counts.relations.items())
    first = f"{plural(counts.sentences, 'sentence')}, {plural(counts.cases, 'test case')}"
    if per_relation:
        first += f" ({per_relation})"
    if counts.perturbations:
        first += f", from {plural(counts.perturbations, 'perturbation')}"
    second = (f"{plural(counts.translations, 'text')} to translate: {counts.translated:,} by the translator in "
              f"{plural(counts.translator_calls, 'call')}, {counts.cache_hits:,} from the cache")
    if counts.untranslated:
        second += f", {counts.untranslated:,} the translator failed (left untranslated)"
    if counts.empty:
        second += f", {counts.empty:,} it answered with nothing (length.empty)"
    return [first, second]


def findings_line(counts: RunCounts) -> str:
    return (f"{plural(counts.issues, 'finding')} in {plural(counts.flagged_sentences, 'flagged sentence')} "
            "(sentences with any finding)")


def group_lines(meta: RunMeta) -> list[GroupLine]:
    """One line per group of findings, in the run's order."""
    return [GroupLine(g, meta.group_title(g), c.findings, c.sentences, c.other) for g, c in meta.counts.groups.items()]


def summary_text(meta: RunMeta, indent: str = "") -> list[str]:
    """The summary as plain-text lines (report.txt and ``sit run``)."""
    counts = meta.counts
    groups = group_lines(meta)
    width = max([len(g.group) for g in groups] + [4])
    lines = [indent + line for line in work_lines(counts)] + [indent + findings_line(counts)]
    lines += [f"{indent}  {g.text(width)}" for g in groups]
    return lines
