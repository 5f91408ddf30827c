"""A run's findings read from issues.jsonl when asked (sit.rundir.IssueFile), and the reports
made from them a sentence at a time: on a real Apertium run, the lazy sequence behaves as the
list issues.jsonl holds, damage is the InputError it always was, and every report is the one the
same findings held in a list give."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from sit.errors import InputError
from sit.report import render, write_reports
from sit.report.clusters import CLUSTERS_FILE
from sit.rundir import IssueFile, load_run


@pytest.fixture(scope="module")
def news_run(tmp_path_factory) -> Path:
    if not shutil.which("apertium"):
        pytest.skip("needs Apertium (apt-get install apertium apertium-eng-spa)")
    from sit.pipeline import RunConfig, run

    root = tmp_path_factory.mktemp("stream")
    return run(RunConfig(dataset="news", limit=40, translator="apertium", relations="sit,numbers,passthrough,case",
                         perturber="character_swap", out=str(root / "run"), cache_dir=str(root / "cache"),
                         progress=False, command="test")).run_dir


@pytest.fixture(autouse=True)
def _streamed(monkeypatch):
    """The findings read as a long run's are (none held: the news run's 500-odd are under the
    bound a short run's are held by, IssueFile.HOLD)."""
    from sit.rundir import IssueFile

    monkeypatch.setattr(IssueFile, "HOLD", 0)


def _rows(run_dir: Path) -> list[dict]:
    return [json.loads(line) for line in (run_dir / "issues.jsonl").read_text(encoding="utf-8").splitlines()]


def _copy(run_dir: Path, to: Path) -> Path:
    shutil.copytree(run_dir, to)
    return to


