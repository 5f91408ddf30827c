"""End to end: report.html in a real headless Chromium (Debian's `chromium`, driven by Playwright).

Opens a generated report from disk, counts rows, filters, marks issues with the mouse and the
keyboard, checks that marks survive a reload, exports labels.jsonl, computes precision from the
exported file, and saves screenshots to ``test-artifacts/`` (or ``$SIT_TEST_ARTIFACTS``). Any
console error or uncaught exception fails the test. A page built from hostile inputs must show
them as text.

Needs ``apt-get install chromium`` and ``pip install playwright`` (never ``playwright install``:
the system Chromium is used through ``executable_path``).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from sit.cli import main
from sit.ignorefile import IgnoreFile
from sit.report import write_reports
from sit.report.labels import load_labels
from sit.report.precision import precision_by_relation, run_precision
from sample_runs import HOSTILE_ROWS, sample_issues, sample_relation_issues, sample_signature, write_sample_run
from sit.rundir import load_run

CHROMIUM = os.environ.get("SIT_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

if not Path(CHROMIUM).is_file():
    pytest.skip(f"no Chromium at {CHROMIUM}: `apt-get install -y chromium` (CI installs it)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed: `pip install playwright`")

ARTIFACTS = Path(os.environ.get("SIT_TEST_ARTIFACTS") or Path(__file__).resolve().parent.parent / "test-artifacts")


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


class Page:
    """A fresh page that records console errors, uncaught exceptions and dialogs."""

    def __init__(self, browser, width=1280, height=900):
        self.context = browser.new_context(viewport={"width": width, "height": height}, accept_downloads=True)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        self.requests: list[str] = []
        self.page.on("console", lambda m: self.errors.append(f"console.{m.type}: {m.text}") if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        self.page.on("request", lambda r: self.requests.append(r.url))

        def dialog(d):
            self.dialogs.append(d.message)
            d.dismiss()

        self.page.on("dialog", dialog)

    def open(self, path: Path):
        self.page.goto(path.resolve().as_uri())
        self.page.wait_for_selector("#status:not(:empty)")
        return self.page

    def close(self):
        self.context.close()


@pytest.fixture
def tab(browser):
    t = Page(browser)
    yield t
    t.close()


def _count(page, selector: str) -> int:
    return page.locator(selector).count()


def _wait_rows(page, n: int) -> None:
    page.wait_for_function("n => document.querySelectorAll('#list .sent').length === n", arg=n)


def test_report_in_chromium_filter_mark_export_precision(tmp_path, tab):
    run_dir = write_sample_run(tmp_path / "run", sample_issues(30, 3, seed=5))
    write_reports(run_dir)
    run = load_run(run_dir)
    page = tab.open(run_dir / "report.html")

    # rows: one per flagged sentence, worst first
    assert _count(page, "#list .sent") == 30
    assert "showing 30 of 30 flagged sentences, 90 of 90 findings" in page.inner_text("#status")
    dists = [float(t.split()[1]) for t in page.locator("#list .sent .dist").all_inner_texts()]
    assert dists == sorted(dists, reverse=True)
    # the page opens on the findings: the worst sentences are open, the run's details closed
    assert page.locator("#list .sent").nth(0).locator(".sent-body").is_visible()
    assert page.locator("#list .sent").nth(0).locator(".issue mark").count() >= 1
    assert not page.locator("#run-details .sigline").first.is_visible()
    # the first screen says what the run did and found, in run.json's counts
    counts = json.loads((run_dir / "run.json").read_text())["counts"]
    summary = page.locator("#summary")
    assert summary.is_visible() and summary.bounding_box()["y"] + summary.bounding_box()["height"] < 900
    assert f"{counts['issues']} findings in {counts['flagged_sentences']} flagged sentences" in summary.inner_text()
    assert f"{counts['sentences']} sentences" in summary.inner_text() and counts["issues"] == 90

    # filter: minimum distance, then text search, then relation
    threshold = sorted({i.distance for i in run.issues})[-2]
    want = len({i.pair.source_id for i in run.issues if i.distance >= threshold})
    page.fill("#f-min", str(threshold))
    page.dispatch_event("#f-min", "change")
    _wait_rows(page, want)
    assert want < 30
    page.fill("#f-min", "0")
    page.dispatch_event("#f-min", "change")
    word = run.issues[0].pair.edit.after
    want = len({i.pair.source_id for i in run.issues if word in " ".join(
        [i.pair.original, i.pair.perturbed, i.original_translation, i.perturbed_translation])})
    page.fill("#f-q", word)
    _wait_rows(page, want)
    page.fill("#f-q", "")
    _wait_rows(page, 30)
    rel = sorted({r for i in run.issues for r, (a, b) in i.relation_diff.items() if a != b})[0]
    page.select_option("#f-rel", rel)
    _wait_rows(page, len({i.pair.source_id for i in run.issues if rel in i.relation_diff}))
    page.select_option("#f-rel", "")
    _wait_rows(page, 30)

    # open the worst sentence; its issues show the substituted word and the translation diff
    first = page.locator("#list .sent").nth(0)
    first.locator(".sent-head").click()
    cards = first.locator(".issue")
    assert cards.count() == 3
    assert first.locator(".issue").nth(0).locator("mark.ins").count() >= 1

    # mark with the keyboard: j selects the first issue, x marks it a bug
    page.keyboard.press("j")
    page.keyboard.press("x")
    first_id = first.locator(".issue").nth(0).get_attribute("data-id")
    assert page.locator(f'[data-id="{first_id}"] .mark-bug').get_attribute("aria-pressed") == "true"

    # mark with the mouse: the second sentence's 2nd issue is a bug (over-translation), its 1st is not
    second = page.locator("#list .sent").nth(1)
    second.locator(".sent-head").click()
    second.locator(".issue").nth(1).locator(".mark-bug").click()
    second.locator(".issue").nth(1).locator("select.cat").select_option("over-translation")
    second.locator(".issue").nth(0).locator(".mark-ok").click()
    assert "3 of 90 findings marked: 2 bug, 1 not a bug" in page.inner_text("#triage-summary")

    # j walks on from the first sentence's last issue into the second sentence; k walks back
    for _ in range(3):
        page.keyboard.press("j")
    assert second.locator(".issue.current").get_attribute("data-id") == second.locator(".issue").nth(0).get_attribute("data-id")
    page.keyboard.press("k")
    assert first.locator(".issue.current").get_attribute("data-id") == first.locator(".issue").nth(2).get_attribute("data-id")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "report.png"))

    # marks persist in the browser, also when the same command runs again (a new creation time)
    meta = json.loads((run_dir / "run.json").read_text())
    (run_dir / "run.json").write_text(json.dumps({**meta, "created": "2031-01-01T00:00:00+00:00"}))
    write_reports(run_dir)
    page.reload()
    page.wait_for_selector("#status:not(:empty)")
    page.locator("#list .sent").nth(0).locator(".sent-head").click()
    assert page.locator(f'[data-id="{first_id}"] .mark-bug').get_attribute("aria-pressed") == "true"
    assert "3 of 90 findings marked" in page.inner_text("#triage-summary")
    page.fill("#f-q", "")
    page.select_option("#f-label", "bug")
    _wait_rows(page, 2)
    page.select_option("#f-label", "all")

    # export labels.jsonl and compute precision from the exported file
    with page.expect_download() as info:
        page.click("#b-export")
    download = info.value
    assert download.suggested_filename == "labels.jsonl"
    labels_path = tmp_path / "labels.jsonl"
    download.save_as(str(labels_path))
    rows = [json.loads(line) for line in labels_path.read_text(encoding="utf-8").splitlines()]
    assert sorted(r["label"] for r in rows) == ["bug", "bug", "not_bug"]
    assert {r["category"] for r in rows if r["label"] == "bug"} == {None, "over-translation"}
    result = run_precision(run, load_labels(labels_path))
    assert [p.hits for p in result.at_k] == [1, 2, 2]
    assert result.at_k[0].precision == pytest.approx(1 / 30)
    assert result.categories == {"over-translation": 1, "uncategorised": 1}
    shutil.copy(labels_path, ARTIFACTS / "labels.jsonl")
    assert main(["precision", str(run_dir), str(labels_path)]) == 0

    # a report re-rendered with the labels shows them without browser storage
    assert main(["report", str(run_dir), "--labels", str(labels_path), "-o", str(tmp_path / "labelled.html")]) == 0
    fresh = Page(tab.page.context.browser)
    try:
        p2 = fresh.open(tmp_path / "labelled.html")
        assert "3 of 90 findings marked: 2 bug, 1 not a bug" in p2.inner_text("#triage-summary")
        # a link to one issue opens its sentence and selects it
        last = max(run.issues, key=lambda i: (i.pair.source_id, i.rank))
        link = f"{last.pair.source_id}-{last.rank}"
        p2.goto((tmp_path / "labelled.html").resolve().as_uri() + f"#i-{link}")
        p2.wait_for_selector(".issue.current")
        assert p2.locator(".issue.current").get_attribute("data-id") == link
        assert fresh.errors == []
    finally:
        fresh.close()

    assert tab.errors == [], tab.errors
    assert tab.dialogs == []
    assert all(u.startswith(("file:", "blob:", "data:")) for u in tab.requests), tab.requests


def test_hostile_inputs_render_as_text(tmp_path, tab):
    sig = sample_signature(translator="<img src=x onerror=window.__pwned=3>", target_lang='"><script>x</script>')
    run_dir = write_sample_run(tmp_path / "hostile", sample_issues(2, 2, extra=HOSTILE_ROWS), signature=sig,
                               warnings=["<img src=x onerror=alert(1)> warning"])
    write_reports(run_dir, ("html",))
    page = tab.open(run_dir / "report.html")
    n = 2 + len(HOSTILE_ROWS)
    assert _count(page, "#list .sent") == n
    page.click("#b-expand")
    page.wait_for_function("n => document.querySelectorAll('#list .issue').length === n", arg=4 + len(HOSTILE_ROWS))
    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert page.locator("img").count() == 0
    assert page.locator("#list b, #list script, #list table").count() == 0
    text = page.inner_text("#list")
    assert "<script>window.__pwned=1</script> The cat sat." in text
    assert "</td></tr></table><b>El gato</b>" in text
    assert 'He said "stop" & \'go\' <!-- now' in text
    assert "<img src=x onerror=alert(1)> warning" in page.inner_text("header")
    assert "<img src=x onerror=window.__pwned=3>" in page.title()
    # very long lines wrap instead of widening the page
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    # right-to-left translations are laid out right to left; CJK text is intact
    rtl = page.locator("#list dd", has_text="الشاطئ قريب جدا.").first
    assert rtl.evaluate("e => getComputedStyle(e).direction") == "rtl"
    assert page.locator("#list dd", has_text="这条路很长。").count() >= 1
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.locator("#list .sent").nth(n - 3).scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "report-hostile.png"))
    assert tab.errors == [], tab.errors
    assert tab.dialogs == []


def test_relation_filter_and_labels_per_relation(tmp_path, tab):
    run_dir = write_sample_run(tmp_path / "rel", sample_relation_issues(5, seed=4))
    write_reports(run_dir, ("html",))
    run = load_run(run_dir)
    page = tab.open(run_dir / "report.html")
    groups = ["sit", "rti", "patinv", "sit.untranslated"]
    assert [o for o in page.locator("#f-group option").evaluate_all("os => os.map(o => o.value)")] == ["", *groups]
    _wait_rows(page, 5 + 5 + 5 + 1)  # each group's sentences apart, in the run's order
    assert page.locator("#list .sent .group").all_inner_texts()[:6] == ["sit"] * 5 + ["rti"]
    page.select_option("#f-group", "rti")
    _wait_rows(page, 5)
    assert set(page.locator("#list .sent").evaluate_all("ss => ss.map(s => s.dataset.group)")) == {"rti"}
    assert "10 of 26 findings" in page.inner_text("#status")

    # sit's 0-1 and rti's 0-1 have the same source and rank: marks stay apart
    sent = page.locator("#s-rti\\:0")
    sent.locator(".sent-head").click()
    assert sent.locator("dt").all_inner_texts()[:4] == ["container #0", "translation", "container", "phrase"]
    sent.locator('[data-id="rti:0-1"] .mark-bug').click()
    sent.locator('[data-id="rti:0-2"] .mark-ok').click()
    page.select_option("#f-group", "sit")
    _wait_rows(page, 5)
    page.locator("#s-sit\\:0 .sent-head").click()
    page.locator('[data-id="0-1"] .mark-ok').click()
    assert page.locator('[data-id="0-1"] .mark-ok').get_attribute("aria-pressed") == "true"
    page.click("#run-details > summary")  # the precision table is one click away
    rti_rows = page.locator('#precision-table tr[data-group="rti"]').all_inner_texts()
    assert rti_rows[0].split() == ["rti", "top-1", "20.0%", "(1/5)"]
    assert page.locator('#precision-table tr[data-group="sit"]').first.inner_text().split()[-1] == "(0/5)"
    with page.expect_download() as info:
        page.click("#b-export")
    labels_path = tmp_path / "labels.jsonl"
    info.value.save_as(str(labels_path))
    rows = [json.loads(line) for line in labels_path.read_text(encoding="utf-8").splitlines()]
    assert [(r["relation"], r["issue_id"], r["label"]) for r in rows] == [
        ("sit", "0-1", "not_bug"), ("rti", "rti:0-1", "bug"), ("rti", "rti:0-2", "not_bug")]
    results = precision_by_relation(run, load_labels(labels_path))
    assert [p.hits for p in results["rti"].at_k] == [1, 1, 1] and results["sit"].bugs == 0
    assert "patinv" not in results

    # the findings marked not a bug as .sitignore lines (issue 48): the ignore file suppresses those two
    with page.expect_download() as info:
        page.click("#b-ignore")
    ignore_path = tmp_path / "sitignore.txt"
    info.value.save_as(str(ignore_path))
    _, ignored = IgnoreFile.load(ignore_path).split(list(run.issues))
    assert sorted(i.issue_id for i in ignored) == ["0-1", "rti:0-2"]

    # the exported file imports back onto the right issues of a fresh page
    fresh = Page(tab.page.context.browser)
    try:
        write_reports(run_dir, ("html",))
        p2 = fresh.open(run_dir / "report.html")
        p2.set_input_files("#b-import", str(labels_path))
        p2.wait_for_function("() => document.getElementById('storage-note').textContent.indexOf('imported 3') === 0")
        assert "3 of 26 findings marked: 1 bug, 2 not a bug" in p2.inner_text("#triage-summary")
        assert fresh.errors == []
    finally:
        fresh.close()
    assert tab.errors == [], tab.errors


def test_the_first_screen_lists_the_bugs_by_root_cause_and_marks_them_whole(tmp_path, tab):
    run_dir = write_sample_run(tmp_path / "clusters", sample_relation_issues(5, seed=4))
    write_reports(run_dir, ("html",))
    clusters = [json.loads(line) for line in (run_dir / "clusters.jsonl").read_text(encoding="utf-8").splitlines()]
    issues = (run_dir / "issues.jsonl").read_text(encoding="utf-8").splitlines()
    assert sum(c["findings"] for c in clusters) == len(issues) == 26
    page = tab.open(run_dir / "report.html")
    heading = page.locator("#clusters h2")
    assert heading.inner_text() == f"The bugs: {len(clusters)} root cause(s) of 26 finding(s), worst first"
    first = page.locator("#clusters table.clusters").first
    assert first.locator("tbody tr").count() == min(10, len(clusters))
    assert first.bounding_box()["y"] + first.bounding_box()["height"] < 900  # on the first screen
    titles = first.locator(".cluster-link").all_inner_texts()
    assert titles == [c["title"] for c in clusters[:10]]
    worst = clusters[0]
    first.locator(".cluster-link").first.click()
    page.wait_for_function("n => document.getElementById('status').textContent.indexOf(n + ' of 26 findings') >= 0",
                           arg=worst["findings"])
    first.locator('.cluster-mark[data-label="bug"]').first.click()
    assert f"{worst['findings']} of 26 findings marked: {worst['findings']} bug" in page.inner_text("#triage-summary")
    assert first.locator('.cluster-mark[data-label="bug"]').first.get_attribute("aria-pressed") == "true"
    with page.expect_download() as info:
        page.click("#b-export")
    path = tmp_path / "labels.jsonl"
    info.value.save_as(str(path))
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert sorted(r["issue_id"] for r in rows) == sorted(worst["issue_ids"])
    assert {r["cluster_id"] for r in rows} == {worst["cluster_id"]} and {r["label"] for r in rows} == {"bug"}
    assert tab.errors == [], tab.errors
