"""The self-contained HTML report (``report.html``).

One file, inline CSS and JavaScript (kept in ``static/report.css`` and ``static/report.js``,
package data, and inlined when the page is written), no network fetches (a Content-Security-Policy forbids them),
so it opens from disk offline. The header and the charts (inline SVG) are rendered here; the
flagged sentences come from the view model embedded as JSON (``<script type="application/json">``,
with ``<``, ``>`` and ``&`` escaped) and are laid out by the script with ``textContent`` only, so
nothing taken from inputs or translations is ever parsed as HTML. Sentences are rendered a page
at a time and a sentence's issues only when it is opened, which keeps 10,000 issues fast.

The flagged sentences come per group of findings (``sit``, ``sit.untranslated``, ``rti``,
``patinv``: one relation's ranking each), in the run's order, and the ``relation`` filter shows one
group. Triage marks live in the browser (``localStorage``, keyed by the run), the triage panel
shows top-k precision per relation, and the marks export as ``labels.jsonl`` (each line names its
relation) for ``sit precision``.
"""

from __future__ import annotations

import json
from html import escape as html_escape
from importlib import resources
from itertools import islice
import secrets
from typing import Any, Iterator, Sequence

from .. import __version__
from .clusterrows import total_findings

CSP = ("default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
       "img-src data:; base-uri 'none'; form-action 'none'")


def escape(value: Any) -> str:
    return html_escape(str(value), quote=True)


def _num(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return escape(value)
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:.4g}"
    return escape(value)


def embed_json(obj: Any) -> str:
    """JSON that is safe inside ``<script type="application/json">``: no ``<``, ``>`` or ``&``."""
    return _safe(json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False))


