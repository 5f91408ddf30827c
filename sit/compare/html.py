"""The comparison as one self-contained HTML page (``compare.html``), in report.html's look: its
stylesheet (``sit/report/static/report.css``), Content-Security-Policy, escaping and tables come
from :mod:`sit.report.html`. The page needs no script: every case is a ``<details>`` laid out on
the server, BASE's and NEW's translations with the words that differ marked (the report's word
diff), every text escaped."""

from __future__ import annotations

from .. import __version__
from ..report.diff import segments, word_diff
from ..report.html import CSP, escape, static_text, table
from .model import STATUS_TITLES, STATUSES, ComparedCase, Comparison
from .writers import LISTED, format_interval, score_text, change, ordered, sides, signature_rows, summary_line

_EXTRA_CSS = (".cmp td.differs{font-weight:600}.status-new{color:var(--bug)}.status-fixed{color:var(--ok)}"
              ".panel.full{flex:1 1 100%;max-width:none}table.cmp{border-collapse:collapse}table.cmp td,table.cmp th{padding:2px 8px;text-align:start}")


def _marked(text, spans, cls: str) -> str:
    if text is None:
        return '<span class="muted">(untranslated)</span>'
    return "".join(f'<mark class="{cls}">{escape(p)}</mark>' if hl else escape(p) for p, hl in segments(text, spans))


def _case(case: ComparedCase) -> str:
    a, b = sides(case)
    rows = [(a, escape(case.key.source)), (b, escape(case.key.case))]
    for n, side in enumerate((a, b)):
        old, new = case.base_translations[n], case.new_translations[n]
        if old == new:
            rows.append((f"{side} translation", _marked(old, [], "")))
        else:
            d = word_diff(old or "", new or "")
            rows += [(f"{side} translation, BASE", _marked(old, d[0], "del")),
                     (f"{side} translation, NEW", _marked(new, d[1], "ins"))]
    for name, issue in (("BASE", case.base), ("NEW", case.new)):
        if issue is not None:
            surface = "; ".join(issue.evidence.get("surface", []))
            rows.append((f"finding in {name}", escape(f"distance {issue.distance:g}" + (f"; {surface}" if surface else ""))))
    body = "".join(f"<dt>{escape(k)}</dt><dd>{v}</dd>" for k, v in rows)
    return (f'<details class="sent"><summary class="sent-head"><span class="pos">[{case.source_id}]</span>'
            f'<span class="group">{escape(case.group)}</span><span class="n">s_tgt {score_text(case.min_s_tgt)}</span>'
            f'<span class="preview">{escape(change(case))}: {escape(case.key.case)}</span></summary>'
            f'<div class="sent-body"><dl class="texts">{body}</dl></div></details>')


def _tables(c: Comparison) -> str:
    head = "".join(f"<th>{s}</th>" for s in STATUSES)
    rows = "".join(f"<tr><th scope=\"row\">{escape(g)}</th>" + "".join(f"<td>{r[s]:,}</td>" for s in STATUSES) + "</tr>"
                   for g, r in c.table().items())
    parts = [f'<section class="panel full"><h2>Test cases</h2><p>{escape(summary_line(c))}</p>'
             f'<table class="cmp num"><tr><th>group</th>{head}</tr>{rows}</table></section>']
    if c.counts_by_group:
        agg = "".join(f'<tr><th scope="row">{escape(g.group)}</th><td>{g.base} {format_interval(g.base_interval)}</td>'
                      f'<td>{g.new} {format_interval(g.new_interval)}</td>'
                      f'<td>{g.delta:+d} {format_interval(g.delta_interval, True)}</td></tr>' for g in c.counts_by_group)
        parts.append('<section class="panel full"><h2>Findings (95% bootstrap interval over sentences)</h2>'
                     f'<table class="cmp num"><tr><th>group</th><th>BASE</th><th>NEW</th><th>NEW − BASE</th></tr>'
                     f'{agg}</table></section>')
    if c.clusters:
        parts.append(_clusters(c))
    if c.scores:
        sc = [(escape(s.metric), escape(f"BASE {s.base:.2f}, NEW {s.new:.2f}, delta {s.delta:+.2f}, p = {s.p_value:.4f}"))
              for s in c.scores]
        parts.append(f'<section class="panel"><h2>Scores (paired bootstrap)</h2>{table(sc, "kv")}</section>')
    parts.append(f'<section class="panel wide"><h2>What differs</h2>{_signatures(c, only_differing=True)}</section>')
    return ('<div class="panels">' + "".join(parts) + "</div>" + '<details id="run-details"><summary>Both '
            f'signatures side by side</summary><div class="panels"><section class="panel wide">{_signatures(c)}'
            "</section></div></details>")


def _clusters(c: Comparison, listed: int = 30) -> str:
    """The root causes matched across the runs: new and fixed first, then persisting, each with its mark."""
    n = c.cluster_counts()
    chosen = sorted(c.clusters, key=lambda k: ("new", "fixed", "persisting").index(k.status))[:listed]
    rows = "".join(f'<tr><td class="status-{escape(k.status)}">{escape(k.status)}</td><td>{escape(k.title)}</td>'
                   f'<td>{k.base_findings:,}</td><td>{k.new_findings:,}</td><td>{escape(k.label or "")}</td></tr>'
                   for k in chosen)
    more = (f"<p>{len(c.clusters) - listed:,} more (each run's clusters.jsonl lists its own)</p>"
            if len(c.clusters) > listed else "")
    return (f'<section class="panel full"><h2>Bugs by root cause: {n["new"]:,} new, {n["fixed"]:,} fixed, '
            f'{n["persisting"]:,} persisting</h2><table class="cmp"><tr><th>status</th><th>bug</th><th>BASE</th>'
            f'<th>NEW</th><th>mark</th></tr>{rows}</table>{more}</section>')


def _signatures(c: Comparison, only_differing: bool = False) -> str:
    rows = "".join(f'<tr><th scope="row">{escape(label)}</th><td class="{"differs" if d else ""}"><bdi>{escape(a)}</bdi></td>'
                   f'<td class="{"differs" if d else ""}"><bdi>{escape(b)}</bdi></td></tr>'
                   for label, a, b, d in signature_rows(c) if d or not only_differing)
    return f'<table class="cmp kv"><tr><th></th><th>BASE</th><th>NEW</th></tr>{rows}</table>'


def render_html(comparison: Comparison) -> str:
    """The whole page."""
    c = comparison
    counts = c.status_counts()
    title = f"sit compare: {counts['new']} new, {counts['fixed']} fixed"
    parts = [f'<header class="top"><h1>{escape(title)}</h1>',
             f'<p class="muted">BASE <code>{escape(c.base.path)}</code> · NEW <code>{escape(c.new.path)}</code></p>']
    parts += [f'<p class="warning" role="note">warning: {escape(w)}</p>' for w in c.warnings]
    parts.append(f"{_tables(c)}</header><main>")
    for status in LISTED:
        cases = ordered(c.by_status(status))
        parts.append(f'<section id="{status}"><h2 class="status-{status}">{status} ({len(cases):,})</h2>'
                     f'<p class="muted">{escape(STATUS_TITLES[status])}</p>' + "".join(_case(x) for x in cases) + "</section>")
    parts.append("</main>")
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{escape(CSP)}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta name="generator" content="sit {escape(__version__)}"><link rel="icon" href="data:,">'
        f"<title>{escape(title)}</title><style>{static_text('report.css')}{_EXTRA_CSS}</style></head>"
        f'<body>{"".join(parts)}</body></html>\n'
    )
