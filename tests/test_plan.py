"""A run resolved once (issue 47): :func:`sit.plan.plan_run` turns the configuration into one
frozen plan, which the pipeline, ``sit download`` and the re-run check read."""

from __future__ import annotations

import dataclasses
import json

import pytest
from conftest import requires_apertium

from sit.cli import main
from sit.errors import ConfigError
from sit.pipeline import RunConfig
from sit.plan import plan_run


def test_a_plan_resolves_the_run_once_and_is_frozen(tmp_path):
    src = tmp_path / "in.txt"
    src.write_text("The old man bought a red car.\n\nShe paid 1,500 dollars for it.\nA third line.\n")
    plan = plan_run(RunConfig(input=str(src), relations=("numbers", "rti"), limit=2,
                              relation_options={"rti": {"compare": "all-words"}}), tmp_path / "run")
    assert plan.target_lang == "es"  # apertium's default, resolved once
    assert plan.relation_names() == ("numbers", "rti")
    assert plan.relations[1].options["compare"] == "all-words"
    assert plan.perturber is None  # neither relation perturbs words: nothing chosen, nothing needed
    assert plan.inputs.texts == ("The old man bought a red car.", "She paid 1,500 dollars for it.")
    assert plan.inputs.identity()["limit"] == 2 and plan.inputs.warnings == (f"skipped 1 empty line(s) of {src}",)
    with pytest.raises(dataclasses.FrozenInstanceError):
        plan.target_lang = "fr"
    with pytest.raises(ConfigError, match="the rti relation"):  # options are checked as the plan is made
        plan_run(RunConfig(input=str(src), relations=("rti",), relation_options={"rti": {"nonsense": 1}}))


def test_a_plan_without_sentences_is_what_sit_download_reads():
    plan = plan_run(RunConfig(relations=("sit",), perturber="wordnet", parser="spacy"), read=False)
    assert plan.inputs is None
    assert plan.perturber.name == "wordnet" and plan.perturber.reason == "wordnet: chosen with --perturber"
    assert plan.perturber_options["num_perturb"] == 10  # the run-wide value the perturber takes
    assert {n.part for n in plan.needed()} >= {"wordnet", "spacy"}


@requires_apertium
def test_another_limit_or_other_sentences_into_the_same_out_is_refused_naming_what_differs(tmp_path, capsys):
    src = tmp_path / "in.txt"
    src.write_text("The old man bought 3 red cars.\nShe paid 1,500 dollars for it.\nThey met at 10:30.\n")
    out = tmp_path / "run"
    args = ["run", "--input", str(src), "--translator", "apertium", "--relation", "numbers", "--out", str(out),
            "--no-progress", "--cache-dir", str(tmp_path / "cache")]
    assert main(args + ["--limit", "2"]) == 0
    recorded = json.loads((out / "run.json").read_text())["inputs"]
    assert (recorded["limit"], recorded["sentences"]) == (2, 2)
    capsys.readouterr()
    assert main(args + ["--limit", "3"]) == 4  # a --limit of its own was not in the signature: it replaced the run
    err = capsys.readouterr().err
    assert "--limit: 2 there, 3 now" in err and "--force" in err
    assert main(args + ["--limit", "2"]) == 0  # the same run again: resumed over itself
    src.write_text("The old man bought 4 red cars.\nShe paid 1,500 dollars for it.\nThey met at 10:30.\n")
    capsys.readouterr()
    assert main(args + ["--limit", "2"]) == 4  # the same file name, other sentences
    err = capsys.readouterr().err
    assert "input's sentences: " in err and "--limit" not in err.split("differs in")[1].split(";")[0]
    assert main(args + ["--limit", "2", "--force"]) == 0


