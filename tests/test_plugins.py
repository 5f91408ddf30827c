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


VERBATIM = '''
"""``verbatim``: a plugin relation with a run-wide option, in one module that touches no file of sit."""

import re

from sit.options import Option
from sit.records import Edit, Issue, Pair
from sit.relations import Relation


class VerbatimRelation(Relation):
    name = "verbatim"
    title = "source words came through verbatim"
    sides = ("source", "source")
    option_specs = (Option("min_kept", float, 0.5, "the share of source words kept that is a finding",
                           minimum=0, maximum=1, run_wide=True),)

    def __init__(self, ctx, *, min_kept=0.5):
        super().__init__(ctx)
        self.min_kept = min_kept

    def signature(self):
        return {"min_kept": self.min_kept}

    def cases(self, ids, texts):
        return [Pair(i, t, t, Edit(0, "", "", "verbatim", level="sentence"), relation=self.name)
                for i, t in zip(ids, texts)]

    def sources(self, cases):
        return [p.original for p in cases]

    def check(self, cases, translation):
        found = []
        for p in cases:
            words, out = re.findall(r"[a-z]+", p.original.lower()), translation.get(p.original) or ""
            kept = sum(w in words for w in re.findall(r"[a-z]+", out.lower())) / len(words)
            if kept >= self.min_kept:
                found.append(Issue(p, out, out, kept, {}))
        return self.checked(found, cases=len(cases), compared=len(cases))
'''


@pytest.fixture(scope="module")
def verbatim_env(tmp_path_factory):
    """A process with the demo plugin (its glossary translator) and a one-module relation package
    that declares a run-wide option, each installed with pip as its own distribution."""
    pkg = tmp_path_factory.mktemp("verbatim-pkg")
    (pkg / "sit_verbatim.py").write_text(VERBATIM, encoding="utf-8")
    (pkg / "pyproject.toml").write_text(
        '[build-system]\nrequires = ["setuptools>=68"]\nbuild-backend = "setuptools.build_meta"\n'
        '[project]\nname = "sit-verbatim"\nversion = "0.2.0"\n'
        '[project.entry-points."sit.relations"]\nverbatim = "sit_verbatim:VerbatimRelation"\n'
        '[tool.setuptools]\npy-modules = ["sit_verbatim"]\n', encoding="utf-8")
    site = tmp_path_factory.mktemp("verbatim-site")
    for path in (PLUGIN, pkg):
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation",
                        "--no-index", "--target", str(site), str(path)], check=True, capture_output=True)
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(site)])}


def test_a_plugin_relation_takes_a_run_wide_option_from_the_command_line(verbatim_env, tmp_path):
    src = tmp_path / "in.txt"
    # the glossary keeps none, 2 of 4 and all of these sentences' words
    src.write_text("The cat sleeps in the house.\nThe big report came.\nQuarterly revenue rose sharply yesterday.\n",
                   encoding="utf-8")

    def run(out, *options):
        proc = sit(verbatim_env, "run", "--input", str(src), "--translator", "glossary", "--relation", "verbatim",
                   *options, "--cache-dir", str(tmp_path / "cache"), "--out", str(tmp_path / out), "--no-progress")
        found = [] if proc.returncode else [
            json.loads(line)["source_id"] for line in (tmp_path / out / "issues.jsonl").read_text().splitlines()]
        return proc, found

    proc, found = run("default")
    assert proc.returncode == 0, proc.stderr
    assert sorted(found) == [2, 3]  # the declared default, 0.5
    proc, found = run("strict", "--set", "min_kept=0.9")
    assert proc.returncode == 0, proc.stderr
    assert found == [3]
    meta = json.loads((tmp_path / "strict" / "run.json").read_text())
    assert meta["signature"]["relations"] == {"verbatim": {"min_kept": 0.9}}
    assert meta["config"]["options"]["min_kept"] == 0.9  # what a --baseline run takes
    assert "rel.verbatim.min_kept:0.9" in meta["signature_line"]
    assert "plugin sit-verbatim" in meta["signature"]["versions"]

    proc, _ = run("bad", "--set", "min_kept=2")  # checked by its declaration, before any work
    assert proc.returncode == 2
    assert "--set min_kept must be a finite number of at least 0 and at most 1, not 2" in proc.stderr
    proc, _ = run("unknown", "--set", "min_kep=0.9")
    assert proc.returncode == 2
    assert "no component of this run takes a run-wide option 'min_kep'; its run-wide options: min_kept" in proc.stderr
