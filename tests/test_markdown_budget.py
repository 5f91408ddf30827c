"""`sit report -f markdown` and `sit compare -f markdown` keep to --max-chars (a pull-request
comment holds 65,536 characters): summary first, then the top items while they fit, then a line
saying how many were left out and where the full report is. On a real Apertium run."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import requires_apertium

pytestmark = requires_apertium
ROOT = Path(__file__).resolve().parent.parent


def _sit(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sit.cli", *args], capture_output=True, text=True, timeout=600,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory) -> Path:
    from sit.pipeline import RunConfig, run

    root = tmp_path_factory.mktemp("budget")
    return run(RunConfig(dataset="news", limit=12, top_k=0, translator="apertium", out=str(root / "run"),
                         cache_dir=str(root / "cache"), progress=False, command="test")).run_dir


@pytest.fixture(scope="module")
def no_findings(run_dir, tmp_path_factory) -> Path:
    """The same run with its findings taken out (issues.jsonl emptied): compared with it, every
    finding of ``run_dir`` is new, as in a pull request that brings them."""
    import shutil

    base = tmp_path_factory.mktemp("budget-base") / "run"
    shutil.copytree(run_dir, base)
    (base / "issues.jsonl").write_text("", encoding="utf-8")
    return base


def test_the_report_keeps_to_max_chars_summary_first_and_says_what_it_left_out(run_dir):
    whole = _sit("report", str(run_dir), "-f", "markdown", "--max-chars", "10000000")
    assert whole.returncode == 0 and "left out" not in whole.stdout
    sentences = len(re.findall(r"^#### ", whole.stdout, flags=re.M))
    budget = whole.stdout.index("## Flagged sentences") + 4000  # the summary and tables, and room for a few
    assert len(whole.stdout) > budget + 2000 and sentences > 3  # a report worth cutting

    cut = _sit("report", str(run_dir), "-f", "markdown", "--max-chars", str(budget))
    assert cut.returncode == 0 and len(cut.stdout) <= budget
    assert cut.stdout.startswith(whole.stdout[:300])  # the summary comes first, as in the whole report
    kept = re.findall(r"^#### .*", cut.stdout, flags=re.M)
    assert kept == re.findall(r"^#### .*", whole.stdout, flags=re.M)[: len(kept)]  # the top ones, in order
    said = re.search(r"\*\*(\d+) table\(s\) and flagged sentence\(s\) left out\*\*.*report\.html", cut.stdout)
    assert said and int(said.group(1)) >= sentences - len(kept) > 0
    bad = _sit("report", str(run_dir), "-f", "markdown", "--max-chars", "10")
    assert bad.returncode == 2 and "--max-chars" in bad.stderr


def test_a_summary_longer_than_the_budget_is_cut_with_its_sections_closed(run_dir, no_findings):
    cut = _sit("compare", str(no_findings), str(run_dir), "-f", "markdown", "--max-chars", "1500")
    assert cut.returncode == 0 and len(cut.stdout) <= 1500 and "**cut at 1,500 characters**" in cut.stdout
    assert cut.stdout.count("<details") == cut.stdout.count("</details>")


def test_the_comparison_keeps_to_max_chars_and_the_default_is_60000(run_dir, no_findings):
    whole = _sit("compare", str(no_findings), str(run_dir), "-f", "markdown", "--max-chars", "10000000")
    assert whole.returncode == 0 and len(whole.stdout) > 4000 and "left out" not in whole.stdout
    listed = len(re.findall(r"^- \*\*\[", whole.stdout, flags=re.M))

    budget = whole.stdout.index("<details open>") + 2500  # the summary, tables, and room for a few cases
    assert len(whole.stdout) > budget + 1000  # a comparison worth cutting
    cut = _sit("compare", str(no_findings), str(run_dir), "-f", "markdown", "--max-chars", str(budget))
    assert cut.returncode == 0 and len(cut.stdout) <= budget
    assert cut.stdout.count("<details") == cut.stdout.count("</details>")  # every section closed
    said = re.search(r"\*\*(\d+) case\(s\) left out\*\*.*-f text", cut.stdout)
    assert said and int(said.group(1)) == listed - len(re.findall(r"^- \*\*\[", cut.stdout, flags=re.M))

    from sit.compare import compare_runs, render

    default = render(compare_runs(no_findings, run_dir), "markdown")
    assert default == whole.stdout  # under the default 60,000: nothing cut


def test_a_comparison_with_nothing_new_or_fixed_is_short_and_shows_what_it_says(run_dir):
    # a run compared with itself: every finding persists. The markdown (a pull-request comment) says
    # so in a few lines: no case listed, no empty signature table, no escape shown as written
    from markdown_it import MarkdownIt

    same = _sit("compare", str(run_dir), str(run_dir), "-f", "markdown")
    assert same.returncode == 0
    text = same.stdout
    persisting = int(re.search(r"(\d+) persisting,", text).group(1))
    assert persisting > 3 and f"{persisting} persisting finding(s), in both runs, are not listed here" in text
    assert len(text) < 4000, len(text)
    assert not re.search(r"^- \*\*\[", text, flags=re.M)  # no case listed
    assert "every signature field is the same" in text and "| signature |" not in text
    html = MarkdownIt("commonmark").enable("table").render(text)
    assert "&amp;lt;" not in html and "&amp;gt;" not in html  # no entity shown as text (as in a code block)
