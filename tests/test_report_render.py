"""Renderers of a run directory: HTML, text, Markdown, JSONL; `sit report`; write_reports."""

import json
import re
from html.parser import HTMLParser

import pytest

from sit.cli import main
from sit.errors import ConfigError
from sit.report import render, write_reports
from sit.report.html import embed_json
from sit.report.labels import Label
from sit.report.markdown import md_escape
from sit.report.model import build_view, format_relations, histogram, relation_changes
from sample_runs import HOSTILE_ROWS, sample_issues, sample_relation_issues, sample_signature, write_sample_run
from sit.rundir import load_run


@pytest.fixture
def run_dir(tmp_path):
    return write_sample_run(tmp_path / "run", sample_issues(12, 3, seed=1))


@pytest.fixture
def hostile_dir(tmp_path):
    sig = sample_signature(translator="<script>alert('sig')</script>", translator_model='"><svg onload=x>')
    return write_sample_run(tmp_path / "hostile", sample_issues(2, 2, extra=HOSTILE_ROWS), signature=sig,
                            warnings=["<b>bold</b> warning"], command="sit run --out '</title><script>x</script>'")


class _Collect(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.scripts, self._in_script, self.attrs = [], [], False, []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs.extend(attrs)
        if tag == "script":
            self._in_script = True
            self.scripts.append([dict(attrs), ""])

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_script = False

    def handle_data(self, data):
        if self._in_script:
            self.scripts[-1][1] += data


def test_view_orders_sentences_worst_first_and_issues_by_rank(run_dir):
    view = build_view(load_run(run_dir))
    maxima = [s["max_distance"] for s in view["sentences"]]
    assert maxima == sorted(maxima, reverse=True)
    assert [s["position"] for s in view["sentences"]] == list(range(1, len(maxima) + 1))
    for s in view["sentences"]:
        assert [i["rank"] for i in s["issues"]] == list(range(1, len(s["issues"]) + 1))
        assert {i["id"] for i in s["issues"]} == {f"{s['source_id']}-{i['rank']}" for i in s["issues"]}
    assert view["issue_count"] == 36 and len(view["sentences"]) == 12
    assert sum(b["count"] for b in view["histogram"]) == 36


@pytest.mark.parametrize(
    "diff, want_rows, want_text",
    [
        ({"nsubj": (1, 2), "obj": (1, 0)}, [["nsubj", 1, 2], ["obj", 1, 0]], "nsubj 1 -> 2, obj 1 -> 0"),
        ({"amod": (0, 3), "det": (2, 2), "obj": (1, 0)}, [["amod", 0, 3], ["obj", 1, 0]], "amod 0 -> 3, obj 1 -> 0"),
        ({}, [], ""),
    ],
)
def test_relation_changes(diff, want_rows, want_text):
    assert relation_changes(diff) == want_rows
    assert format_relations(relation_changes(diff)) == want_text


@pytest.mark.parametrize(
    "distances, want_labels, want_counts",
    [
        ([1, 2, 2, 4], ["1", "2", "3", "4"], [1, 2, 0, 1]),
        ([3.0, 3.0], ["3"], [2]),
        ([], [], []),
    ],
)
def test_histogram_integer_bins(distances, want_labels, want_counts):
    bins = histogram(distances)
    assert [b["label"] for b in bins] == want_labels
    assert [b["count"] for b in bins] == want_counts


def test_histogram_float_bins_cover_all_values():
    values = [i / 7 for i in range(100)]
    bins = histogram(values, max_bins=10)
    assert len(bins) == 10 and sum(b["count"] for b in bins) == 100


def test_html_is_self_contained_and_embeds_the_view(run_dir):
    page = render(load_run(run_dir), "html")
    parser = _Collect()
    parser.feed(page)
    # no external resources of any kind
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", page)
    assert "Content-Security-Policy" in page
    assert [a for a in parser.attrs if a[0] == "src"] == []
    data = [body for attrs, body in parser.scripts if attrs.get("type") == "application/json"]
    assert len(data) == 1
    view = json.loads(data[0])
    assert len(view["sentences"]) == 12 and view["issue_count"] == 36
    assert page.count("<svg") == 2  # histogram and relations chart


def test_html_escapes_hostile_inputs(hostile_dir):
    page = render(load_run(hostile_dir), "html")
    parser = _Collect()
    parser.feed(page)
    # exactly the two scripts of the page itself: the data block and the program
    assert [attrs.get("type") for attrs, _ in parser.scripts] == ["application/json", None]
    assert "img" not in parser.tags and "b" not in parser.tags
    assert "<script>alert" not in page and "onerror=\"window" not in page
    assert "&lt;script&gt;alert(&#x27;sig&#x27;)&lt;/script&gt;" in page  # signature, escaped
    assert "&lt;b&gt;bold&lt;/b&gt; warning" in page
    # the embedded JSON holds the texts intact, with no markup characters in the page source
    data = json.loads(parser.scripts[0][1])
    texts = {i["original"] for s in data["sentences"] for i in s["issues"]}
    assert HOSTILE_ROWS[0][0] in texts and HOSTILE_ROWS[1][0] in texts
    assert "</script><img" not in parser.scripts[0][1]


@pytest.mark.parametrize("text", ["</script><script>alert(1)</script>", "a & b <!-- c", "\u2028line\u2029sep", "]]>"])
def test_embed_json_round_trips_without_markup(text):
    out = embed_json({"t": text})
    assert not set("<>&") & set(out)
    assert "\u2028" not in out and "\u2029" not in out
    assert json.loads(out) == {"t": text}


@pytest.mark.parametrize(
    "text, want",
    [
        ("<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"),
        ("a | b", "a \\| b"),
        ("*bold* _it_ `code` [link](x) ~~s~~", "\\*bold\\* \\_it\\_ \\`code\\` \\[link\\](x) \\~\\~s\\~\\~"),
        ("AT&T", "AT&amp;T"),
        ("two\nlines", "two lines"),
        ("back\\slash", "back\\\\slash"),
    ],
)
def test_md_escape(text, want):
    assert md_escape(text) == want


def test_markdown_escapes_hostile_inputs_and_highlights(hostile_dir, run_dir):
    md = render(load_run(hostile_dir), "markdown")
    assert "<script>" not in md and "<img" not in md and "</td>" not in md
    assert "&lt;script&gt;window.\\_\\_pwned=1&lt;/script&gt;" in md
    assert "AT&T" not in md
    md = render(load_run(run_dir), "markdown")
    issue = load_run(run_dir).issues[0]
    assert f"**{issue.pair.edit.after}**" in md  # the substituted word is highlighted
    assert md.count("##### Issue ") == 36
    assert md.count("#### ") - md.count("##### ") == 12  # one heading per flagged sentence
    assert md.count("\n### sit: ") == 1  # under the one group of findings


def test_jsonl_has_one_line_per_issue_in_page_order(run_dir):
    run = load_run(run_dir)
    rows = [json.loads(line) for line in render(run, "jsonl").splitlines()]
    view = build_view(run)
    assert [r["issue_id"] for r in rows] == [i["id"] for s in view["sentences"] for i in s["issues"]]
    first = rows[0]
    assert first["sentence_position"] == 1 and first["rank"] == 1
    assert first["source_translation"] == view["sentences"][0]["translation"]
    original = first["original"]
    (start, end), = first["source_marks"][0]
    assert original[start:end] == first["before"]


def test_renderings_agree_on_the_issues(run_dir):
    run = load_run(run_dir)
    text, md = render(run, "text"), render(run, "markdown")
    page = render(run, "html")
    for issue in run.issues:
        assert issue.pair.perturbed in text
        assert md_escape(issue.pair.perturbed) in md.replace("**", "").replace("~~", "")
        assert json.dumps(issue.pair.perturbed, ensure_ascii=False)[1:-1] in page


def test_labels_show_in_every_rendering(run_dir):
    run = load_run(run_dir)
    first = min(run.issues, key=lambda i: (i.pair.source_id, i.rank))
    label = Label(first.pair.source_id, first.rank, "bug", "under-translation")
    labels = {label.key: label}
    view = build_view(run, labels)
    issue = next(i for s in view["sentences"] for i in s["issues"] if i["id"] == f"{first.pair.source_id}-{first.rank}")
    assert (issue["label"], issue["category"]) == ("bug", "under-translation")
    assert view["precision"]["sit"]["bugs"] == 1
    assert "- **label:** bug (under-translation)" in render(run, "markdown", labels)
    assert "top-k precision" in render(run, "text", labels)
    rows = [json.loads(line) for line in render(run, "jsonl", labels).splitlines()]
    assert sum(r["label"] == "bug" for r in rows) == 1


def test_empty_run_renders(tmp_path):
    root = write_sample_run(tmp_path / "empty", [])
    run = load_run(root)
    for fmt in ("html", "text", "markdown", "jsonl"):
        out = render(run, fmt)
        assert isinstance(out, str)
    assert render(run, "jsonl") == ""
    assert "No issues" in render(run, "markdown")


def test_unknown_format_is_a_config_error(run_dir):
    with pytest.raises(ConfigError, match="unknown report format"):
        render(load_run(run_dir), "pdf")


def test_write_reports_writes_text_and_html_by_default(run_dir):
    for name in ("report.txt", "report.html"):
        (run_dir / name).unlink(missing_ok=True)
    written = write_reports(run_dir)
    assert set(written) == {"text", "html"}
    assert (run_dir / "report.txt").read_text(encoding="utf-8").startswith("sit:")
    assert (run_dir / "report.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


@pytest.mark.parametrize(
    "fmt, start",
    [("text", "sit:"), ("markdown", "# sit report"), ("jsonl", '{"issue_id"')],
)
def test_cli_report_prints_text_formats(run_dir, capsys, fmt, start):
    assert main(["report", str(run_dir), "--format", fmt]) == 0
    assert capsys.readouterr().out.startswith(start)


def test_cli_report_writes_html_into_the_run_dir_and_to_output(run_dir, tmp_path, capsys):
    (run_dir / "report.html").unlink(missing_ok=True)
    assert main(["report", str(run_dir)]) == 0
    assert (run_dir / "report.html").is_file()
    out = tmp_path / "elsewhere" / "r.md"
    assert main(["report", str(run_dir), "-f", "markdown", "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8").startswith("# sit report")


def test_cli_report_with_labels(run_dir, tmp_path, capsys):
    issue = load_run(run_dir).issues[0]
    labels = tmp_path / "labels.jsonl"
    labels.write_text(json.dumps({"source_id": issue.pair.source_id, "rank": issue.rank, "label": "bug"}) + "\n")
    assert main(["report", str(run_dir), "-f", "text", "--labels", str(labels)]) == 0
    assert "1 of 36 issues labelled" in capsys.readouterr().out


@pytest.mark.parametrize("args, message", [
    (["report", "/nonexistent/run"], "not a sit run directory"),
])
def test_cli_report_errors(args, message, capsys):
    assert main(args) == 2
    assert message in capsys.readouterr().err


def test_report_cli_does_not_recompute(run_dir):
    """Re-rendering reads only the run directory: in a fresh interpreter (this session's imports
    cannot hide one), rendering imports no translator, parser, perturber, relation or model library
    (the relations' face, ``sit.relations``, its ``base`` and ``names``, names relations and holds no
    relation's code: records read the relation of rows that name none in ``names``)."""
    import subprocess
    import sys

    code = ("import sys; from sit.report import render; from sit.rundir import load_run; "
            "sys.stdout.write(render(load_run(sys.argv[1]), 'html')); "
            "print(sorted(m for m in sys.modules if m.startswith(('sit.translators', 'sit.parse', 'sit.perturb', "
            "'sit.relations.', 'torch', 'transformers', 'spacy', 'stanza', 'nltk')) "
            "and m not in ('sit.relations.base', 'sit.relations.names')), "
            "file=sys.stderr)")
    proc = subprocess.run([sys.executable, "-c", code, str(run_dir)], capture_output=True, text=True, timeout=120)
    assert proc.stderr.strip() == "[]", proc.stderr
    assert proc.stdout == render(load_run(run_dir), "html")


@pytest.mark.parametrize("name, damage", [
    ("issues.jsonl", "[1, 2, 3]\n"),
    ("issues.jsonl", '{"pair": "not an object"}\n'),
    ("issues.jsonl", '{"unexpected": true}\n'),
    ("issues.jsonl", '"a string"\n'),
    ("pairs.jsonl", '{"source_id": 1}\n'),
    ("translations.jsonl", "[1]\n"),
    ("run.json", "[1, 2]\n"),
    ("run.json", '{"signature": "x"}\n'),
], ids=lambda v: v if isinstance(v, str) and len(v) < 20 else None)
@pytest.mark.parametrize("fmt", ["html", "text"])
def test_a_damaged_run_directory_is_a_one_line_error(run_dir, capsys, name, damage, fmt):
    (run_dir / name).write_text(damage)
    assert main(["report", str(run_dir), "-f", fmt, "-o", str(run_dir / "out")]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert err.startswith("sit: error: ") and name in err
    assert not (run_dir / "out").exists()


def test_the_page_inlines_its_css_and_script_from_package_data_unchanged(run_dir):
    from importlib import resources

    static = resources.files("sit.report").joinpath("static")
    css, js = (static.joinpath(n).read_text(encoding="utf-8") for n in ("report.css", "report.js"))
    assert len(css) > 1000 and len(js) > 1000
    page = render(load_run(run_dir), "html")
    assert f"<style>{css}</style>" in page and f"<script>{js}</script>" in page


def test_every_rendering_groups_findings_by_relation(tmp_path):
    run = load_run(write_sample_run(tmp_path / "rel", sample_relation_issues(3, seed=2)))
    rti_label = Label(0, 1, "bug", "mistranslation", group="rti")  # same source and rank as a sit issue
    view = build_view(run, {rti_label.key: rti_label})
    assert [(g["group"], g["sentences"], g["issues"]) for g in view["groups"]] == [
        ("sit", 3, 6), ("rti", 3, 6), ("patinv", 3, 3), ("sit.untranslated", 1, 1)]
    assert [s["group"] for s in view["sentences"]] == ["sit"] * 3 + ["rti"] * 3 + ["patinv"] * 3 + ["sit.untranslated"]
    assert len({s["key"] for s in view["sentences"]}) == 10  # one key per sentence of each group
    labelled = [(i["id"], i["label"]) for s in view["sentences"] for i in s["issues"] if i["label"]]
    assert labelled == [("rti:0-1", "bug")], "the label names the rti issue only, not sit's 0-1"
    assert list(view["precision"]) == ["rti"] and view["precision"]["rti"]["precision"][0]["hits"] == 1
    rti = next(s for s in view["sentences"] if s["group"] == "rti")
    assert rti["sides"] == ["container", "phrase"]
    md = render(run, "markdown", {rti_label.key: rti_label})
    heads = [line for line in md.splitlines() if line.startswith("### ")]
    assert [h.split(":")[0] for h in heads] == ["### rti", "### sit", "### rti", "### patinv", "### sit.untranslated"]
    assert md.index("### rti: a noun phrase") < md.index("- **phrase translation:**") < md.index("### patinv: ")
    assert "- **not in the container's translation:** traducido" in md
    text = render(run, "text", {rti_label.key: rti_label})
    assert "== rti: a noun phrase is translated differently" in text and "== sit:" not in text
    rows = [json.loads(line) for line in render(run, "jsonl").splitlines()]
    assert {(r["relation"], r["kind"]) for r in rows} == {("sit", ""), ("rti", ""), ("patinv", ""), ("sit", "untranslated")}


def test_the_page_opens_on_the_findings_with_the_run_details_one_click_away(run_dir):
    page = render(load_run(run_dir), "html")
    details = page.index('<details id="run-details">')
    assert page.index("<h1>") < details < page.index('id="list"')
    closed = page[details:page.index("</details>")]
    assert "<h2>Signature</h2>" in closed and "<h2>Counts</h2>" in closed and 'class="sigline"' in closed
    assert '<details id="run-details" open' not in page
    assert page.index("</details>") < page.index('id="list"')
