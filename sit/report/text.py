"""The plain-text report (``report.txt``): per flagged source sentence, its id, source and
translation, then each issue's distance, perturbed source and translation, the relation counts
that differ and how the two translations differ on the surface (``evidence.surface``)."""

from __future__ import annotations

from ..rundir import RunData
from .model import format_relations, group_title, group_issues, relation_changes, relation_sides


def _sentence(meta: dict, source_id: int, issues: list) -> list[str]:
    first = issues[0]
    a, b = relation_sides(meta, first.relation)
    lines = [f"[{source_id}] {a + ':':12} {first.pair.original}", f"     translation: {first.original_translation}"]
    for issue in issues:
        edit = issue.pair.edit
        scores = "".join(f", {k} {v:.3f}" for k, v in sorted(issue.scores.items()))
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
    meta = run.meta
    counts = meta.get("counts", {})
    lines = [
        "sit: metamorphic testing report",
        f"signature: {meta.get('signature_line', '')}",
    ]
    if meta.get("perturber_reason"):
        lines.append(f"perturber: {meta['perturber_reason']}")
    lines.append(
        "counts: "
        + ", ".join(
            f"{k.replace('_', ' ')} {counts[k]}"
            for k in ("sentences", "perturbations", "translations", "translator_calls", "cache_hits",
                      "untranslated", "flagged_sentences", "issues")
            if k in counts
        )
    )
    teapot = meta.get("teapot") or {}
    if teapot.get("success_rate") is not None:
        lines.append(
            f"teapot (reference-less, chrF): success {100 * teapot['success_rate']:.2f} % of "
            f"{teapot.get('n', '?')} perturbations ({teapot.get('criterion', 's_src / s_tgt > 1')})"
        )
        for side in ("s_src", "s_tgt"):
            st = teapot.get(side)
            if st:
                lines.append(
                    f"  {side}: mean {100 * st['mean']:.3f}  std {100 * st['std']:.3f}  "
                    f"5%-95% {100 * st['p5']:.3f}-{100 * st['p95']:.3f}"
                )
    for warning in meta.get("warnings", []):
        lines.append(f"warning: {warning}")
    groups: dict[str, list] = {}
    for issue in run.issues:
        groups.setdefault(issue.group, []).append(issue)
    for group, members in groups.items():
        lines.append("=" * 80)
        lines.append(f"{group}: {group_title(meta, group)} ({len(members)} issue(s))")
        lines.append("=" * 80)
        for source_id, issues in group_issues(members):
            lines.extend(_sentence(meta, source_id, issues))
    if not run.issues:
        lines.append("no issues: every perturbation kept the structure of its translation")
    return "\n".join(lines) + "\n"
