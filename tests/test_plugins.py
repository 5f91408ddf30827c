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
    assert "(plugin from sit-plugin-demo)" not in sit({**os.environ, "PYTHONPATH": str(ROOT)}, "list").stdout


def test_a_plugin_translator_and_relation_run(copied_run):
    issues = [json.loads(line) for line in (copied_run / "issues.jsonl").read_text().splitlines()]
    # the glossary knows every word of the first two sentences and none of the third's
    assert [(i["source_id"], i["relation"], i["kind"]) for i in issues] == [(3, "copied", "copied")]
    assert issues[0]["original_translation"] == "Quarterly revenue rose sharply yesterday."
    meta = json.loads((copied_run / "run.json").read_text())
    assert meta["signature"]["translator"] == "glossary"
    assert meta["signature"]["relations"] == {"copied": {"share": 0.5}}
    report = (copied_run / "report.txt").read_text()
    assert "most of the source came through untranslated" in report
    translations = [json.loads(line) for line in (copied_run / "translations.jsonl").read_text().splitlines()]
    assert translations[0]["translation"] == "el gato duerme en el casa."


def test_no_file_of_sit_names_the_plugin():
    # (sit check's --glossary and its terms check say "glossary" of their own: the plugin's names are these)
    names = ("GlossaryTranslator", "CopiedRelation", "sit_plugin_demo", "sit-plugin-demo")
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
                           minimum=0, maximum=1, run_wide=True, flag="--min-kept"),)

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
    for out, given in (("strict", ("--set", "min_kept=0.9")), ("flagged", ("--min-kept", "0.9"))):
        # its declared flag (issue 47: one declaration in one file) sets it as --set does
        proc, found = run(out, *given)
        assert proc.returncode == 0, proc.stderr
        assert found == [3]
        meta = json.loads((tmp_path / out / "run.json").read_text())
        assert meta["signature"]["relations"] == {"verbatim": {"min_kept": 0.9}}
        assert meta["config"]["options"]["min_kept"] == 0.9  # what a --baseline run takes
        assert "rel.verbatim.min_kept:0.9" in meta["signature_line"]
        assert "plugin sit-verbatim" in meta["signature"]["versions"]

    proc, _ = run("bad", "--set", "min_kept=2")  # checked by its declaration, before any work
    assert proc.returncode == 2
    assert "--set min_kept must be a finite number of at least 0 and at most 1, not 2" in proc.stderr
    proc, _ = run("bad-flag", "--min-kept", "2")
    assert proc.returncode == 2
    assert "--min-kept must be a finite number of at least 0 and at most 1, not 2.0" in proc.stderr
    proc, _ = run("both", "--min-kept", "0.9", "--set", "min_kept=0.8")
    assert proc.returncode == 2 and "--min-kept and --set min_kept say two things; give one" in proc.stderr
    proc, _ = run("unknown", "--set", "min_kep=0.9")
    assert proc.returncode == 2
    assert "no component of this run takes a run-wide option 'min_kep'; its run-wide options: min_kept" in proc.stderr


def test_a_run_wide_option_declared_once_shows_in_the_help_and_the_listing(verbatim_env):
    """The plugin declares min_kept once (an Option of its relation, with its flag); sit run --help
    lists it under --set and as a flag of its own with its help, sit list -v under its relation
    (the signature: the test above)."""
    said = ("min_kept (float; default 0.5; at least 0; at most 1; run-wide: --set min_kept or --min-kept): the share "
            "of source words")
    helped = sit(verbatim_env, "run", "--help")
    assert helped.returncode == 0, helped.stderr
    assert said in " ".join(helped.stdout.split()) and "[verbatim]" in helped.stdout
    assert "--min-kept MIN_KEPT the share of source words kept that is a finding" in " ".join(helped.stdout.split())
    listed = sit(verbatim_env, "list", "relations", "-v")
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if line.split()[:1] == ["verbatim"])
    assert lines[at + 1].strip().startswith(said)


@pytest.fixture(scope="module")
def copied_run(plugin_env, tmp_path_factory):
    """A run of the plugin's translator and relation (the plugin installed)."""
    tmp = tmp_path_factory.mktemp("copied-run")
    src = tmp / "in.txt"
    src.write_text("The cat sleeps in the house.\nThe dog eats.\nQuarterly revenue rose sharply yesterday.\n",
                   encoding="utf-8")
    proc = sit(plugin_env, "run", "--input", str(src), "--translator", "glossary", "--relation", "copied",
               "--cache-dir", str(tmp / "cache"), "--out", str(tmp / "run"), "--no-progress")
    assert proc.returncode == 0, proc.stderr
    return tmp / "run"


def test_a_plugin_only_run_s_signature_names_no_option_of_sit_s_components(copied_run):
    meta = json.loads((copied_run / "run.json").read_text())
    line, version = meta["signature_line"], meta["signature"]["versions"]["sit"]
    # the glossary translator's block, the copied relation's, then the run's own settings
    assert line == f"tr:glossary|model:glossary-10|rel:copied|rel.copied.share:0.5|src:en|tgt:es|thr:0|k:3|seed:0|version:{version}"
    assert not {"num_perturb", "distance"} & set(meta["signature"]) and meta["signature"]["perturber_options"] == {}
    assert (meta["signature"]["perturber"], meta["signature"]["parser"]) == ("none", "none")
    from sit.records import RunSignature

    assert RunSignature.parse(line) == RunSignature.from_dict({**meta["signature"], "versions": {"sit": version}})


