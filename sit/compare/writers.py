"""Renderings of a :class:`~sit.compare.model.Comparison`: text, markdown (to paste into a pull
request), html (:mod:`sit.compare.html`), jsonl (one record per test case) and JUnit XML (one
testcase per test case; ``new`` ones fail), written with junitparser. Each format is a writer of
the registry in :mod:`sit.formats`, which the report formats share; :func:`render` looks it up."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Iterable, Optional

from ..report.budget import MAX_CHARS, Budget, fit
from ..report.markdown import md_escape
from ..report.model import SIGNATURE_FIELDS
from ..rundir import write_text_atomic
from .model import STATUS_TITLES, STATUSES, ComparedCase, Comparison
from ..text import printable

#: where every case is, said where the markdown was cut to fit
FULL_COMPARISON = "`sit compare BASE NEW -f text` (or `-f html`) lists every case"
#: cases listed per status in the markdown (a pull-request comment holds 65,536 characters)
MARKDOWN_LISTED = 25
#: the statuses whose cases the text and markdown list (unchanged cases are only counted)
LISTED = ("new", "fixed", "persisting", "changed")
#: the statuses whose cases the markdown lists: what the pull request changed (persisting ones are counted)
MARKDOWN_STATUSES = ("new", "fixed", "changed")


def render(comparison: Comparison, fmt: str, max_chars: Optional[int] = MAX_CHARS) -> str:
    """``comparison`` as ``fmt`` (a format of the writer registry, :mod:`sit.formats`: text,
    markdown, html, jsonl, junit or a plugin's); markdown within ``max_chars``."""
    from ..writers import writer

    return writer(fmt, "comparison").comparison(comparison, max_chars)


def write_comparison(comparison: Comparison, folder: str | os.PathLike,
                     formats: Iterable[str] = ("text", "html")) -> dict[str, Path]:
    """Write ``formats`` into ``folder`` (``compare.txt``, ``compare.html``...: each writer's
    ``compare_file``); format -> path."""
    from ..writers import writer

    written = {}
    for fmt in formats:
        text = render(comparison, fmt)
        written[fmt] = Path(folder) / writer(fmt, "comparison").compare_file
        write_text_atomic(written[fmt], text)
    return written


# --------------------------------------------------------------------------- shared pieces

def signature_rows(comparison: Comparison) -> list[tuple[str, str, str, bool]]:
    """(field, BASE's value, NEW's value, whether they differ) for the signature fields, the
    translator's and perturber's options, relations and versions: the two runs side by side."""
    a, b = comparison.base.signature, comparison.new.signature
    rows = [(label, _value(a.get(key)), _value(b.get(key))) for key, label in SIGNATURE_FIELDS]
    rows += [(f"{part} options", _value(a.get(f"{part}_options")), _value(b.get(f"{part}_options")))
             for part in ("translator", "perturber")]
    rows += [("relations", _value(a.get("relations")), _value(b.get("relations")))]
    va, vb = a.get("versions", {}), b.get("versions", {})
    rows += [(f"version {k}", str(va.get(k, "-")), str(vb.get(k, "-"))) for k in sorted(set(va) | set(vb))]
    return [(label, x, y, x != y) for label, x, y in rows]


def _value(v: Any) -> str:
    if isinstance(v, dict):
        return json.dumps(v, sort_keys=True, ensure_ascii=False) if v else "-"
    return "-" if v is None else str(v)


def sides(case: ComparedCase) -> tuple[str, str]:
    """What the two texts of a case are (source/perturbed, container/phrase, source/changed)."""
    return case.sides


def change(case: ComparedCase) -> str:
    """The case's edit in a few words (``bill -> law``, ``phrase alone``)."""
    if case.edit.get("level") == "phrase":
        return "phrase alone"
    before, after = case.edit.get("before", ""), case.edit.get("after", "")
    return f"{before} -> {after or '(removed)'}"


def ordered(cases: list[ComparedCase]) -> list[ComparedCase]:
    """Cases in the order reports list them: the translations that moved most first, then by sentence."""
    return sorted(cases, key=lambda c: (c.min_s_tgt if c.min_s_tgt is not None else 2.0, c.source_id, c.group))


def listed_cases(comparison: Comparison) -> list[tuple[str, list[ComparedCase]]]:
    """The statuses the text and markdown list (:data:`LISTED`) that have cases, each with its
    cases in report order."""
    return [(status, cases) for status in LISTED if (cases := ordered(comparison.by_status(status)))]


def s_tgt_text(case: ComparedCase) -> str:
    """The case's s_tgt in BASE and NEW (``s_tgt 0.912 / 0.875``)."""
    return f"s_tgt {score_text(case.s_tgt[0])} / {score_text(case.s_tgt[1])}"


def translation_rows(case: ComparedCase) -> list[tuple[str, str, str]]:
    """``(side, which, translation)`` per side of a case: once (``which`` "both") where BASE and
    NEW translated it alike, else BASE's and NEW's."""
    rows = []
    for n, side in enumerate(sides(case)):
        old, new = case.base_translations[n], case.new_translations[n]
        rows += [(side, "both", old)] if old == new else [(side, "BASE", old), (side, "NEW", new)]
    return rows


def summary_line(comparison: Comparison) -> str:
    counts = comparison.status_counts()
    return (", ".join(f"{counts[s]} {s}" for s in STATUSES) +
            f" ({len(comparison.cases)} test case record(s) over {comparison.base.sentences} sentence(s))")


def judge_lines(comparison: Comparison) -> list[str]:
    """What the judge said (``sit compare --judge``), and how many persisting findings changed
    translation; nothing where neither applies."""
    counts, name = comparison.judge_counts(), comparison.options.get("judge")
    lines = []
    if name:
        lines.append(f"judge {name}: {counts['worse']} test case(s) worse in NEW, {counts['better']} better, "
                     f"{counts['tie']} tie(s), of those whose translations changed")
    if counts["changed_persisting"]:
        lines.append(f"{counts['changed_persisting']} persisting finding(s) with changed translations "
                     "(marked [translation changed])")
    return lines


def case_marks(case: ComparedCase) -> str:
    """`` [translation changed]`` on a persisting finding whose translations differ, and the judge's
    verdict (`` [judge: worse]``) where it gave one."""
    marks = " [translation changed]" if case.changed_persisting else ""
    return marks + (f" [judge: {case.judged}]" if case.judged else "")


def format_interval(iv: tuple[float, float], signed: bool = False) -> str:
    f = "{:+g}" if signed else "{:g}"
    return f"[{f.format(iv[0])}, {f.format(iv[1])}]"


def score_text(v: Optional[float]) -> str:
    return "-" if v is None else f"{v:.3f}"


# --------------------------------------------------------------------------- text

def render_text(comparison: Comparison) -> str:
    c = comparison
    lines = ["sit compare", f"BASE: {c.base.path}", f"NEW:  {c.new.path}", "", "signature:"]
    width = max(len(r[0]) for r in signature_rows(c))
    for label, a, b, differs in signature_rows(c):
        lines.append(f"  {label:<{width}}  {a}" + (f"  ->  {b}" if differs else "  (same)"))
    lines += ["", f"test cases: {summary_line(c)}"] + judge_lines(c) + [""]
    table = c.table()
    if table:
        lines.append(f"  {'group':<18}" + "".join(f"{s:>12}" for s in STATUSES))
        lines += [f"  {g:<18}" + "".join(f"{row[s]:>12}" for s in STATUSES) for g, row in table.items()]
        lines.append("")
    lines += _aggregates_text(c)
    lines += cluster_lines(c)
    lines += [f"warning: {w}" for w in c.warnings]
    for status, cases in listed_cases(c):
        lines += ["", f"== {status.upper()} ({len(cases)}): {STATUS_TITLES[status]}", ""]
        for case in cases:
            lines += _case_text(case)
    return "\n".join(lines).rstrip("\n") + "\n"


def cluster_lines(c: Comparison, listed: int = 15) -> list[str]:
    """The root causes matched across the runs (:meth:`Comparison.cluster_counts`), the new and
    fixed ones listed first (at most ``listed`` of each status)."""
    if not c.clusters:
        return []
    counts = c.cluster_counts()
    lines = [f"bugs by root cause: {counts['new']} new, {counts['fixed']} fixed, {counts['persisting']} persisting"]
    for status in ("new", "fixed", "persisting"):
        chosen = [k for k in c.clusters if k.status == status]
        for k in chosen[:listed]:
            mark = f" [marked {k.label}]" if k.label else ""
            lines.append(f"  {status:<10} {k.base_findings:>4} -> {k.new_findings:<4} {k.title}{mark} ({k.cluster_id})")
        if len(chosen) > listed:
            lines.append(f"  {status:<10} ... {len(chosen) - listed} more")
    return lines + [""]


def _aggregates_text(c: Comparison) -> list[str]:
    lines = []
    if c.counts_by_group:
        lines.append("findings per group (95% bootstrap interval over sentences):")
        for g in c.counts_by_group:
            lines.append(f"  {g.group:<18} BASE {g.base} {format_interval(g.base_interval)}  NEW {g.new} "
                         f"{format_interval(g.new_interval)}  NEW-BASE {g.delta:+d} {format_interval(g.delta_interval, True)}")
        lines.append("")
    if c.scores:
        lines.append(f"corpus scores against {c.options.get('references')} (sacrebleu paired bootstrap resampling):")
        for s in c.scores:
            lines.append(f"  {s.metric:<6} BASE {s.base:.2f} ({s.base_mean:.2f} ± {s.base_ci:.2f})  NEW {s.new:.2f} "
                         f"({s.new_mean:.2f} ± {s.new_ci:.2f})  delta {s.delta:+.2f}  p = {s.p_value:.4f}  "
                         f"[{s.signature}]")
        lines.append("")
    return lines


_TEXT_WHICH = {"both": "(both):", "BASE": "BASE:", "NEW": "NEW: "}
_MD_WHICH = {"both": " (both):", "BASE": ", BASE:", "NEW": ", NEW:"}


def _case_text(case: ComparedCase) -> list[str]:
    a, b = sides(case)
    lines = [f"[{case.source_id}] {case.group} ({change(case)}), {s_tgt_text(case)}{case_marks(case)}",
             f"     {a + ':':11} {case.key.source}", f"     {b + ':':11} {case.key.case}"]
    lines += [f"     {side} translation {_TEXT_WHICH[which]} {text}" for side, which, text in translation_rows(case)]
    for name, issue in (("BASE", case.base), ("NEW", case.new)):
        if issue is not None:
            lines.append(f"     finding in {name}: distance {issue.distance:g}" +
                         (f"; {'; '.join(issue.evidence['surface'])}" if issue.evidence.get("surface") else ""))
    lines.append("")
    return lines


# --------------------------------------------------------------------------- markdown

def render_markdown(comparison: Comparison, listed: int = MARKDOWN_LISTED, max_chars: Optional[int] = MAX_CHARS) -> str:
    """Markdown for a pull-request comment: the verdict, the table per group and status, the
    aggregates, the signature fields that differ (none: one line saying so) and up to ``listed``
    cases per status in collapsed ``<details>``, as many as fit in ``max_chars``
    (:mod:`sit.report.budget`). Only what the pull request changed is listed (new, fixed and
    changed cases); the persisting findings, in both runs, are counted with where to see them."""
    c = comparison
    counts = c.status_counts()
    verdict = "regressions" if counts["new"] else "no new findings"
    lines = [f"## sit compare: {counts['new']} new, {counts['fixed']} fixed ({verdict})", "",
             f"{md_escape(summary_line(c))}", ""] + [md_escape(line) + "\n" for line in judge_lines(c)]
    lines += _tables_md(c, listed)
    lines += [""] + [f"> **warning:** {md_escape(w)}" + "\n" for w in c.warnings]
    lines += _signatures_md(c)
    budget = Budget(max_chars)
    budget.fixed(lines)
    for status, cases in listed_cases(c):
        if status not in MARKDOWN_STATUSES:
            continue
        lines += budget.fixed(["", f"<details{' open' if status == 'new' else ''}><summary><b>{status}</b> "
                               f"({len(cases)}): {STATUS_TITLES[status]}</summary>", ""])
        for case in cases[:listed]:
            lines += budget.item(_case_md(case))
        if len(cases) > listed:
            lines += budget.fixed([f"… and {len(cases) - listed} more (`sit compare -f text` lists them all).", ""])
        lines.append("</details>")
    if counts["persisting"]:
        lines += budget.fixed(["", f"{counts['persisting']} persisting finding(s), in both runs, are not listed here: "
                               "`sit compare BASE NEW -f text` (or `-f html`) lists them."])
    lines += budget.note("case(s)", FULL_COMPARISON)
    return fit("\n".join(lines).rstrip("\n") + "\n", max_chars, FULL_COMPARISON)


def _tables_md(c: Comparison, listed: int) -> list[str]:
    """The tables of the markdown: statuses per group, root causes, findings per group, scores."""
    lines = ["| group | " + " | ".join(STATUSES) + " |", "| --- |" + " ---: |" * len(STATUSES)]
    lines += ["| " + md_escape(g) + " | " + " | ".join(str(row[s]) for s in STATUSES) + " |" for g, row in c.table().items()]
    if c.clusters:
        lines += ["", "| root cause (bug) | status | BASE | NEW | mark |", "| --- | --- | ---: | ---: | --- |"]
        lines += [f"| {md_escape(k.title)} | {k.status} | {k.base_findings} | {k.new_findings} | {md_escape(k.label or '')} |"
                  for k in [k for k in c.clusters if k.status != "persisting"][:listed]]
        n = c.cluster_counts()
        lines.append(f"| {n['persisting']} persisting root cause(s) | persisting | | | |")
    if c.counts_by_group:
        lines += ["", "| findings | BASE | NEW | NEW − BASE (95% bootstrap over sentences) |", "| --- | ---: | ---: | ---: |"]
        lines += [f"| {md_escape(g.group)} | {g.base} | {g.new} | {g.delta:+d} {format_interval(g.delta_interval, True)} |"
                  for g in c.counts_by_group]
    if c.scores:
        lines += ["", "| score | BASE | NEW | delta | p (paired bootstrap) |", "| --- | ---: | ---: | ---: | ---: |"]
        lines += [f"| {s.metric} | {s.base:.2f} | {s.new:.2f} | {s.delta:+.2f} | {s.p_value:.4f} |" for s in c.scores]
    return lines


def _signatures_md(c: Comparison) -> list[str]:
    """The signature fields that differ, BASE's and NEW's side by side; where none does, one line
    saying the runs were made alike. Plain escaped text, not a code block: the safety net
    (:func:`sit.text.inert_markdown`) writes ``<`` as ``&lt;``, which a code block would show as is."""
    differ = [(label, a, b) for label, a, b, differs in signature_rows(c) if differs]
    if not differ:
        return ["The two runs were made alike (every signature field is the same).", ""]
    lines = ["| signature | BASE | NEW |", "| --- | --- | --- |"]
    return lines + [f"| {md_escape(label)} | {md_escape(a)} | {md_escape(b)} |" for label, a, b in differ] + [""]


def _case_md(case: ComparedCase) -> list[str]:
    a, b = sides(case)
    lines = [f"- **[{case.source_id}] {md_escape(case.group)}** ({md_escape(change(case))}), {s_tgt_text(case)}"
             f"{md_escape(case_marks(case))}",
             f"  - {md_escape(a)}: {md_escape(case.key.source)}", f"  - {md_escape(b)}: {md_escape(case.key.case)}"]
    lines += [f"  - {md_escape(side)} translation{_MD_WHICH[which]} {md_escape(text)}" for side, which, text in translation_rows(case)]
    return lines + [""]


# --------------------------------------------------------------------------- jsonl, junit

def render_jsonl(comparison: Comparison) -> str:
    """One JSON object per test case record (every status, unchanged included)."""
    return "".join(json.dumps(case.to_dict(), ensure_ascii=False) + "\n" for case in comparison.cases)


def render_junit(comparison: Comparison) -> str:
    """JUnit XML: a testsuite per group, a testcase per test case record; ``new`` ones fail."""
    from junitparser import Failure, JUnitXml, TestCase, TestSuite

    xml = JUnitXml("sit compare")
    suites: dict[str, TestSuite] = {}
    for case in comparison.cases:
        suite = suites.get(case.group)
        if suite is None:
            suite = suites[case.group] = TestSuite(printable(f"sit.{case.group}", one_line=True))
            xml.add_testsuite(suite)
        # XML carries no control character nor lone surrogate: printable() writes them as \x1b, \udcff
        test = TestCase(printable(f"[{case.source_id}] {change(case)}: {case.key.case}", one_line=True),
                        printable(f"sit.{case.group}", one_line=True))
        test.system_out = printable(f"status: {case.status}\n" + "\n".join(_case_text(case)))
        if case.status == "new":
            failure = Failure(printable(f"new {case.group} finding: {case.key.case}", one_line=True), "new")
            failure.text = printable("\n".join(_case_text(case)))
            test.result = [failure]
        suite.append(test)  # add_testcase recounts the suite at each case: quadratic
    xml.update_statistics()  # counts every suite once
    out = xml.tostring()
    return (out.decode("utf-8") if isinstance(out, bytes) else out) + "\n"
