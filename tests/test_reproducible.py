"""A run is the same run whatever came into the caches since: auto's choices are kept on a re-run
into the same --out (sit.rerun), a refusal names the fields that differ; `sit compare` refuses
runs that built their cases differently; `sit download` falls back as `sit run` does and tells a
missing model from an unreachable hub; global flags come after the sub-command; the README's A/B
example runs both systems into one language."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import requires_apertium, requires_torch

ROOT = Path(__file__).resolve().parent.parent
FEW = dict(dataset="politics", limit=2, translator="apertium", relations=("sit",), progress=False, command="test")


def _sit(*args: str, env: dict | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sit.cli", *args], capture_output=True, text=True, cwd=cwd,
                          env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}, timeout=600)


def _signature(run_dir: Path) -> dict:
    return json.loads((run_dir / "run.json").read_text(encoding="utf-8"))["signature"]


@requires_apertium
@requires_torch
def test_a_rerun_keeps_autos_perturber_when_a_masked_lm_arrives_and_names_what_differs_when_it_cannot(
        tmp_path, tiny_bert):
    from sit.errors import OutputError
    from sit.pipeline import RunConfig, run

    model = tmp_path / "bert"  # where the masked LM will be: not yet
    config = RunConfig(**FEW, options={"mlm_model": str(model)}, out=str(tmp_path / "run"), cache_dir=str(tmp_path / "cache"))
    first = run(config)
    assert _signature(first.run_dir)["perturber"] == "wordnet"

    shutil.copytree(tiny_bert, model)  # the masked LM arrives: a fresh choice would now be mlm
    again = run(config)
    assert _signature(again.run_dir)["perturber"] == "wordnet"
    assert "kept so that this run matches it" in again.perturber_reason
    elsewhere = run(replace_out(config, tmp_path / "other"))  # a new --out chooses afresh
    assert _signature(elsewhere.run_dir)["perturber"] == "mlm"

    forced = run(replace_out(config, tmp_path / "run", force=True))  # --force chooses afresh too
    assert _signature(forced.run_dir)["perturber"] == "mlm"
    shutil.rmtree(model)  # and the masked LM goes away: mlm cannot be chosen again
    with pytest.raises(OutputError) as refused:
        run(config)
    assert "perturber: mlm there, wordnet now" in str(refused.value)
    assert "perturber_model:" in str(refused.value) and "--force" in str(refused.value)


def replace_out(config, out: Path, **changes):
    from dataclasses import replace

    return replace(config, out=str(out), **changes)


@requires_apertium
def test_compare_refuses_runs_of_other_perturbers_with_status_2_unless_allowed(tmp_path):
    from sit.pipeline import RunConfig, run

    wordnet = run(RunConfig(**FEW, perturber="wordnet", out=str(tmp_path / "a"), cache_dir=str(tmp_path / "c")))
    typos = run(RunConfig(**FEW, perturber="character_swap", out=str(tmp_path / "b"), cache_dir=str(tmp_path / "c")))
    refused = _sit("compare", str(wordnet.run_dir), str(typos.run_dir), "--fail-on", "new")
    assert refused.returncode == 2 and refused.stdout == ""
    assert "not comparable" in refused.stderr and "perturber (wordnet and character_swap)" in refused.stderr
    allowed = _sit("compare", str(wordnet.run_dir), str(typos.run_dir), "--allow-different")
    assert allowed.returncode == 0 and "sit: warning:" in allowed.stderr and "left out" in allowed.stderr


@requires_apertium
def test_download_falls_back_to_spacy_where_stanza_cannot_be_had_as_run_does(tmp_path):
    # offline (the test run's HF_HUB_OFFLINE=1) and no Stanza models: auto parses with spaCy
    got = _sit("download", "--translator", "apertium", "--perturber", "wordnet", cwd=tmp_path)
    assert got.returncode == 0, got.stderr
    assert "Stanza's es parser models: not fetched" in got.stderr and "spaCy pipeline instead" in got.stderr
    # nothing from a hub; the spaCy pipelines the run uses instead (installed) and WordNet, said where
    parts = [line.split("\t")[0] for line in got.stdout.splitlines()]
    assert sorted(parts) == ["spacy", "spacy", "wordnet"], got.stdout
    assert got.stdout.splitlines()[-1].endswith("es_core_news_sm")
    strict = _sit("download", "--translator", "apertium", "--parser", "stanza", cwd=tmp_path)
    assert strict.returncode == 3 and "Stanza's es parser models" in strict.stderr  # asked for: it must be there


def test_a_model_the_reachable_hub_does_not_have_is_said_not_to_exist(tmp_path):
    from fakes.hub import FakeHub

    hub = FakeHub().start()
    try:
        env = {k: v for k, v in os.environ.items() if k != "HF_HUB_OFFLINE"}
        got = subprocess.run([sys.executable, "-m", "sit.cli", "download", "--translator", "marian", "--target-lang",
                              "fr", "--only", "translator"], capture_output=True, text=True, cwd=tmp_path, timeout=300,
                             env={**env, "PYTHONPATH": str(ROOT), **hub.env()})
    finally:
        hub.stop()
    assert got.returncode == 3
    assert "Helsinki-NLP/opus-mt-en-fr does not exist on the model hub" in got.stderr, got.stderr
    assert "unreachable" not in got.stderr and "python -c" not in got.stderr
    assert ("GET", "/api/models/Helsinki-NLP/opus-mt-en-fr") in hub.requests


def test_global_flags_are_taken_after_the_sub_command_too():
    from sit.cli import build_parser

    parser = build_parser()
    assert parser.parse_args(["run", "--dataset", "news", "-v"]).verbose is True
    assert parser.parse_args(["-v", "run", "--dataset", "news"]).verbose is True
    assert parser.parse_args(["compare", "a", "b", "--verbose"]).verbose is True
    assert parser.parse_args(["run", "--dataset", "news"]).verbose is False
    got = _sit("run", "--dataset", "nope", "-v")
    assert got.returncode == 2 and "Traceback" in got.stderr and "unknown dataset 'nope'" in got.stderr


@requires_apertium
@requires_torch
def test_the_readmes_ab_example_runs_both_systems_into_one_language(tmp_path, tiny_marian):
    got = _sit("run", "--dataset", "news", "--limit", "2", "--top-k", "0", "--relation", "sit", "--translator",
               f"apertium,marian:{tiny_marian}", "--out", str(tmp_path / "ab"), "--no-progress", cwd=tmp_path)
    assert got.returncode == 0, got.stderr[-2000:]
    assert {_signature(tmp_path / "ab" / name)["target_lang"] for name in ("apertium", "marian")} == {"es"}
    assert (tmp_path / "ab" / "marian" / "compare.txt").is_file()
