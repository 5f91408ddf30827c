"""Issue 38, the hostile probe re-run on the new surfaces: each failing trial as a fixed
reproduction. Tracebacks (a credentials file whose provider is a string, a cache value that is not
UTF-8, a DeepL answer holding a lone surrogate); silent wrong results (an empty target language,
run.json fields of the wrong type, damaged run files under ``sit precision``, empty cached parses
and perturbations, an empty document to summarize); hostile texts in compare and reports (control
characters, lone surrogates, live HTML in markdown); ``sit cache`` losing data (an empty namespace
filter, infinite ages, lone surrogates, FIFOs, /dev/zero, a damaged database, a full disk); and
plugins or triage marks that broke (plugins that fail to import, a 10 MB label line, a FIFO)."""

from __future__ import annotations

import json
import sqlite3

import pytest
from fakes import Reply
from fakes.fixtures import _no_real_credentials, clock  # noqa: F401 (fixtures)
from fakes.llm import FakeDeepL

from sit.cache import Cache
from sit.cli import main
from sit.redact import from_environment
from sit.translators import get_translator
from sit.translators.http import ANSWER_RETRIES


def _one_line(err: str, *parts: str) -> None:
    assert "Traceback" not in err and err.count("\n") == 1, err
    for part in parts:
        assert part in err, err


# -- tracebacks ----------------------------------------------------------------------------------
@pytest.mark.parametrize("toml", ['deepl = "k3yIn-the-wrong-place"\n', "deepl = 12\n"])
def test_a_credentials_file_with_a_provider_that_is_not_a_table_is_one_line(toml, tmp_path, monkeypatch, capsys):
    config = tmp_path / "credentials.toml"
    config.write_text(toml)
    config.chmod(0o600)
    monkeypatch.setenv("SIT_CONFIG", str(config))
    corpus = tmp_path / "in.txt"
    corpus.write_text("The cat sat.\n")
    assert main(["run", "--input", str(corpus), "--translator", "deepl", "--out", str(tmp_path / "o")]) == 2
    _one_line(capsys.readouterr().err, "'deepl' must be a table ([deepl])")
    if "k3y" in toml:  # a key written where its table belongs is still a secret to redact
        assert from_environment({"SIT_CONFIG": str(config)})("k3yIn-the-wrong-place") == "***"


def _damage_values(root, rows: dict[str, bytes], as_text: bool) -> None:
    conn = sqlite3.connect(root / "cache.sqlite3")
    conn.text_factory = bytes
    for key, raw in rows.items():
        conn.execute("UPDATE entries SET v = CAST(? AS TEXT) WHERE k = ?" if as_text else
                     "UPDATE entries SET v = ? WHERE k = ?", (raw, key))
    conn.commit()
    conn.close()


@pytest.mark.parametrize("as_text", [False, True], ids=["blob", "text"])
def test_a_cached_value_that_is_not_utf8_is_copied_aside_and_recomputed(as_text, tmp_path, capsys):
    namespace = {"name": "apertium", "model": "eng-spa"}
    Cache(tmp_path).store("translations", namespace).put_many([("The cat.", "El gato."), ("A dog.", "Un perro.")])
    _damage_values(tmp_path, {"The cat.": b'"El \xff\xfe gato."'}, as_text)
    store = Cache(tmp_path).store("translations", namespace)
    assert store.get_many(["The cat.", "A dog."]) == {"A dog.": "Un perro."}
    assert "1 value(s) of the wrong shape" in store.problems[0]
    aside = sorted(tmp_path.glob("cache.sqlite3.corrupt-*.jsonl"))
    assert len(aside) == 1 and json.loads(aside[0].read_text().splitlines()[1]) == {"k": "The cat.", "v": '"El \udcff\udcfe gato."'}
    _damage_values(tmp_path, {"A dog.": b'"\xc3"'}, as_text)
    assert main(["cache", "--cache-dir", str(tmp_path), "export", "-o", str(tmp_path / "out")]) == 0
    assert main(["cache", "--cache-dir", str(tmp_path), "verify"]) == 4
    assert "Traceback" not in capsys.readouterr().err