def test_the_pipeline_reads_the_plan_never_the_configuration():
    """The configuration goes down once, into the plan (issue 47): the pipeline reads what a run
    executes (the engine, the device, the translator's requests, the ranking) from the plan's
    fields, checked there, and reads no ``.config`` of anything."""
    import ast
    from pathlib import Path

    import sit.pipeline

    tree = ast.parse(Path(sit.pipeline.__file__).read_text(encoding="utf-8"))
    assert [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr == "config"] == []
    plan = plan_run(RunConfig(relations=("numbers",), batch_size="8", jobs=2, device="cpu", top_k="0", qps=2),
                    read=False)
    assert (plan.execution.batch_size, plan.execution.jobs, plan.execution.device, plan.top_k) == (8, 2, "cpu", 0)
    assert (plan.execution.qps, plan.execution.block, plan.recorded["top_k"]) == (2.0, 500, 0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        plan.execution.jobs = 3
    with pytest.raises(ConfigError, match="--gpus-per-worker must be a finite number of at least 0"):
        plan_run(RunConfig(relations=("numbers",), gpus_per_worker=-1), read=False)


def test_a_declared_flag_that_is_taken_or_malformed_is_left_out_and_set_takes_it():
    """A component's run-wide option becomes a flag of its own (its declaration's flag=), unless
    another option has the flag (``--model``) or it is no flag (``odd``): then only --set sets it,
    and the command line keeps working."""
    from sit.cli import build_parser
    from sit.commands.run import config_from_args
    from sit.options import Option
    from sit.relations import RELATIONS, Relation

    class Clash(Relation):
        name = "clash"
        option_specs = (Option("model", str, "x", "clashes with --model", run_wide=True, flag="--model",
                               setting="clash_model"),
                        Option("odd", int, 1, "no flag", run_wide=True, flag="odd"),
                        Option("fine", int, 2, "a flag of its own", minimum=1, run_wide=True, flag="--fine-flag"))

        def __init__(self, ctx, *, model="x", odd=1, fine=2):
            super().__init__(ctx)

    RELATIONS.register("clash", Clash)
    try:
        args = build_parser().parse_args(["run", "--dataset", "news", "--model", "m", "--fine-flag", "3",
                                          "--set", "odd=4", "--set", "clash_model=y"])
        config = config_from_args(args)
        assert (config.model, config.options) == ("m", {"fine": 3, "odd": 4, "clash_model": "y"})
        with pytest.raises(ConfigError, match="--fine-flag must be an integer of at least 1, not 0"):
            config_from_args(build_parser().parse_args(["run", "--dataset", "news", "--fine-flag", "0"]))
    finally:
        RELATIONS.unregister("clash")


def test_auto_is_resolved_once_and_sit_download_fetches_what_the_run_chose(tmp_path):
    """A masked LM the hub has but that does not load (its config names no model type): the run's
    ``auto`` takes WordNet, and the needs ``sit download`` fetches are WordNet's, the masked LM's
    kept but not required (said not fetched), not the masked LM a second resolver preferred."""
    import subprocess
    import sys

    from conftest import needs_torch
    from fakes.hub import FakeHub
    from test_fresh_machine import fresh_env

    needs_torch()
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "config.json").write_text("{}")
    hub = FakeHub().add_repo("org/broken", broken).start()
    code = ("import json; from sit.pipeline import RunConfig; from sit.plan import plan_run\n"
            "plan = plan_run(RunConfig(relations=('sit',), parser='spacy', options={'mlm_model': 'org/broken'}), "
            "read=False)\n"
            "print(json.dumps([plan.perturber.name, sorted({n.part for n in plan.needed() if n.required}), "
            "[n.required for n in plan.needed() if n.part == 'mlm']]))")
    try:
        home = tmp_path / "home"
        home.mkdir()
        done = subprocess.run([sys.executable, "-c", code], env=fresh_env(home, **hub.env()), capture_output=True,
                              text=True, timeout=300)
    finally:
        hub.stop()
    assert done.returncode == 0, done.stderr[-2000:]
    chosen, required, mlm = json.loads(done.stdout.strip().splitlines()[-1])
    assert chosen == "wordnet"
    assert "wordnet" in required and "mlm" not in required
    assert mlm == [False]  # listed, so sit download can say it is not fetched, but not fetched


def test_sit_check_is_resolved_once_into_a_check_plan_that_its_run_reads(tmp_path):
    """``sit check``'s checks, their options (declared for ``sit check``, under the user's) and the
    checks left out are resolved once (:func:`sit.plan.plan_check`); the run's signature records
    the plan's options, and an option for a check it does not run is refused as ``sit run`` refuses one."""
    from sit.check import CheckConfig, check
    from sit.plan import plan_check

    source = tmp_path / "pairs.tsv"
    source.write_text("You have 3 files.\tTienes 3 archivos.\n", encoding="utf-8")
    config = CheckConfig(str(source), target_lang="es", out=str(tmp_path / "run"), checks=("numbers", "passthrough"),
                         relation_options={"numbers": {"repeats": False}}, cache_dir=str(tmp_path / "cache"))
    plan = plan_check(config)
    assert plan.names() == ("numbers", "passthrough") and plan.warnings == ()
    assert plan.options("numbers") == {"software": True, "repeats": False}  # the user's over the declared
    assert plan.options("passthrough") == {"software": True}
    with pytest.raises(dataclasses.FrozenInstanceError):
        plan.warnings = ("x",)
    signature = check(config).meta.signature
    assert signature.relations == {"numbers": {"software": True, "repeats": False}, "passthrough": {"software": True}}
    other = dataclasses.replace(config, relation_options={"language": {"software": False}})
    with pytest.raises(ConfigError, match=r"^--relation-option names language, which this check does not run$"):
        plan_check(other)
