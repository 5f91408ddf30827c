"""Plugins: a translator and a relation from a separate package (examples/plugin), installed only
for this test with pip into a directory of its own, are found through entry points: they run in
``sit run`` and appear in ``sit list``, and no file of sit names them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PLUGIN = ROOT / "examples" / "plugin"


@pytest.fixture(scope="module")
def plugin_env(tmp_path_factory):
    """The environment of a process that has the demo plugin installed (pip, --target)."""
    site = tmp_path_factory.mktemp("plugin-site")
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation",
                    "--no-index", "--target", str(site), str(PLUGIN)], check=True, capture_output=True)
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(site)])}


def sit(env, *args, cwd=None):
    return subprocess.run([sys.executable, "-m", "sit.cli", *args], capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=300)


def test_sit_list_shows_the_plugins(plugin_env):
    out = sit(plugin_env, "list").stdout
    assert "glossary             (plugin from sit-plugin-demo)" in out
    assert "copied               (plugin from sit-plugin-demo)" in out
    assert "glossary" not in sit({**os.environ, "PYTHONPATH": str(ROOT)}, "list").stdout


def test_a_plugin_translator_and_relation_run(plugin_env, tmp_path):
    src = tmp_path / "in.txt"
    src.write_text("The cat sleeps in the house.\nThe dog eats.\nQuarterly revenue rose sharply yesterday.\n",
                   encoding="utf-8")
    proc = sit(plugin_env, "run", "--input", str(src), "--translator", "glossary", "--relation", "copied",
               "--cache-dir", str(tmp_path / "cache"), "--out", str(tmp_path / "run"), "--no-progress")
    assert proc.returncode == 0, proc.stderr
    issues = [json.loads(line) for line in (tmp_path / "run" / "issues.jsonl").read_text().splitlines()]
    # the glossary knows every word of the first two sentences and none of the third's
    assert [(i["source_id"], i["relation"], i["kind"]) for i in issues] == [(3, "copied", "copied")]
    assert issues[0]["original_translation"] == "Quarterly revenue rose sharply yesterday."
    meta = json.loads((tmp_path / "run" / "run.json").read_text())
    assert meta["signature"]["translator"] == "glossary"
    assert meta["signature"]["relations"] == {"copied": {"share": 0.5}}
    report = (tmp_path / "run" / "report.txt").read_text()
    assert "most of the source came through untranslated" in report
    translations = [json.loads(line) for line in (tmp_path / "run" / "translations.jsonl").read_text().splitlines()]
    assert translations[0]["translation"] == "el gato duerme en el casa."


def test_no_file_of_sit_names_the_plugin():
    names = ("glossary", "GlossaryTranslator", "CopiedRelation", "sit_plugin_demo")
    hits = [str(p) for p in (ROOT / "sit").rglob("*.py") if any(n in p.read_text(encoding="utf-8") for n in names)]
    assert hits == []
