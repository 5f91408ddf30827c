"""The Markdown report (``report.md``), from the same view model as the HTML page.

Every text taken from inputs or translations goes through :func:`md_escape`: HTML is written as
entities and Markdown punctuation is backslash-escaped, so it renders as the text it is.
"""

from __future__ import annotations

import re
from typing import Any, Optional

from .budget import MAX_CHARS, Budget, fit
from .diff import segments
from .labels import CATEGORIES

#: where the whole report is, said where the Markdown was cut to fit
FULL_REPORT = "the full report is report.html and report.txt in the run directory (`sit report RUN_DIR -f text`)"

# Inline Markdown punctuation (texts are never placed at the start of a line, so # - + . are safe).
_MD_SPECIAL = re.compile(r"([\\`*_\[\]|~])")


def md_escape(text: Any) -> str:
    """``text`` as literal Markdown (inline): HTML entities for ``& < >``, backslashes for the rest."""
    s = str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    s = _MD_SPECIAL.sub(r"\\\1", s)
    return " ".join(s.split("\n")).replace("\r", " ")


def _highlight(text: str, spans: list[list[int]], mark: str) -> str:
    """Highlighted words in ``mark`` (``**`` or ``~~``), the rest escaped."""
    out = []
    for piece, hl in segments(text, [tuple(s) for s in spans]):
        escaped = md_escape(piece)
        if hl and piece.strip():
            lead = escaped[: len(escaped) - len(escaped.lstrip())]
            trail = escaped[len(escaped.rstrip()):]
            out.append(f"{lead}{mark}{escaped.strip()}{mark}{trail}")
        else:
            out.append(escaped)
    return "".join(out)


def _row(cells: list[Any]) -> str:
    return "| " + " | ".join(md_escape(c) for c in cells) + " |"


def _num(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:.4g}"
    return str(v)


def render_markdown(view: dict[str, Any], max_chars: Optional[int] = MAX_CHARS) -> str:
    """The report as Markdown: the summary and tables first, then the flagged sentences, as many as
    fit in ``max_chars`` (:mod:`sit.report.budget`; None: all)."""
    lines = [f"# {md_escape(view['title'])}", "", *_summary_md(view), "", *_clusters_md(view.get("clusters") or []),
             f"Signature: {md_escape(view['signature_short'])}", "", f"Full signature: {md_escape(view['signature_line'])}", ""]
    if view["created"]:
        lines += [f"Created {md_escape(view['created'])}.", ""]
    if view["perturber_reason"]:
        lines += [f"Perturber: {md_escape(view['perturber_reason'])}", ""]
    for name, note in view.get("notes", []):
        lines += [f"{md_escape(name.capitalize())}: {md_escape(note)}", ""]
    for w in view["warnings"]:
        lines += [f"> **warning:** {md_escape(w)}", ""]
    lines += ["## Signature", "", "| field | value |", "| --- | --- |"]
    lines += [_row([name, value]) for _k, name, value in view["signature_fields"]]
    if view["versions"]:
        lines.append(_row(["versions", ", ".join(f"{k} {v}" for k, v in sorted(view["versions"].items()))]))
    lines += ["", "## Counts", "", "| count | value |", "| --- | ---: |"]
    lines += [_row([k, f"{v:,}" if isinstance(v, int) else v]) for k, v in view["counts"]]
    if view["timings"]:
        lines += ["", "## Timings", "", "| stage | seconds |", "| --- | ---: |"]
        lines += [_row([k, "-" if v is None else f"{v:.2f}"]) for k, v in view["timings"]]
    for table in view["figures"]:  # each relation's run-level figures, as it titled them
        note = f" ({md_escape(table['note'])})" if table["note"] else ""
        lines += ["", f"## {md_escape(table['title'])}{note}", "", "| measure | value |", "| --- | --- |"]
        lines += [_row(row) for row in table["rows"]]
    if view["histogram"]:
        lines += ["", "## Distances", "", "| distance | issues |", "| --- | ---: |"]
        lines += [_row([b["label"], b["count"]]) for b in view["histogram"]]
    if view["relations"]:
        lines += ["", "## Relations that change", "", "| relation | issues | more | fewer | total change |",
                  "| --- | ---: | ---: | ---: | ---: |"]
        lines += [_row([s["relation"], s["issues"], s["more"], s["fewer"], s["change"]]) for s in view["relations"]]
    if view["precision"]:
        lines += ["", *_precision_md(view["precision"])]
    lines += ["", "## Flagged sentences", ""]
    if not view["sentences"]:
        lines.append("No issues: every perturbation kept the structure of its translation.")
    budget = Budget(max_chars)
    budget.fixed(lines)
    for g in view.get("groups", []):
        words = _words_md([w for w in view["words"] if w["group"] == g["group"]])
        if budget.dropped:  # a group after the cut: neither its heading nor its table nor its sentences
            budget.skip(g["sentences"] + bool(words))
            continue
        lines += budget.fixed([f"### {md_escape(g['group'])}: {md_escape(g['title'])}", "",
                               f"{g['issues']} finding(s) in {g['sentences']} sentence(s).", ""])
        lines += budget.item(words)
        made = 0
        for s in ([] if budget.dropped else _of_group(view["sentences"], g["group"])):
            lines += budget.item(_sentence_md(s))
            made += 1
            if budget.dropped:
                break
        budget.skip(g["sentences"] - made)  # those after the first left out: left out too, never made
    lines += budget.note("table(s) and flagged sentence(s)", FULL_REPORT)
    return fit("\n".join(lines).rstrip("\n") + "\n", max_chars, FULL_REPORT)