def test_a_key_that_is_not_utf8_is_a_miss_never_a_traceback(tmp_path):
    namespace = {"name": "apertium"}
    Cache(tmp_path).store("translations", namespace).put_many([("The cat.", "El gato."), ("A dog.", "Un perro.")])
    conn = sqlite3.connect(tmp_path / "cache.sqlite3")
    conn.execute("UPDATE entries SET k = CAST(? AS TEXT) WHERE v = ?", (b"The c\xfft.", '"El gato."'))
    conn.commit()
    conn.close()
    store = Cache(tmp_path).store("translations", namespace)
    assert store.get_many(["The cat.", "A dog."]) == {"A dog.": "Un perro."} and store.verify() == 1


class SurrogateDeepL(FakeDeepL):
    """DeepL answering each text with a lone surrogate in it, escaped as JSON allows (``\\ud800``)."""

    def ok_reply(self, call, translations):
        body = {"translations": [{"detected_source_language": self.source, "text": t[:-1] + "\ud800."}
                                 for t in translations]}
        return Reply(200, raw=json.dumps(body).encode("ascii"), headers={"Content-Type": "application/json"})


def test_a_deepl_answer_holding_a_lone_surrogate_is_left_untranslated_and_never_cached(clock, tmp_path):
    with SurrogateDeepL() as fake:
        tr = get_translator("deepl", env=fake.env(), cache=Cache(tmp_path / "c"), clock=clock, sleep=clock.sleep)
        assert tr.translate(["The cat sat.", "The dog ran."], strict=False) == [None, None]
    assert tr.stats.failed == 2 and len(fake.calls) == 1 + ANSWER_RETRIES  # asked again, then left untranslated
    assert len(tr.store) == 0


def test_a_value_holding_a_lone_surrogate_is_never_written(tmp_path):
    store = Cache(tmp_path).store("translations", {"name": "x"})
    store.put_many([("The cat.", "El gato\ud800."), ("A\udc00 dog.", "Un perro."), ("A cow.", "Una vaca.")])
    assert dict(store.items()) == {"A cow.": "Una vaca."}


# -- silent wrong results ------------------------------------------------------------------------
@pytest.mark.parametrize("option", ["--target-lang=", "--source-lang=", "--target-lang=e s"])
def test_an_empty_or_spaced_language_is_refused_before_any_work(option, tmp_path, capsys):
    corpus = tmp_path / "in.txt"
    corpus.write_text("The cat sat.\n")
    assert main(["run", "--input", str(corpus), option, "--out", str(tmp_path / "o")]) == 2
    _one_line(capsys.readouterr().err, f"{option.split('=')[0]} is ", "give a code such as es")
    assert not (tmp_path / "o").exists()


@pytest.fixture
def run_dir(tmp_path):
    from sit.report.sample import sample_issues, write_sample_run

    return write_sample_run(tmp_path / "run", sample_issues(4, 2, seed=3))


def _edit_meta(run, edit) -> None:
    meta = json.loads((run / "run.json").read_text())
    edit(meta)
    (run / "run.json").write_text(json.dumps(meta))


@pytest.mark.parametrize("edit, message", [
    (lambda m: m.update(teapot={"success_rate": "high", "n": 8}), "teapot.success_rate is 'high', not a rate"),
    (lambda m: m["teapot"].update(success_rate=42), "teapot.success_rate is 42, not a rate from 0 to 1"),
    (lambda m: m["teapot"].update(n="eight"), "teapot.n is 'eight', not a count"),
    (lambda m: m["teapot"]["s_src"].update(mean="x"), "teapot.s_src.mean is 'x', not a number"),
    (lambda m: m["teapot"].update(s_src=[0.8]), "teapot.s_src is a list, not a summary"),
    (lambda m: m.update(warnings=[1, {"a": 2}]), "warnings holds 1, not text"),
], ids=["rate text", "rate 42", "n text", "mean text", "summary list", "warning numbers"])
@pytest.mark.parametrize("command", ["text", "markdown", "html", "jsonl", "precision"])
def test_run_json_figures_and_warnings_of_the_wrong_type_are_one_line(edit, message, command, run_dir, tmp_path, capsys):
    _edit_meta(run_dir, edit)
    (run_dir / "labels.jsonl").write_text("")
    args = ["precision", str(run_dir)] if command == "precision" else \
        ["report", str(run_dir), "-f", command, "-o", str(tmp_path / f"r.{command}")]
    assert main(args) == 2
    _one_line(capsys.readouterr().err, message, "run `sit run` again")