def test_the_findings_read_from_the_file_are_the_rows_it_holds_in_order(news_run):
    rows = _rows(news_run)
    issues = load_run(news_run).issues
    assert isinstance(issues, IssueFile) and len(rows) > 20
    assert len({r["group"] for r in rows}) > 1  # several groups: their order is the file's
    assert len(issues) == len(rows)
    assert [i.issue_id for i in issues] == [r["issue_id"] for r in rows]
    assert [i.issue_id for i in issues] == [i.issue_id for i in issues]  # read again, the same
    assert [i.pair.perturbed for i in issues] == [r["perturbed"] for r in rows]
    for k in (0, 1, len(rows) // 2, len(rows) - 1, -1, -len(rows)):
        assert issues[k].issue_id == rows[k]["issue_id"]
        assert issues[k] == list(issues)[k]
    assert [i.issue_id for i in issues[3:15:4]] == [r["issue_id"] for r in rows[3:15:4]]
    assert [i.issue_id for i in issues.at([5, 0, 5, len(rows) - 1])] == [
        rows[5]["issue_id"], rows[0]["issue_id"], rows[5]["issue_id"], rows[-1]["issue_id"]]
    with pytest.raises(IndexError):
        issues[len(rows)]
    assert issues == list(issues) and bool(issues)


def _damage(path: Path, line: int, text: str) -> None:
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[line - 1] = text + "\n"
    path.write_text("".join(lines), encoding="utf-8")


@pytest.mark.parametrize("bad, why", [("{not json", "not valid JSON"),
                                      ('{"source_id": "three"}', "not a row sit reads here")])
def test_a_damaged_line_is_the_input_error_load_run_always_gave(news_run, tmp_path, bad, why):
    run_dir = _copy(news_run, tmp_path / "run")
    _damage(run_dir / "issues.jsonl", 3, bad)
    with pytest.raises(InputError) as found:
        load_run(run_dir)
    message = str(found.value)
    assert message.startswith(f"{run_dir / 'issues.jsonl'}:3: {why}")
    assert message.endswith("the run directory is damaged: run `sit run` again")


def test_a_line_damaged_after_loading_is_named_when_it_is_read(news_run, tmp_path):
    run_dir = _copy(news_run, tmp_path / "run")
    issues = load_run(run_dir).issues
    first = issues[0]
    path = run_dir / "issues.jsonl"
    data = path.read_bytes()
    third = data.index(b"\n", data.index(b"\n") + 1) + 1  # the third line, damaged in place (same length)
    path.write_bytes(data[:third] + b"#" + data[third + 1:])
    assert issues[0] == first  # the lines before it still read
    with pytest.raises(InputError, match=r"issues\.jsonl:3: not valid JSON"):
        issues[2]
    with pytest.raises(InputError, match=r"issues\.jsonl:3: not valid JSON"):
        list(issues)


@pytest.mark.parametrize("fmt", ["text", "html", "markdown", "jsonl"])
def test_each_report_is_the_one_the_findings_held_in_a_list_give(news_run, fmt):
    lazy = load_run(news_run)
    held = replace(load_run(news_run), issues=list(load_run(news_run).issues))
    assert render(lazy, fmt) == render(held, fmt)
    assert render(lazy, fmt, max_chars=None) == render(held, fmt, max_chars=None)


def test_the_reports_the_run_wrote_are_those_its_findings_held_in_a_list_give(news_run, tmp_path):
    held_dir = _copy(news_run, tmp_path / "held")
    held = load_run(held_dir)
    write_reports(replace(held, issues=list(held.issues)), formats=("text", "html", "markdown", "jsonl"))
    lazy_dir = _copy(news_run, tmp_path / "lazy")
    write_reports(load_run(lazy_dir), formats=("text", "html", "markdown", "jsonl"))
    for name in ("report.txt", "report.html", "report.md", "report.jsonl", CLUSTERS_FILE):
        assert (lazy_dir / name).read_bytes() == (held_dir / name).read_bytes(), name
    assert (news_run / "report.txt").read_bytes() == (lazy_dir / "report.txt").read_bytes()
    assert (news_run / CLUSTERS_FILE).read_bytes() == (lazy_dir / CLUSTERS_FILE).read_bytes()


class _Counting(IssueFile):
    """An IssueFile that counts the findings read by position."""

    read = 0

    def at(self, indices):
        for issue in super().at(indices):
            type(self).read += 1
            yield issue


def test_markdown_within_its_budget_reads_only_the_findings_it_shows(news_run):
    run = load_run(news_run)
    counting = _Counting(run.issues.path, run.issues.convert)
    counted = replace(run, issues=counting)
    full = render(counted, "markdown", max_chars=None)  # the clusters and the view's facts, then every finding
    _Counting.read = 0
    small = render(counted, "markdown", max_chars=full.index("## Flagged sentences") + 6000)
    assert "flagged sentence(s) left out" in small
    shown = small.count("##### Issue ")
    examples = len((news_run / CLUSTERS_FILE).read_text(encoding="utf-8").splitlines())  # one per cluster's row
    assert 0 < shown < len(run.issues) - examples - 3
    assert _Counting.read <= examples + shown + 3  # the clusters' examples, what it shows and one sentence more
    _Counting.read = 0
    whole = render(counted, "markdown", max_chars=None)
    assert whole.count("##### Issue ") == len(run.issues)
    # every finding read once to be shown, the clusters' examples at most once more (streamed cluster rows
    # read their examples with the rows: stop 46)
    assert len(run.issues) <= _Counting.read <= examples + len(run.issues)


def test_a_short_runs_findings_are_read_once_and_held(news_run, tmp_path, monkeypatch):
    # at most HOLD findings: read once, then held (a damage after loading is not seen); one more
    # than HOLD: read from the file when asked (the damage is named)
    from sit.rundir import IssueFile

    run_dir = _copy(news_run, tmp_path / "run")
    count = len(_rows(run_dir))
    for hold, held in ((count, True), (count - 1, False)):
        monkeypatch.setattr(IssueFile, "HOLD", hold)
        path = run_dir / "issues.jsonl"
        good = path.read_bytes()
        issues = load_run(run_dir).issues
        expected = list(issues)
        path.write_bytes(good[:good.index(b"\n") + 1] + b"#" + good[good.index(b"\n") + 2:])
        try:
            if held:
                assert list(issues) == expected and issues[1] == expected[1]
            else:
                with pytest.raises(InputError, match=r"issues\.jsonl:2: not valid JSON"):
                    issues[1]
        finally:
            path.write_bytes(good)