def _of_group(sentences, group: str):
    """The flagged sentences of ``group``, in order (made as they are read where the view makes
    them so: :meth:`sit.report.model.SentenceViews.of_group`)."""
    of_group = getattr(sentences, "of_group", None)
    return of_group(group) if of_group is not None else (s for s in sentences if s["group"] == group)


def _summary_md(view: dict[str, Any]) -> list[str]:
    """The run's summary (:mod:`sit.report.summary`): what it did, then findings per group."""
    summary = view["summary"]
    lines = [md_escape(line) + "  " for line in summary["work"]] + [md_escape(summary["findings"]), ""]
    if summary["groups"]:
        lines += ["| group | findings | sentences | what it claims |", "| --- | ---: | ---: | --- |"]
        lines += [_row([g["group"], f"{g['findings']:,}", f"{g['sentences']:,}", g["title"]]) for g in summary["groups"]]
    return lines


def _clusters_md(rows: list[dict[str, Any]]) -> list[str]:
    """The bugs by root cause, worst first (:mod:`sit.report.clusters`): one row per cluster."""
    from .clusterrows import total_findings

    if not rows:
        return []
    lines = ["## Bugs by root cause, worst first", "",
             f"{len(rows):,} cluster(s) of {total_findings(rows):,} finding(s).", "",
             "| # | bug | findings | sentences | relations | precision | example | cluster |",
             "| ---: | --- | ---: | ---: | --- | ---: | --- | --- |"]
    for r in rows:
        prec = "-" if r["precision"] is None else f"{100 * r['precision']:.0f}%"
        ex = r["example"]
        example = f"{ex['perturbed']} → {ex['perturbed_translation']}"
        title = r["title"] + (f" (marked {r['label']})" if r.get("label") else "")
        lines.append(_row([r["rank"], title, r["findings"], r["sentences"], ", ".join(r["groups"]), prec, example,
                           r["cluster_id"]]))
    return lines + [""]


def _words_md(rows: list[dict[str, Any]]) -> list[str]:
    """The words a group's findings name, grouped: word, findings, which word, sentences."""
    if not rows:
        return []
    lines = ["| word | findings | which word | source sentences |", "| --- | ---: | --- | --- |"]
    lines += [_row([r["word"], r["count"], r["side"], ", ".join(map(str, r["sources"]))]) for r in rows]
    return lines + [""]


def _sentence_md(s: dict[str, Any]) -> list[str]:
    """One flagged sentence of one group and its issues."""
    a, b = (md_escape(side) for side in s["sides"])
    lines = [f"#### {s['position']}. Source {s['source_id']} (max distance {_num(s['max_distance'])})", "",
             f"- **{a}:** {md_escape(s['source'])}", f"- **translation:** {md_escape(s['translation'])}", ""]
    for i in s["issues"]:
        lines += [f"##### Issue {md_escape(i['id'])}: rank {i['rank']}, distance {_num(i['distance'])}", ""]
        lines.append(f"- **edit:** ~~{md_escape(i['before'])}~~ → **{md_escape(i['after'])}**")
        lines.append(f"- **{a}:** {_highlight(i['original'], i['source_marks'][0], '~~')}")
        lines.append(f"- **{b}:** {_highlight(i['perturbed'], i['source_marks'][1], '**')}")
        lines.append(f"- **translation:** {_highlight(i['original_translation'], i['translation_marks'][0], '~~')}")
        lines.append(f"- **{b} translation:** "
                     f"{_highlight(i['perturbed_translation'], i['translation_marks'][1], '**')}")
        if i["relations"]:
            lines.append("- **relations:** " + ", ".join(f"{md_escape(rel)} {x} → {y}" for rel, x, y in i["relations"]))
        if i["evidence"].get("missing"):
            lines.append("- **not in the container's translation:** " + md_escape(", ".join(i["evidence"]["missing"])))
        if i["scores"]:
            lines.append("- **scores (0-1):** " + ", ".join(f"{md_escape(k)} {v:.3f}" for k, v in i["scores"].items()))
        if i["label"]:
            cat = f" ({md_escape(CATEGORIES.get(i['category'], i['category']))})" if i["category"] else ""
            lines.append(f"- **label:** {'bug' if i['label'] == 'bug' else 'not a bug'}{cat}")
        lines.append("")
    return lines


def _precision_md(by_group: dict[str, dict[str, Any]]) -> list[str]:
    lines = ["## Precision from labels"]
    for group, p in by_group.items():
        lines += ["", f"### {md_escape(group)}", ""] + _precision_table(p)
    return lines


def _precision_table(p: dict[str, Any]) -> list[str]:
    lines = [f"{p['labelled']} of {p['issues']} issues labelled: {p['bugs']} bug, {p['not_bugs']} not a bug.", "",
             "| k | precision | hits | sentences | judged | unlabelled in top-k |", "| ---: | ---: | ---: | ---: | ---: | ---: |"]
    for row in p["precision"]:
        prec = "-" if row["precision"] is None else f"{100 * row['precision']:.1f}%"
        lines.append(_row([row["k"], prec, row["hits"], row["sentences"], row["judged"], row["unlabelled"]]))
    if p["categories"]:
        lines += ["", "| error category | bugs |", "| --- | ---: |"]
        lines += [_row([CATEGORIES.get(k, k), v]) for k, v in p["categories"].items()]
    return lines