@pytest.mark.parametrize("damage, message", [
    (lambda run: (run / "pairs.jsonl").write_bytes(b"garbage\n"), "pairs.jsonl:1: not valid JSON"),
    (lambda run: (run / "translations.jsonl").write_text('{"text": 5}\n'), "translations.jsonl:1: not a row sit reads "
                                                                              "here (text is a int, not text)"),
    (lambda run: (run / "pairs.jsonl").write_text('{"source_id": "x", "original": "a", "perturbed": "b", "edit": {}}\n'),
     "pairs.jsonl:1: not a row sit reads here (source_id is a str"),
    (lambda run: (run / "translations.jsonl").unlink(), "no translations.jsonl: the run directory is incomplete"),
    (lambda run: (run / "pairs.jsonl").unlink(), "no pairs.jsonl: the run directory is incomplete"),
], ids=["garbage pairs", "typed translations", "typed pairs", "missing translations", "missing pairs"])
def test_precision_on_a_damaged_run_directory_is_one_line(damage, message, run_dir, capsys):
    (run_dir / "labels.jsonl").write_text('{"source_id": 0, "rank": 1, "label": "bug"}\n')
    assert main(["precision", str(run_dir)]) == 0  # the labels themselves are fine
    capsys.readouterr()
    damage(run_dir)
    assert main(["precision", str(run_dir)]) == 2
    _one_line(capsys.readouterr().err, message)


def test_a_cached_empty_parse_is_copied_aside_and_parsed_again(tmp_path, caplog):
    from sit.parse import get_parser

    text = "El perro come."
    fresh = get_parser("spacy", "es").parse([text])[0]
    parser = get_parser("spacy", "es", cache=Cache(tmp_path))
    parser.parse([text])
    parser.store.put_many([(text, {"tokens": [], "heads": [], "relations": []})])
    assert "did not cache 1 value(s) of the wrong shape" in caplog.text  # refused on the way in
    conn = sqlite3.connect(tmp_path / "cache.sqlite3")  # as a damaged or foreign cache holds it
    conn.execute("UPDATE entries SET v = ?", ('{"tokens":[],"heads":[],"relations":[]}',))
    conn.commit()
    conn.close()
    again = get_parser("spacy", "es", cache=Cache(tmp_path))
    assert again.parse([text])[0] == fresh and again.cache_hits == 0
    assert "1 value(s) of the wrong shape" in again.store.problems[0]
    assert len(list(tmp_path.glob("cache.sqlite3.corrupt-*.jsonl"))) == 1


def test_a_cached_empty_perturbation_list_is_perturbed_again_and_none_is_ever_cached(tmp_path):
    import random

    from sit.perturb import PERTURBERS

    def perturber():
        return PERTURBERS.create("wordnet", num_perturb=2, cache=Cache(tmp_path))

    sentences = ["The senator rejected the budget.", "Hi."]  # "Hi.": no neighbour in WordNet
    first = perturber().perturb(sentences, random.Random(1))
    assert first and {p.source_id for p in first} == {0}
    p = perturber()
    assert [k for k, _ in p.store.items()] == [sentences[0]]  # the sentence without a perturbation is not cached
    conn = sqlite3.connect(tmp_path / "cache.sqlite3")
    conn.execute("UPDATE entries SET v = '[]' WHERE k = ?", (sentences[0],))
    conn.commit()
    conn.close()
    again = perturber()
    assert again.perturb(sentences, random.Random(1)) == first and again.cache_hits == 0
    assert "1 value(s) of the wrong shape" in again.store.problems[0]


def test_an_empty_document_to_summarize_is_left_out_and_said(tmp_path, capsys, caplog):
    docs = tmp_path / "docs.jsonl"
    docs.write_text('{"document": "The mayor spoke. The council listened."}\n{"document": "  "}\n')
    report = tmp_path / "report.json"
    assert main(["summarize", "--input", str(docs), "--perturber", "character_swap", "--report", str(report),
                 "--no-progress"]) == 0
    assert "docs.jsonl:2: an empty document, left out (1 empty in all)" in caplog.text
    assert json.loads(report.read_text())["documents"] == 1
    docs.write_text('{"document": ""}\n')
    assert main(["summarize", "--input", str(docs), "--perturber", "character_swap", "--no-progress"]) == 2
    assert "docs.jsonl: no documents that are not empty" in capsys.readouterr().err
