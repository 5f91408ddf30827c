"""The plain-text report (``report.txt``): per flagged source sentence, its id, source and
translation, then each issue's distance, perturbed source and translation, the relation counts
that differ and how the two translations differ on the surface (``evidence.surface``)."""

from __future__ import annotations

from typing import Iterator

from ..rundir import RunData, read_at
from ..runmeta import RunMeta
from .model import count_rows, format_relations, relation_changes, short_signature
from .summary import summary_text


#: lines of the clusters' list made into one piece of report.txt at a time
LINES_AT_ONCE = 800


def _sentence(meta: RunMeta, source_id: int, issues: list) -> list[str]:
    first = issues[0]
    a, b = meta.sides(first.relation)
    lines = [f"[{source_id}] {a + ':':12} {first.pair.original}", f"     translation: {first.original_translation}"]
    for issue in issues:
        edit = issue.pair.edit
        scores = "".join(f", {k} {v:.3f}" for k, v in sorted(issue.scores.items()))  # 0-1, as the header
        change = f"{edit.before} -> {edit.after or '(removed)'}" if edit.level != "phrase" else "phrase alone"
        lines.append(f"  #{issue.rank} distance {issue.distance:g} ({change}{scores})")
        lines.append(f"     {b + ':':12} {issue.pair.perturbed}")
        lines.append(f"     translation: {issue.perturbed_translation}")
        if issue.relation_diff:
            lines.append(f"     relations:   {format_relations(relation_changes(issue.relation_diff))}")
        if issue.evidence.get("surface"):
            lines.append(f"     differs:     {'; '.join(issue.evidence['surface'])}")
        if issue.evidence.get("missing"):
            lines.append(f"     not in the container's translation: {', '.join(issue.evidence['missing'])}")
    lines.append("-" * 80)
    return lines


def render_text(run: RunData) -> str:
    """report.txt: the summary first, then the run's details, then each group's findings."""
    return "".join(text_parts(run))


def text_parts(run: RunData) -> Iterator[str]:
    """:func:`render_text` in pieces (each flagged sentence a piece, its findings read from the
    run's findings as it is reached), so report.txt is written without the report or its
    findings held whole."""
    from .model import findings_of

    meta = run.meta
    counts = meta.counts
    lines = ["sit: metamorphic testing report", "", "summary:"]
    lines += summary_text(meta, indent="  ")
    lines += ["", f"signature: {short_signature(meta.signature)}", f"signature (full): {meta.signature_line}"]
    if meta.perturber_reason:
        lines.append(f"perturber: {meta.perturber_reason}")
    lines.append("counts: " + ", ".join(f"{name} {value:,}" for name, value in count_rows(counts)
                                        if isinstance(value, int)))
    for table in meta.figure_tables():  # each relation's run-level figures, as it titled them
        lines.append(f"{table.title} ({table.note}):" if table.note else f"{table.title}:")
        lines += [f"  {row.title}: {row.value}" for row in table.rows]
    for warning in meta.warnings:
        lines.append(f"warning: {warning}")
    findings = findings_of(run)
    if len(findings):
        from .clustermarks import load_marks
        from .clusters import cluster_lines, cluster_table

        lines.append("")
        for line in cluster_lines(cluster_table(run).marked(load_marks(run.path))):  # read as listed
            lines.append(line)
            if len(lines) >= LINES_AT_ONCE:
                yield "".join(line + "\n" for line in lines)
                lines = []
    words = findings.words
    for group, found in findings.groups.items():
        lines.append("=" * 80)
        lines.append(f"{group}: {meta.group_title(group)} ({len(found)} finding(s))")
        lines.append("=" * 80)
        lines += _words([w for w in words if w["group"] == group])
        for source_id, at in found.sentences():
            lines.extend(_sentence(meta, source_id, list(read_at(run.issues, at))))
            yield "".join(line + "\n" for line in lines)
            lines = []
    if not len(findings):
        lines.append("no findings")
    yield "".join(line + "\n" for line in lines)


def _words(rows: list[dict]) -> list[str]:
    """The words a group's findings name, one line each: count, word, side, sentences."""
    if not rows:
        return []
    out = ["by word (findings, word, which word, source sentences):"]
    for r in rows:
        out.append(f"  {r['count']:>4}  {r['word']:<20} {r['side']:<14} {', '.join(map(str, r['sources']))}")
    return out + ["-" * 80]
