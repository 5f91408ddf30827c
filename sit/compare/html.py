"""The comparison as one self-contained HTML page (``compare.html``), in report.html's look: its
stylesheet (``sit/report/static/report.css``), Content-Security-Policy, escaping and tables come
from :mod:`sit.report.html`. The page needs no script: every case is a ``<details>`` laid out on
the server, BASE's and NEW's translations with the words that differ marked (the report's word
diff), every text escaped."""

from __future__ import annotations

from .. import __version__
from ..report.diff import segments, word_diff
from ..report.html import _CSP, _e, _static, _table
from .model import STATUS_TITLES, STATUSES, ComparedCase, Comparison
from .writers import LISTED, _fmt_interval, _s, change, ordered, sides, signature_rows, summary_line

_EXTRA_CSS = (".cmp td.differs{font-weight:600}.status-new{color:var(--bug)}.status-fixed{color:var(--ok)}"
              ".panel.full{flex:1 1 100%;max-width:none}table.cmp{border-collapse:collapse}table.cmp td,table.cmp th{padding:2px 8px;text-align:start}")


def _marked(text, spans, cls: str) -> str:
    if text is None:
        return '<span class="muted">(untranslated)</span>'
    return "".join(f'<mark class="{cls}">{_e(p)}</mark>' if hl else _e(p) for p, hl in segments(text, spans))


def _case(case: ComparedCase) -> str:
    a, b = sides(case)
    rows = [(a, _e(case.key.source)), (b, _e(case.key.case))]
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
            rows.append((f"finding in {name}", _e(f"distance {issue.distance:g}" + (f"; {surface}" if surface else ""))))
    body = "".join(f"<dt>{_e(k)}</dt><dd>{v}</dd>" for k, v in rows)
    return (f'<details class="sent"><summary class="sent-head"><span class="pos">[{case.source_id}]</span>'
            f'<span class="group">{_e(case.group)}</span><span class="n">s_tgt {_s(case.min_s_tgt)}</span>'
            f'<span class="preview">{_e(change(case))}: {_e(case.key.case)}</span></summary>'
            f'<div class="sent-body"><dl class="texts">{body}</dl></div></details>')


def _tables(c: Comparison) -> str:
    head = "".join(f"<th>{s}</th>" for s in STATUSES)
    rows = "".join(f"<tr><th scope=\"row\">{_e(g)}</th>" + "".join(f"<td>{r[s]:,}</td>" for s in STATUSES) + "</tr>"
                   for g, r in c.table().items())
    parts = [f'<section class="panel full"><h2>Test cases</h2><p>{_e(summary_line(c))}</p>'
             f'<table class="cmp num"><tr><th>group</th>{head}</tr>{rows}</table></section>']
    if c.counts_by_group:
        agg = "".join(f'<tr><th scope="row">{_e(g.group)}</th><td>{g.base} {_fmt_interval(g.base_interval)}</td>'
                      f'<td>{g.new} {_fmt_interval(g.new_interval)}</td>'
                      f'<td>{g.delta:+d} {_fmt_interval(g.delta_interval, True)}</td></tr>' for g in c.counts_by_group)
        parts.append('<section class="panel full"><h2>Findings (95% bootstrap interval over sentences)</h2>'
                     f'<table class="cmp num"><tr><th>group</th><th>BASE</th><th>NEW</th><th>NEW − BASE</th></tr>'
                     f'{agg}</table></section>')
    if c.scores:
        sc = [(_e(s.metric), _e(f"BASE {s.base:.2f}, NEW {s.new:.2f}, delta {s.delta:+.2f}, p = {s.p_value:.4f}"))
              for s in c.scores]
        parts.append(f'<section class="panel"><h2>Scores (paired bootstrap)</h2>{_table(sc, "kv")}</section>')
    parts.append(f'<section class="panel wide"><h2>What differs</h2>{_signatures(c, only_differing=True)}</section>')
    return ('<div class="panels">' + "".join(parts) + "</div>" + '<details id="run-details"><summary>Both '
            f'signatures side by side</summary><div class="panels"><section class="panel wide">{_signatures(c)}'
            "</section></div></details>")


def _signatures(c: Comparison, only_differing: bool = False) -> str:
    rows = "".join(f'<tr><th scope="row">{_e(label)}</th><td class="{"differs" if d else ""}"><bdi>{_e(a)}</bdi></td>'
                   f'<td class="{"differs" if d else ""}"><bdi>{_e(b)}</bdi></td></tr>'
                   for label, a, b, d in signature_rows(c) if d or not only_differing)
    return f'<table class="cmp kv"><tr><th></th><th>BASE</th><th>NEW</th></tr>{rows}</table>'


def render_html(comparison: Comparison) -> str:
    """The whole page."""
    c = comparison
    counts = c.status_counts()
    title = f"sit compare: {counts['new']} new, {counts['fixed']} fixed"
    parts = [f'<header class="top"><h1>{_e(title)}</h1>',
             f'<p class="muted">BASE <code>{_e(c.base.path)}</code> · NEW <code>{_e(c.new.path)}</code></p>']
    parts += [f'<p class="warning" role="note">warning: {_e(w)}</p>' for w in c.warnings]
    parts.append(f"{_tables(c)}</header><main>")
    for status in LISTED:
        cases = ordered(c.by_status(status))
        parts.append(f'<section id="{status}"><h2 class="status-{status}">{status} ({len(cases):,})</h2>'
                     f'<p class="muted">{_e(STATUS_TITLES[status])}</p>' + "".join(_case(x) for x in cases) + "</section>")
    parts.append("</main>")
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{_e(_CSP)}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta name="generator" content="sit {_e(__version__)}"><link rel="icon" href="data:,">'
        f"<title>{_e(title)}</title><style>{_static('report.css')}{_EXTRA_CSS}</style></head>"
        f'<body>{"".join(parts)}</body></html>\n'
    )