def _safe(text: str) -> str:
    return (text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def embed_json_parts(view: dict[str, Any], keys: Sequence[str] = ("sentences", "clusters", "words")) -> Iterator[str]:
    """:func:`embed_json` of ``view`` in pieces whose concatenation is it: each list under
    ``keys`` (the flagged sentences, the bulk of a report; the clusters and the words the findings
    name, thousands of each in a large run) one item at a time."""
    def listed(items) -> bool:  # a list, or made as read
        return isinstance(items, (list, Sequence)) and not isinstance(items, (str, bytes))

    markers = {key: f"sit-{secrets.token_hex(16)}" for key in keys if listed(view.get(key))}
    text = embed_json({**view, **markers})
    quoted = {json.dumps(marker): key for key, marker in markers.items()}
    if any(text.count(q) != 1 for q in quoted):
        yield embed_json({**view, **{key: list(view[key]) for key in markers}})
        return
    start = 0
    for q, key in sorted(quoted.items(), key=lambda kv: text.index(kv[0])):
        at = text.index(q)
        yield text[start:at] + "["
        for i, item in enumerate(view[key]):
            yield ("," if i else "") + embed_json(item)
        yield "]"
        start = at + len(q)
    yield text[start:]


# --------------------------------------------------------------------------- charts (inline SVG)

def histogram_svg(bins: list[dict[str, Any]], width: int = 460, height: int = 170) -> str:
    if not bins:
        return '<p class="empty">no issues, no distances to draw</p>'
    left, bottom, top = 36, 34, 10
    plot_w, plot_h = width - left - 8, height - bottom - top
    peak = max(b["count"] for b in bins) or 1
    step = plot_w / len(bins)
    label_every = max(1, round(len(bins) / 12))
    parts = [f'<svg class="chart" role="img" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
             f'aria-labelledby="hist-title"><title id="hist-title">Distance histogram: issues per distance</title>',
             f'<line class="axis" x1="{left}" y1="{top + plot_h}" x2="{left + plot_w}" y2="{top + plot_h}"/>',
             f'<text class="tick" x="{left - 4}" y="{top + 8}" text-anchor="end">{peak:,}</text>',
             f'<text class="tick" x="{left - 4}" y="{top + plot_h}" text-anchor="end">0</text>']
    for n, b in enumerate(bins):
        h = plot_h * b["count"] / peak
        x = left + n * step
        parts.append(
            f'<g class="bar hist-bar" data-min="{escape(b["lo"])}" tabindex="0" role="button" '
            f'aria-label="distance {escape(b["label"])}: {b["count"]} issues; show issues from this distance">'
            f'<title>distance {escape(b["label"])}: {b["count"]:,} issues (click: minimum distance {escape(b["label"])})</title>'
            f'<rect class="hit" x="{x:.1f}" y="{top}" width="{step:.1f}" height="{plot_h}"/>'
            f'<rect x="{x + 1:.1f}" y="{top + plot_h - h:.1f}" width="{max(step - 2, 1):.1f}" height="{h:.1f}"/></g>'
        )
        if n % label_every == 0:
            parts.append(f'<text class="tick" x="{x + step / 2:.1f}" y="{top + plot_h + 13}" '
                         f'text-anchor="middle">{escape(b["label"])}</text>')
    parts.append(f'<text class="axis-label" x="{left + plot_w / 2:.1f}" y="{height - 3}" '
                 f'text-anchor="middle">distance</text></svg>')
    return "".join(parts)


def relations_svg(stats: list[dict[str, Any]], limit: int = 15, width: int = 460) -> str:
    if not stats:
        return '<p class="empty">no relation counts changed</p>'
    rows = stats[:limit]
    row_h, left, right = 18, 110, 60
    height = row_h * len(rows) + 24
    peak = max(s["issues"] for s in rows) or 1
    plot_w = width - left - right
    parts = [f'<svg class="chart" role="img" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
             f'aria-labelledby="rel-title"><title id="rel-title">Dependency relations whose count changed, '
             f'by number of issues</title>']
    for n, s in enumerate(rows):
        y = 4 + n * row_h
        more_w = plot_w * s["more"] / peak
        fewer_w = plot_w * s["fewer"] / peak
        parts.append(
            f'<g class="bar rel-bar" data-rel="{escape(s["relation"])}" tabindex="0" role="button" '
            f'aria-label="{escape(s["relation"])}: {s["issues"]} issues; show only these">'
            f'<title>{escape(s["relation"])}: count changed in {s["issues"]:,} issues '
            f'({s["more"]:,} more, {s["fewer"]:,} fewer; total change {s["change"]:,})</title>'
            f'<rect class="hit" x="0" y="{y}" width="{width}" height="{row_h}"/>'
            f'<text class="rel-name" x="{left - 6}" y="{y + 13}" text-anchor="end">{escape(s["relation"])}</text>'
            f'<rect class="more" x="{left}" y="{y + 3}" width="{more_w:.1f}" height="{row_h - 6}"/>'
            f'<rect class="fewer" x="{left + more_w:.1f}" y="{y + 3}" width="{fewer_w:.1f}" height="{row_h - 6}"/>'
            f'<text class="tick" x="{left + more_w + fewer_w + 5:.1f}" y="{y + 13}">{s["issues"]:,}</text></g>'
        )
    y = 4 + len(rows) * row_h + 12
    parts.append(f'<rect class="more" x="{left}" y="{y - 8}" width="10" height="10"/>'
                 f'<text class="tick" x="{left + 14}" y="{y + 1}">more in perturbed</text>'
                 f'<rect class="fewer" x="{left + 130}" y="{y - 8}" width="10" height="10"/>'
                 f'<text class="tick" x="{left + 144}" y="{y + 1}">fewer in perturbed</text></svg>')
    if len(stats) > limit:
        parts.append(f'<p class="muted">{len(stats) - limit} more relations in the relation filter</p>')
    return "".join(parts)


# --------------------------------------------------------------------------- header

def table(rows: list[tuple[str, str]], cls: str) -> str:
    body = "".join(f"<tr><th scope=\"row\">{k}</th><td>{v}</td></tr>" for k, v in rows)
    return f'<table class="{cls}">{body}</table>'


def _header(view: dict[str, Any]) -> Iterator[str]:
    """In pieces (a run's clusters one row at a time: :func:`_summary`), the title, any warnings and the triage count; the signature, how the run chose its components, counts,
    timings, the relations' run-level figures (:meth:`sit.runmeta.RunMeta.figure_tables`), triage precision and charts sit in a closed ``<details>``, so the
    first screen is the findings."""
    sig_rows = [(escape(name), f"<bdi>{escape(value)}</bdi>") for _key, name, value in view["signature_fields"]]
    if view["versions"]:
        sig_rows.append(("versions", escape(", ".join(f"{k} {v}" for k, v in sorted(view["versions"].items())))))
    count_rows = [(escape(k), _num(v)) for k, v in view["counts"]]
    timing_rows = [(escape(k), "-" if v is None else f"{v:.2f} s") for k, v in view["timings"]]
    yield f'<header class="top"><h1>{escape(view["title"])}</h1>'
    for warning in view["warnings"]:
        yield f'<p class="warning" role="note">warning: {escape(warning)}</p>'
    yield from _summary(view)
    parts = ['<p id="triage-summary" class="muted" aria-live="polite">no marks yet</p>']
    # the run's metadata one click away: the first screen is the findings
    figures = "".join(f"{escape(t['title'])} figures, " for t in view["figures"])
    parts.append(f'<details id="run-details"><summary>Run details: signature, counts, timings, {figures}'
                 'triage precision, charts</summary>')
    parts.append(f'<p class="sigline">signature <code>{escape(view["signature_short"])}</code></p>'
                 f'<p class="sigline muted">full signature <code>{escape(view["signature_line"])}</code></p>')
    meta_bits = []
    if view["created"]:
        meta_bits.append(f"created {escape(view['created'])}")
    if view["command"]:
        meta_bits.append(f"command <code>{escape(view['command'])}</code>")
    if meta_bits:
        parts.append(f'<p class="muted">{" · ".join(meta_bits)}</p>')
    if view["perturber_reason"]:
        parts.append(f'<p class="muted">perturber: {escape(view["perturber_reason"])}</p>')
    for name, note in view.get("notes", []):
        parts.append(f'<p class="muted">{escape(name)}: {escape(note)}</p>')
    parts.append('<div class="panels">')
    parts.append('<section class="panel" id="triage-panel"><h2>Triage</h2>'
                 '<table class="kv num" id="precision-table"></table>'
                 '<p class="muted" id="storage-note"></p></section>')
    parts.append(f'<section class="panel wide"><h2>Signature</h2>{table(sig_rows, "kv")}</section>')
    parts.append(f'<section class="panel"><h2>Counts</h2>{table(count_rows, "kv num")}</section>')
    if timing_rows:
        parts.append(f'<section class="panel"><h2>Timings</h2>{table(timing_rows, "kv num")}</section>')
    for fig in view["figures"]:  # each relation's run-level figures, as it titled them
        note = f'<p class="muted">{escape(fig["note"])}</p>' if fig["note"] else ""
        rows = [(escape(k), escape(v)) for k, v in fig["rows"]]
        parts.append(f'<section class="panel"><h2>{escape(fig["title"])}</h2>{note}{table(rows, "kv")}</section>')
    parts.append('</div><div class="panels">')
    parts.append(f'<section class="panel chart-panel"><h2>Distances</h2>{histogram_svg(view["histogram"])}</section>')
    parts.append(f'<section class="panel chart-panel"><h2>Relations that change</h2>'
                 f'{relations_svg(view["relations"])}</section>')
    parts.append("</div></details></header>")
    yield "".join(parts)


def _summary(view: dict[str, Any]) -> Iterator[str]:
    """The run's summary on the first screen (:mod:`sit.report.summary`), in pieces: what it did,
    the findings per group (a click shows one group), and the words the findings name."""
    summary = view["summary"]
    parts = ['<section id="summary" aria-label="summary of the run">']
    parts += [f'<p class="work">{escape(line)}</p>' for line in summary["work"]]
    parts.append(f'<p class="findings"><strong>{escape(summary["findings"])}</strong></p>')
    yield "".join(parts)
    yield from _clusters(view.get("clusters") or [])
    parts = []
    if summary["groups"]:
        rows = "".join(
            f'<tr data-group="{escape(g["group"])}"><th scope="row"><button type="button" class="group-link" '
            f'data-group="{escape(g["group"])}">{escape(g["group"])}</button></th><td class="n">{g["findings"]:,}</td>'
            f'<td class="n">{g["sentences"]:,}</td><td>{escape(g["title"])}</td></tr>' for g in summary["groups"])
        parts.append('<table class="groups"><thead><tr><th scope="col">relation</th><th scope="col">findings</th>'
                     f'<th scope="col">sentences</th><th scope="col">what it claims</th></tr></thead>{rows}</table>')
    yield "".join(parts)
    if view["words"]:
        yield from _words(view["words"])
    yield "</section>"


def _cluster_row(r: dict[str, Any]) -> str:
    ex = r["example"]
    prec = "-" if r["precision"] is None else f"{100 * r['precision']:.0f}%"
    cid = escape(r["cluster_id"])
    return (f'<tr data-cluster="{cid}"><td class="n">{r["rank"]}</td>'
            f'<td><button type="button" class="cluster-link" data-cluster="{cid}" title="show these findings">'
            f'{escape(r["title"])}</button><div class="muted example" title="{escape(ex["perturbed"])} → '
            f'{escape(ex["perturbed_translation"])}"><bdi>{escape(ex["perturbed"])}</bdi> → '
            f'<bdi>{escape(ex["perturbed_translation"])}</bdi></div></td>'
            f'<td class="n">{r["findings"]:,}</td><td class="n">{r["sentences"]:,}</td>'
            f'<td>{escape(", ".join(r["groups"]))}</td><td class="n">{prec}</td>'
            f'<td class="cluster-marks"><button type="button" class="cluster-mark" data-cluster="{cid}" data-label="bug" '
            f'aria-pressed="{str(r.get("label") == "bug").lower()}">bug</button> '
            f'<button type="button" class="cluster-mark" data-cluster="{cid}" data-label="not_bug" '
            f'aria-pressed="{str(r.get("label") == "not_bug").lower()}">not a bug</button></td></tr>')


def _clusters(rows: Sequence[dict[str, Any]], shown: int = 10) -> Iterator[str]:
    """The bugs by root cause, worst first (:mod:`sit.report.clusters`), a row at a time (a run of
    thousands of sentences has thousands): the first ``shown`` open, the rest one click away; a
    title shows its findings, a mark applies to all of them."""
    if not rows:
        return
    head = ('<thead><tr><th scope="col">#</th><th scope="col">bug (example)</th><th scope="col">findings</th>'
            '<th scope="col">sentences</th><th scope="col">relations</th><th scope="col">precision</th>'
            '<th scope="col">mark all</th></tr></thead>')
    total = total_findings(rows)
    yield (f'<section id="clusters" aria-label="bugs by root cause"><h2>The bugs: {len(rows):,} root cause(s) of '
           f'{total:,} finding(s), worst first</h2><table class="clusters">{head}<tbody>')
    listed = iter(rows)  # read once (:class:`sit.report.clusterrows.ClusterRows` reads them as listed)
    yield "".join(_cluster_row(r) for r in islice(listed, shown))
    yield "</tbody></table>"
    if len(rows) > shown:
        yield (f'<button type="button" id="b-more-clusters" aria-expanded="false">show {len(rows) - shown:,} more '
               f'root cause(s)</button><table class="clusters" id="more-clusters" hidden>{head}<tbody>')
        while piece := "".join(_cluster_row(r) for r in islice(listed, ROWS_AT_ONCE)):
            yield piece
        yield "</tbody></table>"
    yield "</section>"


#: cluster rows made into one piece of the page at a time
ROWS_AT_ONCE = 200


def _words(rows: list[dict[str, Any]]) -> Iterator[str]:
    """The words the findings name (such as words left untranslated), one row per word and side,
    :data:`ROWS_AT_ONCE` rows a piece (a large run names thousands)."""
    yield (f'<details id="words" open><summary>{len(rows):,} word(s) named by findings, most frequent first'
           '</summary><div class="scroll"><table class="words"><thead><tr><th scope="col">word</th><th scope="col">findings</th>'
           '<th scope="col">which word</th><th scope="col">relation</th><th scope="col">source sentences</th>'
           '</tr></thead>')
    for start in range(0, len(rows), ROWS_AT_ONCE):
        yield "".join(_word_row(r) for r in rows[start:start + ROWS_AT_ONCE])
    yield "</table></div></details>"


def _word_row(r: dict[str, Any]) -> str:
    return (f'<tr><td><button type="button" class="word-link" data-word="{escape(r["word"])}" '
            f'data-group="{escape(r["group"])}" title="show these findings"><bdi>{escape(r["word"])}</bdi></button></td>'
            f'<td class="n">{r["count"]:,}</td><td>{escape(r["side"])}</td><td>{escape(r["group"])}</td>'
            f'<td>{escape(", ".join(map(str, r["sources"][:12])) + (" …" if len(r["sources"]) > 12 else ""))}</td></tr>')


def _toolbar(view: dict[str, Any]) -> Iterator[str]:
    """The filters above the findings, in pieces (the bug filter lists every cluster)."""
    rel_options = "".join(f'<option value="{escape(s["relation"])}">{escape(s["relation"])} ({s["issues"]:,})</option>'
                          for s in sorted(view["relations"], key=lambda s: s["relation"]))
    group_options = "".join(f'<option value="{escape(g["group"])}" title="{escape(g["title"])}">{escape(g["group"])} '
                            f'({g["sentences"]:,} sentences, {g["issues"]:,} issues)</option>' for g in view["groups"])
    yield (
        '<nav class="toolbar" aria-label="filters">'
        f'<label>relation <select id="f-group"><option value="">all</option>{group_options}</select></label>'
        '<label>min distance <input id="f-min" type="number" min="0" step="any" value="0" inputmode="decimal"></label>'
        '<label>bug <select id="f-cluster"><option value="">all</option>')
    listed = iter(view.get("clusters") or [])  # a large run's thousands, read once, a few hundred a piece
    while piece := "".join(f'<option value="{escape(c["cluster_id"])}">{c["rank"]}. {escape(c["title"][:70])} '
                           f'({c["findings"]:,})</option>' for c in islice(listed, ROWS_AT_ONCE)):
        yield piece
    yield (
        '</select></label>'
        f'<label>dependency <select id="f-rel"><option value="">any</option>{rel_options}</select></label>'
        '<label class="grow">search <input id="f-q" type="search" placeholder="text in sources or translations (/)"></label>'
        '<label>marks <select id="f-label"><option value="all">all</option><option value="unlabelled">unlabelled</option>'
        '<option value="bug">bug</option><option value="not_bug">not a bug</option></select></label>'
        '<label>sort <select id="f-sort"><option value="worst">worst first</option>'
        '<option value="issues">most issues</option><option value="id">source order</option></select></label>'
        '<button type="button" id="b-expand">open all</button><button type="button" id="b-collapse">close all</button>'
        '<button type="button" id="b-export" title="save it in the run directory as labels.jsonl: sit report, sit precision '
        'and re-runs of the same command show these marks">export labels.jsonl</button>'
        '<button type="button" id="b-ignore" title="the findings marked not a bug as .sitignore lines: append them to '
        'the ignore file, and sit check, run and compare leave those findings out">save .sitignore lines</button>'
        '<label class="file-button">import labels<input id="b-import" type="file" accept=".jsonl,.json,application/json"></label>'
        '<button type="button" id="b-help" aria-expanded="false">keys (?)</button>'
        '</nav>'
        '<div id="help" hidden><p><kbd>j</kbd>/<kbd>k</kbd> next/previous issue · <kbd>x</kbd> mark bug · '
        '<kbd>n</kbd> mark not a bug · <kbd>1</kbd>–<kbd>5</kbd> error category (marks bug) · <kbd>0</kbd> clear mark · '
        '<kbd>o</kbd> open/close sentence · <kbd>/</kbd> search · <kbd>Esc</kbd> leave a field</p></div>'
        '<p id="status" aria-live="polite"></p>'
    )


# --------------------------------------------------------------------------- page

def static_text(name: str) -> str:
    """The text of ``sit/report/static/<name>`` (package data: the page's CSS and script)."""
    return resources.files("sit.report").joinpath("static").joinpath(name).read_text(encoding="utf-8")


def render_html(view: dict[str, Any]) -> str:
    """The whole page for a view model from :func:`sit.report.model.build_view`."""
    return "".join(html_parts(view))


def html_parts(view: dict[str, Any]) -> Iterator[str]:
    """:func:`render_html` in pieces (the findings' data one flagged sentence at a time), so a
    page is written without being held whole (:meth:`sit.formats.base.Writer.report_parts`)."""
    lang = view.get("source_lang") or "en"
    yield (
        "<!DOCTYPE html>\n"
        f'<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{escape(CSP)}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta name="generator" content="sit {escape(__version__)}">'
        '<link rel="icon" href="data:,">'
        f"<title>{escape(view['title'])}</title><style>{static_text('report.css')}</style></head>"
        f'<body data-src-lang="{escape(lang)}" data-tgt-lang="{escape(view.get("target_lang") or "")}">'
    )
    yield from _header(view)
    yield "<main>"
    yield from _toolbar(view)
    yield (
        '<div id="list" role="list" aria-label="flagged source sentences"></div>'
        '<p><button type="button" id="b-more" hidden>show more</button></p>'
        '<noscript><p class="warning">This report needs JavaScript to list the findings; '
        'report.txt beside it holds the same findings as text.</p></noscript>'
        "</main>"
        '<script type="application/json" id="sit-data">'
    )
    yield from embed_json_parts(view)
    yield f"</script><script>{static_text('report.js')}</script></body></html>\n"
