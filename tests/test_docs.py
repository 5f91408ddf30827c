"""The README stays short and true, and the documentation site builds: `mkdocs build --strict`
(every page in the navigation, no broken link), and CI runs the README's test command."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_the_readme_is_at_most_200_lines_and_its_links_exist():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 200
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)
    assert links and [link for link in links if not link.startswith("http") and not (ROOT / link).exists()] == []


def test_ci_runs_the_readmes_test_command():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    command = re.search(r"^bash scripts/setup\.sh --dev && (\.venv/bin/python -m pytest[^\n]*)$", readme, flags=re.M)
    assert command, "the README gives the test command"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert "bash scripts/setup.sh --dev" in ci and command.group(1) in ci


def test_every_mkdocs_command_of_the_readme_and_docs_says_where_mkdocs_comes_from():
    # mkdocs is in the test extra only (.venv after setup.sh --dev): a bare `mkdocs build` fails in a
    # user's shell; each place that builds the site says how to get it, at the version the extra pins
    pinned = re.search(r'"mkdocs==([\d.]+)"', (ROOT / "pyproject.toml").read_text(encoding="utf-8")).group(1)
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = " ".join(path.read_text(encoding="utf-8").split())
        for m in re.finditer(r"mkdocs build", text):
            around = text[max(0, m.start() - 200):m.end() + 200]
            assert f"pip install mkdocs=={pinned}" in around, (path.name, around)


def test_every_docs_page_is_in_the_sites_navigation():
    yaml = pytest.importorskip("yaml", reason="pip install pyyaml (the test extra)")
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    nav = {page for entry in config["nav"] for page in entry.values()}
    assert nav == {p.name for p in (ROOT / "docs").glob("*.md")}


@pytest.mark.slow
def test_the_site_builds_strictly(tmp_path):
    pytest.importorskip("mkdocs", reason="pip install mkdocs==1.6.1 (the test extra)")
    built = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                           cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr[-3000:]
    assert (tmp_path / "site" / "index.html").is_file() and (tmp_path / "site" / "benchmarks" / "index.html").is_file()
