"""The excerpts of runs in README.md and docs/ are a real run's (issue 49): the quick start's command
run now, with an empty cache, gives every marked block its lines (scripts/excerpts.py writes them),
and the text around them says what that run shows."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from conftest import requires_apertium

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import excerpts  # noqa: E402  (scripts/excerpts.py)

pytestmark = [requires_apertium, pytest.mark.slow]


@pytest.fixture(scope="module")
def quick_start(tmp_path_factory) -> Path:
    return excerpts.quick_start_run(tmp_path_factory.mktemp("quick-start"))


def test_every_excerpt_is_the_quick_starts_run(quick_start):
    made = excerpts.excerpts(quick_start)
    marked = [(name, m.group("name")) for name in excerpts.FILES
              for m in excerpts.BLOCK.finditer((ROOT / name).read_text(encoding="utf-8"))]
    assert {block for _, block in marked} == set(made) and len(marked) >= 3  # README, the site's index, report.md
    assert excerpts.stale(made) == [], "run `python scripts/excerpts.py` and commit what it writes"
    assert "0 from the cache" in made["quick-start-summary"]  # a first run, as the docs say


def test_the_text_around_the_excerpt_says_what_the_run_shows(quick_start):
    report = (quick_start / "report.txt").read_text(encoding="utf-8")
    groups = [line.split()[0] for line in excerpts.summary_lines(report) if "finding(s) in" in line]
    for name in ("README.md", "docs/index.md"):
        text = " ".join((ROOT / name).read_text(encoding="utf-8").split())
        claims_none = "this run has no `sit` line, that is no structure finding" in text
        assert claims_none == ("sit" not in groups), name  # says there is none exactly when there is none
        assert "(`sit.untranslated_substitute`)" not in text or "sit.untranslated_substitute" in groups


def test_the_script_rewrites_a_stale_block_and_names_it(tmp_path):
    made = {"quick-start-summary": "  2 sentences\n"}
    text = "intro\n<!-- excerpt: quick-start-summary -->\n```\n  121 findings\n```\nafter\n"
    assert excerpts.rewrite(text, made) == "intro\n<!-- excerpt: quick-start-summary -->\n```\n  2 sentences\n```\nafter\n"
    for name in excerpts.FILES:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text if name == "README.md" else "", encoding="utf-8")
    assert excerpts.stale(made, tmp_path) == ["README.md: quick-start-summary"]
    with pytest.raises(SystemExit, match="no excerpt named 'other'"):
        excerpts.rewrite(text.replace("quick-start-summary", "other"), made)