def test_a_plugin_relations_figures_show_in_every_report(plugin_env, copied_run):
    meta = json.loads((copied_run / "run.json").read_text())
    # one of the three sentences came through copied (the glossary knows none of its words)
    assert meta["copied_share"] == {"sentences": 3, "copied": 1, "share": 0.5}
    bare = {**os.environ, "PYTHONPATH": str(ROOT)}  # the rows are in run.json: no plugin needed to show them
    for env in (plugin_env, bare):
        text = sit(env, "report", str(copied_run), "-f", "text").stdout
        assert "Copied through (source words kept verbatim in the translation):\n" \
               "  sentences copied: 1 of 3 (33.3 %)\n  share of words that makes a copy: 0.50\n" in text
        md = sit(env, "report", str(copied_run), "-f", "markdown").stdout
        assert "## Copied through (source words kept verbatim in the translation)\n\n| measure | value |\n" \
               "| --- | --- |\n| sentences copied | 1 of 3 (33.3 %) |\n| share of words that makes a copy | 0.50 |" in md
        page = sit(env, "report", str(copied_run), "-f", "html", "-o", "-").stdout
        assert ('<h2>Copied through</h2><p class="muted">source words kept verbatim in the translation</p>'
                '<table class="kv"><tr><th scope="row">sentences copied</th><td>1 of 3 (33.3 %)</td></tr>') in page


def test_figures_no_relation_titled_still_show(tmp_path):
    """A run whose relation declared no rows (an older sit, a relation without ``figures``): its
    run-level figures show all the same, one row per value."""
    from sample_runs import sample_issues, write_sample_run

    from sit.report import render
    from sit.rundir import load_run

    run = write_sample_run(tmp_path / "run", sample_issues(2, 1), glossary={"terms": 4, "hit rate": 0.8125})
    text = render(load_run(run), "text")
    assert "glossary:\n  terms: 4\n  hit rate: 0.8125\n" in text
    assert "| terms | 4 |" in render(load_run(run), "markdown")


def test_a_plugin_report_format(plugin_env, copied_run):
    import csv
    import io

    proc = sit(plugin_env, "report", str(copied_run), "-f", "rows")
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.reader(io.StringIO(proc.stdout)))
    issues = [json.loads(line) for line in (copied_run / "issues.jsonl").read_text().splitlines()]
    assert rows[0][:4] == ["relation", "kind", "source_id", "rank"]
    assert rows[1:] == [["copied", "copied", "3", "1", "Quarterly revenue rose sharply yesterday.",
                         "Quarterly revenue rose sharply yesterday.", "Quarterly revenue rose sharply yesterday.",
                         "Quarterly revenue rose sharply yesterday."]]
    assert len(issues) == 1
    assert "rows" in sit(plugin_env, "list", "formats").stdout
    # it writes no comparison, and without the plugin the format is unknown: one line each
    proc = sit(plugin_env, "compare", str(copied_run), str(copied_run), "-f", "rows")
    assert proc.returncode != 0 and "the format 'rows' writes no comparison; use one of: html, jsonl, junit, markdown, " \
                                    "text" in proc.stderr and "Traceback" not in proc.stderr
    proc = sit({**os.environ, "PYTHONPATH": str(ROOT)}, "report", str(copied_run), "-f", "rows")
    assert proc.returncode != 0 and "unknown report format 'rows'; use one of: csv, html, jsonl, markdown, sarif, text" in proc.stderr


EXTRAS = {  # a package of its own: a scorer and a summarizer, found through entry points
    "pyproject.toml": """[build-system]
requires = ["setuptools>=68"]
build-backend = "setuptools.build_meta"

[project]
name = "sit-tiny-extras"
version = "0.2.0"

[project.entry-points."sit.scorers"]
overlap = "sit_tiny_extras:Overlap"

[project.entry-points."sit.summarizers"]
first = "sit_tiny_extras:FirstWords"

[tool.setuptools]
packages = ["sit_tiny_extras"]
""",
    "sit_tiny_extras/__init__.py": '''
from sit.eval import Scorer, register_scorer
from sit.summarize import Summarizer


@register_scorer("overlap", "WordOverlap")
class Overlap(Scorer):
    def score_sentence(self, hyp, ref, lang=None):
        a, b = set(hyp.split()), set(ref.split())
        return len(a & b) / len(a | b) if a | b else 1.0


class FirstWords(Summarizer):
    name = "first"

    def _summarize_batch(self, docs):
        return [" ".join(d.split()[:2]) for d in docs]
''',
}


def test_plugin_scorers_and_summarizers(tmp_path):
    src = tmp_path / "src"
    for name, text in EXTRAS.items():
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        (src / name).write_text(text, encoding="utf-8")
    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation", "--no-index",
                    "--target", str(site), str(src)], check=True, capture_output=True)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(site)])}
    code = ("from sit.eval.core import make_scorer\nfrom sit.summarize import SUMMARIZERS\n"
            "print(make_scorer('overlap').score_sentence('a b c', 'a b d'), make_scorer('overlap').name)\n"
            "print(SUMMARIZERS.create('first').summarize(['One two three.', '']))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == ["0.5 WordOverlap", "['One two', '']"]
    assert "overlap" in sit(env, "list", "scorers").stdout
    # the allow-list keeps them out: the names are unknown, in one line
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**env, "SIT_PLUGINS": ""}, timeout=300)
    assert "unknown scorer 'overlap'" in proc.stderr
