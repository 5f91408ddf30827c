"""A translator's empty answer, asked twice, is its answer: cached (marked as ``""``), a
``length.empty`` finding, a run that finishes with exit 0 and a re-run that asks nothing; ``sit
cache prune --empty`` deletes such entries. On the real Apertium, which answers the bare word
"will" with an empty line every time."""

import json
import os
import subprocess
import sys

from conftest import requires_apertium

from sit.cache import Cache
from sit.translators import get_translator

pytestmark = requires_apertium


def sit(*args):
    return subprocess.run([sys.executable, "-m", "sit.cli", *args], capture_output=True, text=True,
                          env=dict(os.environ), timeout=600)


def test_apertium_answers_will_with_nothing():
    out = subprocess.run(["apertium", "-u", "eng-spa"], input="will\n", capture_output=True, text=True).stdout
    assert out.strip() == "", "the premise of these tests"


def test_an_empty_answer_is_asked_twice_then_kept_and_cached(tmp_path):
    t = get_translator("apertium", target_lang="es", cache=Cache(tmp_path))
    assert t.translate(["will", "The dog sleeps."]) == ["", "Los sueños de perro."]
    assert (t.stats.calls, t.stats.empty, t.stats.failed) == (2, 1, 0), "asked once more, alone"
    again = get_translator("apertium", target_lang="es", cache=Cache(tmp_path))
    assert again.translate(["will"]) == [""] and again.stats.calls == 0 and again.stats.cache_hits == 1


def test_a_refusal_twice_stays_untranslated_and_uncached(tmp_path):
    t = get_translator("apertium", target_lang="es", cache=Cache(tmp_path))
    calls = []

    def refuse(texts):
        calls.append(list(texts))
        return [None for _ in texts]

    t._translate_batch = refuse
    assert t.translate(["The dog sleeps."], strict=False) == [None]
    assert calls == [["The dog sleeps."], ["The dog sleeps."]] and t.stats.failed == 1
    assert "run again" in t.stats.errors[-1]
    assert len(Cache(tmp_path).store("translations", t.signature())) == 0


def test_a_run_with_an_empty_answer_exits_0_reports_it_and_reruns_without_the_translator(tmp_path):
    src = tmp_path / "in.txt"
    src.write_text("The senators will vote on Friday.\nwill\n", encoding="utf-8")
    args = ["run", "--input", str(src), "--relation", "length,case,patinv", "--cache-dir", str(tmp_path / "c"),
            "--out", str(tmp_path / "out"), "--no-progress"]
    first = sit(*args)
    assert first.returncode == 0, first.stderr
    assert "run the same command again" not in first.stderr
    meta = json.loads((tmp_path / "out" / "run.json").read_text())
    assert meta["counts"]["untranslated"] == 0 and meta["counts"]["empty"] >= 1
    issues = [json.loads(line) for line in (tmp_path / "out" / "issues.jsonl").open()]
    empty = [i for i in issues if i["relation"] == "length" and i["kind"] == "empty"]
    assert [(i["source_id"], i["original"], i["original_translation"]) for i in empty] == [(2, "will", "")]
    assert "length.empty" in first.stderr and "answered with nothing" in first.stderr
    second = sit(*args, "--force")
    assert second.returncode == 0, second.stderr
    meta = json.loads((tmp_path / "out" / "run.json").read_text())
    assert meta["counts"]["translator_calls"] == 0 and meta["counts"]["cache_hits"] == meta["counts"]["translations"]
    pruned = sit("cache", "--cache-dir", str(tmp_path / "c"), "prune", "--empty")
    assert pruned.returncode == 0 and f"deleted {meta['counts']['empty']} entries" in pruned.stderr, pruned.stderr
    assert sit(*args, "--force").returncode == 0
    meta = json.loads((tmp_path / "out" / "run.json").read_text())
    assert meta["counts"]["translated"] == meta["counts"]["empty"] and meta["counts"]["translator_calls"] == 2
