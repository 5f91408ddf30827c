"""The self-contained HTML report (``report.html``).

One file, inline CSS and JavaScript, no network fetches (a Content-Security-Policy forbids them),
so it opens from disk offline. The header and the charts (inline SVG) are rendered here; the
flagged sentences come from the view model embedded as JSON (``<script type="application/json">``,
with ``<``, ``>`` and ``&`` escaped) and are laid out by the script with ``textContent`` only, so
nothing taken from inputs or translations is ever parsed as HTML. Sentences are rendered a page
at a time and a sentence's issues only when it is opened, which keeps 10,000 issues fast.

Triage marks live in the browser (``localStorage``, keyed by the run) and export as
``labels.jsonl`` for ``sit precision``.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any

from .. import __version__

_CSP = ("default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
        "img-src data:; base-uri 'none'; form-action 'none'")


def _e(value: Any) -> str:
    return escape(str(value), quote=True)


def _num(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return _e(value)
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:.4g}"
    return _e(value)


def embed_json(obj: Any) -> str:
    """JSON that is safe inside ``<script type="application/json">``: no ``<``, ``>`` or ``&``."""
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return (text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


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
            f'<g class="bar hist-bar" data-min="{_e(b["lo"])}" tabindex="0" role="button" '
            f'aria-label="distance {_e(b["label"])}: {b["count"]} issues; show issues from this distance">'
            f'<title>distance {_e(b["label"])}: {b["count"]:,} issues (click: minimum distance {_e(b["label"])})</title>'
            f'<rect class="hit" x="{x:.1f}" y="{top}" width="{step:.1f}" height="{plot_h}"/>'
            f'<rect x="{x + 1:.1f}" y="{top + plot_h - h:.1f}" width="{max(step - 2, 1):.1f}" height="{h:.1f}"/></g>'
        )
        if n % label_every == 0:
            parts.append(f'<text class="tick" x="{x + step / 2:.1f}" y="{top + plot_h + 13}" '
                         f'text-anchor="middle">{_e(b["label"])}</text>')
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
            f'<g class="bar rel-bar" data-rel="{_e(s["relation"])}" tabindex="0" role="button" '
            f'aria-label="{_e(s["relation"])}: {s["issues"]} issues; show only these">'
            f'<title>{_e(s["relation"])}: count changed in {s["issues"]:,} issues '
            f'({s["more"]:,} more, {s["fewer"]:,} fewer; total change {s["change"]:,})</title>'
            f'<rect class="hit" x="0" y="{y}" width="{width}" height="{row_h}"/>'
            f'<text class="rel-name" x="{left - 6}" y="{y + 13}" text-anchor="end">{_e(s["relation"])}</text>'
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

def _table(rows: list[tuple[str, str]], cls: str) -> str:
    body = "".join(f"<tr><th scope=\"row\">{k}</th><td>{v}</td></tr>" for k, v in rows)
    return f'<table class="{cls}">{body}</table>'


def _header(view: dict[str, Any]) -> str:
    sig_rows = [(_e(name), f"<bdi>{_e(value)}</bdi>") for _key, name, value in view["signature_fields"]]
    if view["versions"]:
        sig_rows.append(("versions", _e(", ".join(f"{k} {v}" for k, v in sorted(view["versions"].items())))))
    count_rows = [(_e(k.replace("_", " ")), _num(v)) for k, v in view["counts"]]
    timing_rows = [(_e(k), "-" if v is None else f"{v:.2f} s") for k, v in view["timings"]]
    teapot = view["teapot"]
    teapot_rows = []
    for key, value in teapot.items():
        if isinstance(value, dict):
            value = ", ".join(f"{k} {_num(v)}" for k, v in value.items())
            teapot_rows.append((_e(key.replace("_", " ")), _e(value)))
        elif key == "success_rate" and isinstance(value, (int, float)):
            teapot_rows.append(("success rate", f"{100 * value:.2f} %"))
        else:
            teapot_rows.append((_e(key.replace("_", " ")), _num(value)))
    parts = [
        f'<header class="top"><h1>{_e(view["title"])}</h1>',
        f'<p class="sigline"><code>{_e(view["signature_line"])}</code></p>',
    ]
    meta_bits = []
    if view["created"]:
        meta_bits.append(f"created {_e(view['created'])}")
    if view["command"]:
        meta_bits.append(f"command <code>{_e(view['command'])}</code>")
    if meta_bits:
        parts.append(f'<p class="muted">{" · ".join(meta_bits)}</p>')
    if view["perturber_reason"]:
        parts.append(f'<p class="muted">perturber: {_e(view["perturber_reason"])}</p>')
    for name, note in view.get("notes", []):
        parts.append(f'<p class="muted">{_e(name)}: {_e(note)}</p>')
    for warning in view["warnings"]:
        parts.append(f'<p class="warning" role="note">warning: {_e(warning)}</p>')
    parts.append('<div class="panels">')
    parts.append(f'<section class="panel wide"><h2>Signature</h2>{_table(sig_rows, "kv")}</section>')
    parts.append(f'<section class="panel"><h2>Counts</h2>{_table(count_rows, "kv num")}</section>')
    if timing_rows:
        parts.append(f'<section class="panel"><h2>Timings</h2>{_table(timing_rows, "kv num")}</section>')
    if teapot_rows:
        parts.append(f'<section class="panel"><h2>TEAPOT</h2>{_table(teapot_rows, "kv num")}</section>')
    parts.append('<section class="panel" id="triage-panel"><h2>Triage</h2>'
                 '<p id="triage-summary" aria-live="polite">no marks yet</p>'
                 '<table class="kv num" id="precision-table"></table>'
                 '<p class="muted" id="storage-note"></p></section>')
    parts.append('</div><div class="panels">')
    parts.append(f'<section class="panel chart-panel"><h2>Distances</h2>{histogram_svg(view["histogram"])}</section>')
    parts.append(f'<section class="panel chart-panel"><h2>Relations that change</h2>'
                 f'{relations_svg(view["relations"])}</section>')
    parts.append("</div></header>")
    return "".join(parts)


def _toolbar(view: dict[str, Any]) -> str:
    rel_options = "".join(f'<option value="{_e(s["relation"])}">{_e(s["relation"])} ({s["issues"]:,})</option>'
                          for s in sorted(view["relations"], key=lambda s: s["relation"]))
    return (
        '<nav class="toolbar" aria-label="filters">'
        '<label>min distance <input id="f-min" type="number" min="0" step="any" value="0" inputmode="decimal"></label>'
        f'<label>relation <select id="f-rel"><option value="">any</option>{rel_options}</select></label>'
        '<label class="grow">search <input id="f-q" type="search" placeholder="text in sources or translations (/)"></label>'
        '<label>marks <select id="f-label"><option value="all">all</option><option value="unlabelled">unlabelled</option>'
        '<option value="bug">bug</option><option value="not_bug">not a bug</option></select></label>'
        '<label>sort <select id="f-sort"><option value="worst">worst first</option>'
        '<option value="issues">most issues</option><option value="id">source order</option></select></label>'
        '<button type="button" id="b-expand">open all</button><button type="button" id="b-collapse">close all</button>'
        '<button type="button" id="b-export">export labels.jsonl</button>'
        '<label class="file-button">import labels<input id="b-import" type="file" accept=".jsonl,.json,application/json"></label>'
        '<button type="button" id="b-help" aria-expanded="false">keys (?)</button>'
        '</nav>'
        '<div id="help" hidden><p><kbd>j</kbd>/<kbd>k</kbd> next/previous issue · <kbd>x</kbd> mark bug · '
        '<kbd>n</kbd> mark not a bug · <kbd>1</kbd>–<kbd>5</kbd> error category (marks bug) · <kbd>0</kbd> clear mark · '
        '<kbd>o</kbd> open/close sentence · <kbd>/</kbd> search · <kbd>Esc</kbd> leave a field</p></div>'
        '<p id="status" aria-live="polite"></p>'
    )


# --------------------------------------------------------------------------- page

def render_html(view: dict[str, Any]) -> str:
    """The whole page for a view model from :func:`sit.report.model.build_view`."""
    lang = view.get("source_lang") or "en"
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{_e(_CSP)}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta name="generator" content="sit {_e(__version__)}">'
        '<link rel="icon" href="data:,">'
        f"<title>{_e(view['title'])}</title><style>{_CSS}</style></head>"
        f'<body data-src-lang="{_e(lang)}" data-tgt-lang="{_e(view.get("target_lang") or "")}">'
        f"{_header(view)}<main>{_toolbar(view)}"
        '<div id="list" role="list" aria-label="flagged source sentences"></div>'
        '<p><button type="button" id="b-more" hidden>show more</button></p>'
        '<noscript><p class="warning">This report needs JavaScript to list the issues; '
        'report.txt and report.md hold the same data as text.</p></noscript>'
        "</main>"
        f'<script type="application/json" id="sit-data">{embed_json(view)}</script>'
        f"<script>{_JS}</script></body></html>\n"
    )


_CSS = r"""
:root{--bg:#fff;--fg:#1d2125;--muted:#5f6b76;--line:#d8dee4;--panel:#f6f8fa;--accent:#0b62d6;
--del:#ffd7d5;--ins:#c9f2d0;--hl:#ffe58a;--bug:#c62828;--ok:#2e7d32;--cur:#0b62d6;
font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans CJK SC","Noto Sans CJK JP",
"PingFang SC","Hiragino Sans","Microsoft YaHei","Noto Sans Arabic","Noto Sans Hebrew",sans-serif;
font-size:15px;line-height:1.45;color:var(--fg);background:var(--bg)}
@media (prefers-color-scheme:dark){:root{--bg:#15181c;--fg:#e3e6ea;--muted:#9aa5b1;--line:#343b43;
--panel:#1d2126;--accent:#6aa5ff;--del:#5c2624;--ins:#1f4d2a;--hl:#6b5a12;--cur:#6aa5ff}}
*{box-sizing:border-box}body{margin:0 auto;max-width:1200px;padding:12px 18px 60px}
h1{font-size:1.35rem;margin:.2em 0}h2{font-size:1rem;margin:0 0 .4em}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.85em;overflow-wrap:anywhere}
.muted{color:var(--muted)}.empty{color:var(--muted);font-style:italic}
.warning{background:#fff4e5;color:#663c00;border-left:4px solid #f0a020;padding:4px 8px;margin:4px 0}
@media (prefers-color-scheme:dark){.warning{background:#3a2a10;color:#ffd79a}}
.sigline{margin:.2em 0;overflow-wrap:anywhere}
.panels{display:flex;flex-wrap:wrap;gap:10px;margin:10px 0}
.panel{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:8px 10px;min-width:220px;flex:1 1 220px}
.chart-panel{flex:1 1 470px}.panel.wide{flex:2 1 340px}
table.kv{border-collapse:collapse;font-size:.88rem}table.kv th{text-align:start;font-weight:500;color:var(--muted);padding:1px 10px 1px 0;vertical-align:top}
table.kv td{padding:1px 0;overflow-wrap:anywhere}table.num td{font-variant-numeric:tabular-nums}
svg.chart{max-width:100%;height:auto;font-size:10px}svg .axis{stroke:var(--muted)}
svg text{fill:var(--fg)}svg .tick{fill:var(--muted)}svg .axis-label{fill:var(--muted)}
svg .hist-bar rect:not(.hit){fill:var(--accent)}svg .hit{fill:transparent}
svg .bar{cursor:pointer}svg .bar:hover .hit,svg .bar:focus .hit{fill:rgba(127,127,127,.15)}
svg rect.more{fill:#d9822b}svg rect.fewer{fill:#3d8fd1}svg .rel-name{fill:var(--fg)}
.toolbar{position:sticky;top:0;z-index:2;background:var(--bg);display:flex;flex-wrap:wrap;gap:6px 12px;align-items:center;
padding:8px 0;border-bottom:1px solid var(--line)}
.toolbar label{display:flex;gap:4px;align-items:center;font-size:.9rem}.toolbar .grow{flex:1 1 220px}
.toolbar .grow input{flex:1;min-width:120px}#f-min{width:5em}
input,select,button{font:inherit;font-size:.9rem;color:inherit;background:var(--bg);border:1px solid var(--line);border-radius:4px;padding:2px 6px}
button{cursor:pointer}button:hover{border-color:var(--accent)}
.file-button{border:1px solid var(--line);border-radius:4px;padding:2px 6px;cursor:pointer}
.file-button input{position:absolute;width:1px;height:1px;opacity:0}
#status{color:var(--muted);margin:6px 0}
kbd{border:1px solid var(--line);border-bottom-width:2px;border-radius:3px;padding:0 4px;font-size:.85em}
.sent{border:1px solid var(--line);border-radius:6px;margin:6px 0;background:var(--bg)}
.sent-head{display:flex;gap:10px;align-items:baseline;width:100%;text-align:start;border:0;border-radius:6px;padding:6px 10px;background:var(--panel)}
.sent-head .pos{color:var(--muted);min-width:3.2em;font-variant-numeric:tabular-nums}
.sent-head .dist{font-weight:600;min-width:4.5em;font-variant-numeric:tabular-nums}
.sent-head .n{color:var(--muted);min-width:4.5em}
.sent-head .preview{flex:1;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;min-width:0}
.badge{font-size:.78rem;border-radius:10px;padding:0 7px;white-space:nowrap}
.badge.bug{background:var(--bug);color:#fff}.badge.ok{background:var(--ok);color:#fff}.badge.part{border:1px solid var(--line);color:var(--muted)}
.sent-body{padding:6px 12px 10px}
.issue{border-top:1px solid var(--line);padding:8px 4px 6px;outline:none;scroll-margin-top:100px;scroll-margin-bottom:20px}
.issue.current{box-shadow:inset 4px 0 0 var(--cur);background:rgba(11,98,214,.05)}
.issue.is-bug{box-shadow:inset 4px 0 0 var(--bug)}.issue.is-ok{box-shadow:inset 4px 0 0 var(--ok)}
.issue.current.is-bug,.issue.current.is-ok{background:rgba(11,98,214,.07)}
.issue-head{display:flex;flex-wrap:wrap;gap:4px 14px;align-items:baseline;font-size:.9rem}
.issue-head .rank{font-weight:600}.swap del{background:var(--del);text-decoration:line-through}.swap ins{background:var(--ins);text-decoration:none}
.texts{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:6px 0}
.texts dt{color:var(--muted);font-size:.85rem}
.texts dd{margin:0;overflow-wrap:anywhere;word-break:break-word;unicode-bidi:plaintext;white-space:pre-wrap}
mark{background:var(--hl);color:inherit;border-radius:2px}mark.del{background:var(--del)}mark.ins{background:var(--ins)}
.rels{display:flex;flex-wrap:wrap;gap:4px;list-style:none;padding:0;margin:4px 0}
.rels li{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.8rem;border:1px solid var(--line);border-radius:4px;padding:0 5px}
.rels li.up{border-color:#d9822b}.rels li.down{border-color:#3d8fd1}
.triage{display:flex;flex-wrap:wrap;gap:6px;align-items:center;margin-top:4px}
.triage button[aria-pressed=true].mark-bug{background:var(--bug);color:#fff;border-color:var(--bug)}
.triage button[aria-pressed=true].mark-ok{background:var(--ok);color:#fff;border-color:var(--ok)}
.hidden-note{color:var(--muted);font-size:.85rem}
.src-block{margin:2px 0 6px}
"""

_JS = r"""
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("sit-data").textContent);
  var SENTS = data.sentences, PAGE = 100;
  var SRC = document.body.getAttribute("data-src-lang") || "", TGT = document.body.getAttribute("data-tgt-lang") || "";
  var CATS = data.categories;
  var byId = Object.create(null), sentById = Object.create(null);
  SENTS.forEach(function (s) {
    sentById[s.source_id] = s;
    s.issues.forEach(function (i) { byId[i.id] = i; i._s = s; });
  });
  var STORE = "sit-labels:" + data.run_key;
  var marks = Object.create(null), storageOk = true;
  SENTS.forEach(function (s) { s.issues.forEach(function (i) { if (i.label) marks[i.id] = {label: i.label, category: i.category || null}; }); });
  try {
    var saved = JSON.parse(window.localStorage.getItem(STORE) || "{}");
    Object.keys(saved).forEach(function (k) { if (byId[k]) marks[k] = saved[k]; });
  } catch (e) { storageOk = false; }

  var $ = function (id) { return document.getElementById(id); };
  var listEl = $("list"), moreBtn = $("b-more"), statusEl = $("status");
  var state = {min: 0, rel: "", q: "", label: "all", sort: "worst"};
  var visible = [], shown = 0, flat = [], cur = null;

  function el(tag, cls, text) {
    var n = document.createElement(tag);
    if (cls) n.className = cls;
    if (text !== undefined && text !== null) n.textContent = String(text);
    return n;
  }
  function fmt(x) { return x === null || x === undefined ? "-" : (Math.round(x * 1000) / 1000).toString(); }
  function labelOf(i) { var m = marks[i.id]; return m && m.label ? m.label : null; }

  // Text with highlighted spans (offsets are code points, as Python counts them).
  function marked(text, spans, cls, lang) {
    var dd = el("dd");
    dd.setAttribute("dir", "auto");
    if (lang) dd.setAttribute("lang", lang);
    var cps = Array.from(text || ""), pos = 0;
    (spans || []).slice().sort(function (a, b) { return a[0] - b[0]; }).forEach(function (sp) {
      var s = Math.max(sp[0], pos), e = Math.min(sp[1], cps.length);
      if (s >= e) return;
      if (s > pos) dd.appendChild(document.createTextNode(cps.slice(pos, s).join("")));
      dd.appendChild(el("mark", cls, cps.slice(s, e).join("")));
      pos = e;
    });
    if (pos < cps.length) dd.appendChild(document.createTextNode(cps.slice(pos).join("")));
    return dd;
  }

  function haystack(i) {
    if (i._h === undefined) i._h = [i.original, i.perturbed, i.original_translation, i.perturbed_translation,
      i.before, i.after].join("\n").toLowerCase();
    return i._h;
  }
  function passes(i) {
    if (state.min > 0 && !(i.distance >= state.min)) return false;
    if (state.rel && !i.relations.some(function (r) { return r[0] === state.rel; })) return false;
    if (state.q && haystack(i).indexOf(state.q) < 0) return false;
    if (state.label !== "all") {
      var l = labelOf(i);
      if (state.label === "unlabelled" ? l !== null : l !== state.label) return false;
    }
    return true;
  }

  function compute() {
    visible = [];
    SENTS.forEach(function (s) {
      var keep = s.issues.filter(passes);
      if (keep.length) visible.push({s: s, issues: keep});
    });
    if (state.sort === "issues") visible.sort(function (a, b) { return b.issues.length - a.issues.length || a.s.position - b.s.position; });
    else if (state.sort === "id") visible.sort(function (a, b) { return a.s.source_id - b.s.source_id; });
    flat = [];
    visible.forEach(function (v) { v.issues.forEach(function (i) { flat.push(i.id); }); });
  }

  function badge(s) {
    var n = s.issues.length, bugs = 0, done = 0;
    s.issues.forEach(function (i) { var l = labelOf(i); if (l) done++; if (l === "bug") bugs++; });
    if (bugs) return el("span", "badge bug", bugs + " bug" + (bugs > 1 ? "s" : ""));
    if (done === n) return el("span", "badge ok", "no bug");
    if (done) return el("span", "badge part", done + "/" + n + " marked");
    return null;
  }

  function sentRow(v) {
    var s = v.s, sec = el("section", "sent");
    sec.id = "s-" + s.source_id;
    sec.setAttribute("role", "listitem");
    sec.dataset.sid = s.source_id;
    var head = el("button", "sent-head");
    head.type = "button";
    head.setAttribute("aria-expanded", "false");
    head.appendChild(el("span", "pos", "#" + s.position));
    head.appendChild(el("span", "dist", "d " + fmt(s.max_distance)));
    var n = v.issues.length;
    head.appendChild(el("span", "n", n + (n === s.issues.length ? "" : "/" + s.issues.length) + " issue" + (s.issues.length > 1 ? "s" : "")));
    var b = badge(s); if (b) head.appendChild(b);
    var pre = el("bdi", "preview", s.source); pre.setAttribute("dir", "auto"); if (SRC) pre.setAttribute("lang", SRC);
    head.appendChild(pre);
    head.addEventListener("click", function () { toggle(sec); });
    sec.appendChild(head);
    var body = el("div", "sent-body"); body.hidden = true;
    sec.appendChild(body);
    sec._v = v;
    return sec;
  }

  function triage(i) {
    var box = el("div", "triage"), m = marks[i.id] || {};
    var bug = el("button", "mark-bug", "bug (x)"), ok = el("button", "mark-ok", "not a bug (n)");
    bug.type = ok.type = "button";
    bug.setAttribute("aria-pressed", String(m.label === "bug"));
    ok.setAttribute("aria-pressed", String(m.label === "not_bug"));
    bug.addEventListener("click", function () { setMark(i.id, m.label === "bug" ? null : "bug"); });
    ok.addEventListener("click", function () { setMark(i.id, m.label === "not_bug" ? null : "not_bug"); });
    var sel = el("select", "cat");
    sel.setAttribute("aria-label", "error category");
    sel.appendChild(el("option", null, "error category…")).value = "";
    CATS.forEach(function (c, n) { var o = el("option", null, (n + 1) + " " + c[1]); o.value = c[0]; sel.appendChild(o); });
    sel.value = m.category || "";
    sel.addEventListener("change", function () { setMark(i.id, "bug", sel.value || null); });
    box.appendChild(bug); box.appendChild(ok); box.appendChild(sel);
    return box;
  }

  function issueCard(i) {
    var art = el("article", "issue");
    art.id = "i-" + i.id;
    art.dataset.id = i.id;
    art.tabIndex = -1;
    var l = labelOf(i);
    if (l === "bug") art.classList.add("is-bug"); else if (l === "not_bug") art.classList.add("is-ok");
    if (cur === i.id) art.classList.add("current");
    var head = el("div", "issue-head");
    head.appendChild(el("span", "rank", "#" + i.rank));
    head.appendChild(el("span", "d", "distance " + fmt(i.distance)));
    var swap = el("span", "swap");
    var del = el("del", null, i.before), ins = el("ins", null, i.after);
    del.setAttribute("dir", "auto"); ins.setAttribute("dir", "auto");
    swap.appendChild(del); swap.appendChild(document.createTextNode(" → ")); swap.appendChild(ins);
    head.appendChild(swap);
    Object.keys(i.scores).forEach(function (k) { head.appendChild(el("span", "score", k + " " + fmt(i.scores[k]))); });
    art.appendChild(head);
    var dl = el("dl", "texts");
    dl.appendChild(el("dt", null, "source"));
    dl.appendChild(marked(i.original, i.source_marks[0], "del", SRC));
    dl.appendChild(el("dt", null, "perturbed"));
    dl.appendChild(marked(i.perturbed, i.source_marks[1], "ins", SRC));
    dl.appendChild(el("dt", null, "translation"));
    dl.appendChild(marked(i.original_translation, i.translation_marks[0], "del", TGT));
    dl.appendChild(el("dt", null, "perturbed translation"));
    dl.appendChild(marked(i.perturbed_translation, i.translation_marks[1], "ins", TGT));
    art.appendChild(dl);
    if (i.relations.length) {
      var ul = el("ul", "rels");
      ul.setAttribute("aria-label", "relation counts: original → perturbed translation");
      i.relations.forEach(function (r) { ul.appendChild(el("li", r[2] > r[1] ? "up" : "down", r[0] + " " + r[1] + " → " + r[2])); });
      art.appendChild(ul);
    }
    art.appendChild(triage(i));
    art.addEventListener("click", function (ev) { if (ev.target === art || ev.target.tagName === "DD") setCurrent(i.id, false); });
    return art;
  }

  function fillBody(sec) {
    var v = sec._v, body = sec.querySelector(".sent-body");
    body.textContent = "";
    var src = el("dl", "texts src-block");
    src.appendChild(el("dt", null, "source #" + v.s.source_id));
    var d1 = el("dd", null, v.s.source); d1.setAttribute("dir", "auto"); if (SRC) d1.setAttribute("lang", SRC);
    src.appendChild(d1);
    src.appendChild(el("dt", null, "translation"));
    var d2 = el("dd", null, v.s.translation); d2.setAttribute("dir", "auto"); if (TGT) d2.setAttribute("lang", TGT);
    src.appendChild(d2);
    body.appendChild(src);
    v.issues.forEach(function (i) { body.appendChild(issueCard(i)); });
    var hidden = v.s.issues.length - v.issues.length;
    if (hidden) body.appendChild(el("p", "hidden-note", hidden + " more issue" + (hidden > 1 ? "s" : "") + " of this sentence hidden by the filters"));
  }

  function toggle(sec, open) {
    var body = sec.querySelector(".sent-body"), head = sec.querySelector(".sent-head");
    if (open === undefined) open = body.hidden;
    if (open && !body.childNodes.length) fillBody(sec);
    body.hidden = !open;
    head.setAttribute("aria-expanded", String(open));
  }

  function renderMore() {
    var frag = document.createDocumentFragment(), end = Math.min(visible.length, shown + PAGE);
    for (var n = shown; n < end; n++) frag.appendChild(sentRow(visible[n]));
    listEl.appendChild(frag);
    shown = end;
    moreBtn.hidden = shown >= visible.length;
    moreBtn.textContent = "show more (" + (visible.length - shown) + " more sentences)";
  }

  function status() {
    var nIssues = flat.length;
    statusEl.textContent = "showing " + visible.length + " of " + SENTS.length + " flagged sentences, " +
      nIssues + " of " + data.issue_count + " issues";
  }

  function render() {
    compute();
    listEl.textContent = "";
    shown = 0;
    renderMore();
    status();
    if (cur && flat.indexOf(cur) < 0) cur = null;
  }

  // ---- triage
  function save() {
    if (!storageOk) return;
    try { window.localStorage.setItem(STORE, JSON.stringify(marks)); }
    catch (e) { storageOk = false; $("storage-note").textContent = "marks could not be saved in this browser; export them"; }
  }
  function setMark(id, label, category) {
    var prev = marks[id] || {};
    if (label === null) marks[id] = {label: null, category: null};
    else marks[id] = {label: label, category: label === "bug" ? (category !== undefined ? category : prev.category || null) : null};
    save();
    refreshIssue(id);
    triageSummary();
  }
  function refreshIssue(id) {
    var i = byId[id], old = document.getElementById("i-" + id);
    if (old) { var card = issueCard(i); old.replaceWith(card); if (cur === id) card.focus({preventScroll: true}); }
    var sec = document.getElementById("s-" + i._s.source_id);
    if (sec) {
      var head = sec.querySelector(".sent-head"), b = head.querySelector(".badge");
      if (b) b.remove();
      var nb = badge(i._s);
      if (nb) head.insertBefore(nb, head.querySelector(".preview"));
    }
  }
  function triageSummary() {
    var bugs = 0, ok = 0, cats = Object.create(null);
    Object.keys(marks).forEach(function (k) {
      var m = marks[k];
      if (!m.label || !byId[k]) return;
      if (m.label === "bug") { bugs++; cats[m.category || "uncategorised"] = (cats[m.category || "uncategorised"] || 0) + 1; }
      else ok++;
    });
    $("triage-summary").textContent = (bugs + ok) + " of " + data.issue_count + " issues marked: " + bugs + " bug, " + ok + " not a bug";
    var table = $("precision-table"), topk = (data.signature && data.signature.top_k) || 0;
    if (!topk) SENTS.forEach(function (s) { topk = Math.max(topk, s.issues.length); });
    table.textContent = "";
    var cap = el("caption", null, "top-k precision (unmarked = not a bug)"); cap.style.textAlign = "start";
    table.appendChild(cap);
    for (var k = 1; k <= Math.min(topk, 10); k++) {
      var hits = 0;
      SENTS.forEach(function (s) { if (s.issues.slice(0, k).some(function (i) { return labelOf(i) === "bug"; })) hits++; });
      var tr = el("tr");
      tr.appendChild(el("th", null, "top-" + k));
      tr.appendChild(el("td", null, SENTS.length ? (100 * hits / SENTS.length).toFixed(1) + "% (" + hits + "/" + SENTS.length + ")" : "-"));
      tr.setAttribute("scope", "row");
      table.appendChild(tr);
    }
    CATS.concat([["uncategorised", "uncategorised"]]).forEach(function (c) {
      if (!cats[c[0]]) return;
      var tr = el("tr"); tr.appendChild(el("th", null, c[1])); tr.appendChild(el("td", null, cats[c[0]])); table.appendChild(tr);
    });
  }
  function exportRows() {
    var rows = [];
    SENTS.forEach(function (s) {
      s.issues.forEach(function (i) {
        var m = marks[i.id];
        if (!m || !m.label) return;
        rows.push({issue_id: i.id, source_id: i.source_id, rank: i.rank, label: m.label, category: m.category || null,
          perturbed: i.perturbed, run: data.run_key});
      });
    });
    rows.sort(function (a, b) { return a.source_id - b.source_id || a.rank - b.rank; });
    return rows.map(function (r) { return JSON.stringify(r); }).join("\n") + (rows.length ? "\n" : "");
  }
  function exportLabels() {
    var blob = new Blob([exportRows()], {type: "application/x-ndjson"});
    var url = URL.createObjectURL(blob), a = document.createElement("a");
    a.href = url; a.download = "labels.jsonl";
    document.body.appendChild(a); a.click(); a.remove();
    setTimeout(function () { URL.revokeObjectURL(url); }, 1000);
  }
  function importLabels(file) {
    var reader = new FileReader();
    reader.onload = function () {
      var n = 0, bad = 0;
      String(reader.result).split(/\r?\n/).forEach(function (line) {
        if (!line.trim()) return;
        try {
          var r = JSON.parse(line), id = r.issue_id || (r.source_id + "-" + r.rank), i = byId[id];
          if (!i || (r.perturbed && r.perturbed !== i.perturbed)) { bad++; return; }
          marks[id] = {label: r.label === "bug" || r.label === "not_bug" ? r.label : null, category: r.category || null};
          n++;
        } catch (e) { bad++; }
      });
      save(); render(); triageSummary();
      $("storage-note").textContent = "imported " + n + " labels" + (bad ? ", skipped " + bad : "");
    };
    reader.readAsText(file);
  }

  // ---- navigation
  function ensureShown(id) {
    var sid = byId[id]._s.source_id, idx = -1;
    for (var n = 0; n < visible.length; n++) if (visible[n].s.source_id === sid) { idx = n; break; }
    while (idx >= shown) renderMore();
    var sec = document.getElementById("s-" + sid);
    if (sec) toggle(sec, true);
  }
  function setCurrent(id, scroll) {
    var old = cur && document.getElementById("i-" + cur);
    if (old) old.classList.remove("current");
    cur = id;
    if (!id) return;
    ensureShown(id);
    var card = document.getElementById("i-" + id);
    if (card) {
      card.classList.add("current");
      card.focus({preventScroll: true});
      if (scroll !== false) card.scrollIntoView({block: "nearest"});
    }
  }
  function move(delta) {
    if (!flat.length) return;
    var n = cur ? flat.indexOf(cur) : -1;
    n = n < 0 ? (delta > 0 ? 0 : flat.length - 1) : Math.max(0, Math.min(flat.length - 1, n + delta));
    setCurrent(flat[n]);
  }

  document.addEventListener("keydown", function (ev) {
    var t = ev.target, tag = t && t.tagName;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") {
      if (ev.key === "Escape") t.blur();
      return;
    }
    var k = ev.key;
    if (k === "j") move(1);
    else if (k === "k") move(-1);
    else if (k === "x" && cur) setMark(cur, labelOf(byId[cur]) === "bug" ? null : "bug");
    else if (k === "n" && cur) setMark(cur, labelOf(byId[cur]) === "not_bug" ? null : "not_bug");
    else if (k === "0" && cur) setMark(cur, null);
    else if (/^[1-9]$/.test(k) && cur && CATS[+k - 1]) setMark(cur, "bug", CATS[+k - 1][0]);
    else if (k === "o") {
      var sec = cur ? document.getElementById("s-" + byId[cur]._s.source_id) : null;
      if (sec) toggle(sec);
    }
    else if (k === "/") $("f-q").focus();
    else if (k === "?") $("b-help").click();
    else return;
    ev.preventDefault();
  });

  // ---- controls
  var timer = null;
  function readFilters() {
    var m = parseFloat($("f-min").value);
    state.min = isFinite(m) ? m : 0;
    state.rel = $("f-rel").value;
    state.q = $("f-q").value.trim().toLowerCase();
    state.label = $("f-label").value;
    state.sort = $("f-sort").value;
    render();
  }
  ["f-min", "f-rel", "f-label", "f-sort"].forEach(function (id) { $(id).addEventListener("change", readFilters); });
  $("f-min").addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(readFilters, 200); });
  $("f-q").addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(readFilters, 200); });
  moreBtn.addEventListener("click", renderMore);
  $("b-expand").addEventListener("click", function () {
    while (shown < visible.length && shown < 500) renderMore();
    Array.prototype.forEach.call(listEl.querySelectorAll(".sent"), function (s) { toggle(s, true); });
  });
  $("b-collapse").addEventListener("click", function () {
    Array.prototype.forEach.call(listEl.querySelectorAll(".sent"), function (s) { toggle(s, false); });
  });
  $("b-export").addEventListener("click", exportLabels);
  $("b-import").addEventListener("change", function (ev) { if (ev.target.files[0]) importLabels(ev.target.files[0]); ev.target.value = ""; });
  $("b-help").addEventListener("click", function () {
    var h = $("help"); h.hidden = !h.hidden; $("b-help").setAttribute("aria-expanded", String(!h.hidden));
  });
  function chartClick(sel, fn) {
    Array.prototype.forEach.call(document.querySelectorAll(sel), function (g) {
      g.addEventListener("click", function () { fn(g); });
      g.addEventListener("keydown", function (ev) { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); fn(g); } });
    });
  }
  chartClick(".hist-bar", function (g) { $("f-min").value = g.getAttribute("data-min"); readFilters(); });
  chartClick(".rel-bar", function (g) {
    var rel = g.getAttribute("data-rel");
    $("f-rel").value = $("f-rel").value === rel ? "" : rel;
    readFilters();
  });
  if (!storageOk) $("storage-note").textContent = "this browser keeps no marks for files; export them before closing";
  window.sitReport = {exportRows: exportRows, marks: marks, state: state};
  render();
  triageSummary();
  // Links to one issue (report.html#i-12-1) or sentence (#s-12) open it.
  function follow() {
    var h = decodeURIComponent(location.hash.slice(1));
    if (/^i-/.test(h) && byId[h.slice(2)] && flat.indexOf(h.slice(2)) >= 0) setCurrent(h.slice(2));
    else if (/^s-/.test(h) && sentById[h.slice(2)] && sentById[h.slice(2)].issues.length) {
      var first = sentById[h.slice(2)].issues[0].id;
      if (flat.indexOf(first) >= 0) setCurrent(first);
    }
  }
  window.addEventListener("hashchange", follow);
  follow();
})();
"""
