"""A run checked a block of sentences at a time (sit.blocks, issue 36): it writes what one pass
over all the sentences writes, stops asking a failing translator from one block to the next, and
leaves no block file behind. Real Apertium, the real perturbers and Spanish parser, a real cache,
real HTTP to a fake Google."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import requires_apertium
from fakes import QUOTA
from fakes.fixtures import _no_real_credentials, serve  # noqa: F401 (fixtures)

from sit.blocks import block_size
from sit.pipeline import RunConfig, run
from sit.relations import DEFAULT_RELATIONS, RELATIONS

FILES = ("pairs.jsonl", "translations.jsonl", "issues.jsonl", "clusters.jsonl")


def sit_run(out: Path, cache: Path, block: int, perturber: str = "character_swap", limit: int = 30,
            relations=("sit",), **kw):
    config = RunConfig(dataset="news", translator="apertium", relations=relations, perturber=perturber, block=block,
                       limit=limit, cache_dir=str(cache), out=str(out), progress=False, force=True, **kw)
    return run(config)


def counts(out: Path) -> dict:
    return json.loads((out / "run.json").read_text())["counts"]


def same_files(a: Path, b: Path, names=FILES) -> None:
    for name in names:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name


@requires_apertium
@pytest.mark.parametrize("relations", [("sit",), DEFAULT_RELATIONS])
def test_a_run_in_blocks_writes_what_one_block_writes(tmp_path, relations):
    # 30 news sentences in blocks of 4 (the last one of 2) against one block, each on an empty
    # cache: the same records and findings byte for byte, the same counts but the translator's
    # calls (its batches are made within a block); then each re-run from its cache: the same
    # report too. The default relations check every text of the run by itself: once, where met
    whole, parts = tmp_path / "whole", tmp_path / "parts"
    sit_run(whole, tmp_path / "c1", block=10**6, relations=relations)
    sit_run(parts, tmp_path / "c2", block=4, relations=relations)
    same_files(whole, parts)
    one, many = counts(whole), counts(parts)
    assert one.pop("translator_calls") > 0 and many.pop("translator_calls") > 0
    assert one == many
    assert one["issues"] > 0 and one["relations"]["sit"]["cases"] > 100
    assert set(one["relations"]) == set(relations) and all(c["issues"] for c in one["relations"].values())
    assert many["cache_hits"] == 0 and many["translated"] == many["translations"]
    figures = [json.loads((d / "run.json").read_text())["teapot"] for d in (whole, parts)]
    assert figures[0] == figures[1] and figures[0]["n"] == one["relations"]["sit"]["compared"]  # over every block
    sit_run(whole, tmp_path / "c1", block=10**6, relations=relations)
    sit_run(parts, tmp_path / "c2", block=4, relations=relations)
    same_files(whole, parts, FILES + ("report.txt",))
    assert counts(whole) == counts(parts)
    assert not list(parts.glob(".blocks-*"))  # the block files are gone


@requires_apertium
def test_blocks_of_wordnet_pairs_rank_and_list_as_one_pass(tmp_path):
    # the WordNet perturber's pairs (made ahead, block by block, then read back with the same
    # seeds) and sit's phrases alone, which sentences of two blocks share: made in blocks of 5,
    # then run as one block from the same cache, the records and findings are the same; a
    # phrase a later block asks for again is no cache hit of the run
    parts, whole = tmp_path / "parts", tmp_path / "whole"
    result = sit_run(parts, tmp_path / "cache", block=5, perturber="wordnet", limit=16)
    c = result.counts
    assert c.cache_hits == 0 and c.translated == c.translations and c.perturbations > 16
    sit_run(whole, tmp_path / "cache", block=10**6, perturber="wordnet", limit=16)
    same_files(whole, parts)
    one, many = counts(whole), c.to_dict()
    for key in ("issues", "groups", "relations", "cases", "translations", "perturbations", "flagged_sentences",
                "candidates_dropped"):
        assert one[key] == many[key], key


def test_a_block_size_below_one_is_one_line_of_why(tmp_path, capsys):
    from sit.cli import main

    assert main(["run", "--dataset", "news", "--block-size", "0", "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["sit: error: --block-size must be an integer of at least 1, not 0"]
    assert not (tmp_path / "out").exists()


def test_only_runs_of_blockwise_relations_go_in_blocks():
    sit, length = RELATIONS.get("sit"), RELATIONS.get("length")
    assert all(RELATIONS.get(name).blockwise for name in DEFAULT_RELATIONS) and not length.blockwise
    assert block_size(2000, [sit], size=500) == 500
    assert block_size(2000, [sit, length], size=500) == 2000  # length's ratios are the run's own
    assert block_size(2000, [sit], given=True, size=500) == 2000  # a cases file runs whole


@requires_apertium
def test_a_failed_block_leaves_no_block_file_and_no_records(tmp_path, monkeypatch):
    from sit.relations.sit import SitRelation

    check, calls = SitRelation.check, []

    def failing(self, cases, translation):
        calls.append(len(cases))
        if len(calls) == 2:
            raise RuntimeError("the second block fails")
        return check(self, cases, translation)

    monkeypatch.setattr(SitRelation, "check", failing)
    with pytest.raises(RuntimeError):
        sit_run(tmp_path / "out", tmp_path / "cache", block=3, limit=9)
    assert len(calls) == 2
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == []  # no block file, no half a run


@requires_apertium
def test_the_block_folder_a_killed_run_left_is_removed_by_the_next(tmp_path):
    import subprocess
    import sys

    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    out = tmp_path / "out"
    left = out / f".blocks-{int(gone.stdout)}-0123456789ab.tmp"  # a run killed mid-way, its process gone
    left.mkdir(parents=True)
    (left / "0.jsonl").write_text("{}\n")
    running = out / f".blocks-{os.getpid()}-0123456789ab.tmp"  # a run still going (this process)
    running.mkdir()
    sit_run(out, tmp_path / "cache", block=3, limit=6)
    assert not left.exists() and running.is_dir()
    assert not [p for p in out.glob(".blocks-*") if p != running]


def test_once_a_block_is_left_untranslated_no_later_block_asks(serve, tmp_path, monkeypatch):
    # a fake Google whose quota runs out on its third request, in the first of three blocks of
    # one sentence: the later blocks ask nothing (as one pass stops at the first such error);
    # once the quota is back, the same command finishes the run
    corpus = tmp_path / "in.txt"
    corpus.write_text("The senator rejected the new budget proposal.\nThe bank raised interest rates.\n"
                      "Farmers protested against the new rules on water use.\n")
    fake = serve("google").fail_from(3, QUOTA)
    for k, v in fake.env().items():
        monkeypatch.setenv(k, v)

    def go(out):
        return run(RunConfig(input=str(corpus), translator="google", target_lang="es", relations=("sit",),
                             perturber="character_swap", block=1, batch_size=2, qps=200.0,
                             cache_dir=str(tmp_path / "cache"), out=str(tmp_path / out), progress=False))

    first = go("run1")
    assert first.incomplete and first.counts.untranslated > 0
    assert len(fake.calls) == 3 and not fake.calls[-1].translated  # nothing asked after the refusal
    fake.heal()
    second = go("run2")
    assert second.incomplete is None and second.counts.untranslated == 0
    assert second.counts.cache_hits == first.counts.translated
    rows = [json.loads(line) for line in (tmp_path / "run2" / "translations.jsonl").read_text().splitlines()]
    assert len(rows) == second.counts.translations and all(r["translation"] for r in rows)
