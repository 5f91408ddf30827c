"""run.json as a record (issue 22): the pipeline writes one :class:`RunMeta`, the loader reads it
back whole, and the reports the run writes from what it holds are those ``sit report`` renders
from the directory."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from conftest import requires_apertium

from sit.errors import InputError
from sit.records import RunCounts
from sit.report import render
from sit.rundir import load_run
from sit.runmeta import RelationTold, RunMeta

SENTENCES = ["The president met the new minister in the capital on Monday.",
             "A small company sold 1,250 cars to the city last year.",
             "The old bridge was closed after the storm damaged its towers."]


@pytest.fixture(scope="module")
def real_run(tmp_path_factory):
    """A real run: WordNet substitutions, Apertium eng-spa, spaCy's Spanish parser."""
    from sit.pipeline import RunConfig, run

    root = tmp_path_factory.mktemp("runmeta")
    source = root / "in.txt"
    source.write_text("\n".join(SENTENCES) + "\n", encoding="utf-8")
    result = run(RunConfig(input=str(source), perturber="wordnet", relations=("sit", "rti", "numbers"), top_k=0,
                           cache_dir=str(root / "cache"), out=str(root / "run"), progress=False,
                           report_formats=("text", "html", "markdown")))
    return result


@requires_apertium
def test_run_json_reads_back_as_the_record_the_run_wrote(real_run):
    raw = json.loads((real_run.run_dir / "run.json").read_text(encoding="utf-8"))
    meta = RunMeta.from_dict(raw)
    assert meta == real_run.meta  # what the run held is what the directory holds
    assert meta.to_dict() == raw
    assert list(meta.to_dict()) == list(raw)  # keys in the order written, figures before the timings
    assert list(raw)[-2:] == ["teapot", "timings"]
    assert set(raw["timings"]) >= {"read", "setup", "perturb", "cases", "translate", "check", "write", "report"}
    assert meta.told("rti").sides == ("container", "phrase")
    assert meta.told("sit").kind == "structure"
    assert meta.group_title("sit.untranslated") == "a word of the input was left untranslated"
    assert meta.counts.sentences == 3 and meta.input.endswith("in.txt")
    assert meta.config["relations"] == ["sit", "rti", "numbers"]


@requires_apertium
def test_reports_written_by_the_run_are_those_rendered_from_its_directory(real_run):
    run = load_run(real_run.run_dir)
    # the run wrote its reports from the RunData it held, before the report stage's time was added
    before = replace(run, meta=run.meta.with_timings({k: v for k, v in run.meta.timings.items() if k != "report"}))
    for fmt, name in (("text", "report.txt"), ("markdown", "report.md"), ("html", "report.html")):
        assert (real_run.run_dir / name).read_text(encoding="utf-8") == render(before, fmt), name
    assert '<th scope="row">report</th>' in render(run, "html")


OLD_SIGNATURE = {"translator": "apertium", "translator_model": "eng-spa", "source_lang": "en", "target_lang": "es",
                 "perturber": "wordnet", "perturber_model": "wn", "num_perturb": 10, "parser": "spacy",
                 "parser_model": "es", "distance": "relation", "threshold": 0.0, "top_k": 3, "seed": 0}


def test_unknown_keys_are_figures_and_are_written_back_in_place():
    raw = {"signature": OLD_SIGNATURE,
           "input": "news.txt", "teapot": {"success_rate": 0.5}, "glossary": {"terms": 4}, "timings": {"read": 0.1}}
    meta = RunMeta.from_dict(raw)
    assert meta.figures == {"teapot": {"success_rate": 0.5}, "glossary": {"terms": 4}}
    assert meta.input == "news.txt" and meta.counts == RunCounts() and meta.warnings == ()
    out = meta.to_dict()
    assert list(out)[-3:] == ["teapot", "glossary", "timings"]
    assert out["signature"]["relations"] == {"sit": {}}  # an older signature, completed with its default


def test_a_relation_told_in_a_damaged_shape_is_told_by_defaults():
    told = {"sit": {"title": 5, "kinds": ["x"], "sides": ["a"], "kind": None}, "rti": "text",
            "patinv": {"title": "different meaning", "sides": ["original", "edited"]}}
    meta = RunMeta.from_dict({"signature": OLD_SIGNATURE, "relations_told": told})
    assert meta.told("sit") == RelationTold() == meta.told("rti") == meta.told("never-told")
    assert meta.sides("sit") == ("source", "perturbed")
    assert meta.sides("patinv") == ("original", "edited") and meta.group_title("patinv") == "different meaning"
    assert meta.group_title("sit.untranslated") == "sit.untranslated"  # the group's own name where none is told
    assert meta.own_kinds() == {}


def test_a_run_json_of_the_wrong_types_is_refused_in_one_line(tmp_path):
    from sample_runs import write_sample_run

    root = write_sample_run(tmp_path / "run", input=["a", "list"])
    with pytest.raises(InputError, match=r"'input' is a list, not a str.*run `sit run` again"):
        load_run(root)


def test_a_relations_counts_are_a_record_and_a_plugins_mapping_is_read_as_one():
    from sit.records import RelationCounts
    from sit.relations import Checked

    checked = Checked([], {"compared": 2, "issues": 0, "glossary_terms": 5})  # as a plugin written for 0.1 gives them
    assert checked.counts == RelationCounts(cases=0, compared=2, issues=0, flagged_sentences=0,
                                            own={"glossary_terms": 5})
    assert checked.counts.to_dict() == {"cases": 0, "compared": 2, "issues": 0, "flagged_sentences": 0,
                                        "glossary_terms": 5}
    counts = RunCounts.from_dict({"relations": {"copied": {"cases": 3, "copied_issues": 1}}})
    assert counts.relations["copied"].cases == 3 and counts.relations["copied"].own == {"copied_issues": 1}


def test_figure_tables_round_trip_and_damaged_ones_are_left_out():
    from sit.runmeta import Figure, FigureTable, RelationTold, RunMeta

    table = FigureTable("Copied through", (Figure("sentences copied", "1 of 3"),), "verbatim words", "copied_share")
    told = RelationTold("t", figures=(table,))
    assert RelationTold.from_dict(told.to_dict()) == told
    assert "figures" not in RelationTold("t").to_dict()  # a relation without figures writes what it wrote before
    for damaged in (5, "rows", {"title": "x"}, [{"title": "x", "rows": 3}], [7]):
        assert RelationTold.from_dict({"title": "t", "figures": damaged}).figures == ()
    from sample_runs import sample_signature

    meta = RunMeta(sample_signature(), relations_told={"copied": told},
                   figures={"copied_share": {"copied": 1}, "other": {"n": 2, "rate": 0.25}})
    # the declared table, then the figures nobody titled, one row per value
    assert meta.figure_tables() == [table, FigureTable("other", (Figure("n", "2"), Figure("rate", "0.25")), key="other")]
