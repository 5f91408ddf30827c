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
import re
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
    # the adapter asks again (ANSWER_RETRIES), then the translator's second pass once more; then untranslated
    assert tr.stats.failed == 2 and len(fake.calls) == 2 * (1 + ANSWER_RETRIES)
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
    from sample_runs import sample_issues, write_sample_run

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


def test_a_cached_empty_perturbation_list_is_perturbed_again_and_no_perturbation_is_cached_marked(tmp_path):
    import random

    from sit.perturb import PERTURBERS

    def perturber():
        return PERTURBERS.create("wordnet", num_perturb=2, cache=Cache(tmp_path))

    sentences = ["The senator rejected the budget.", "Hi."]  # "Hi.": no neighbour in WordNet
    first = perturber().perturb(sentences, random.Random(1))
    assert first and {p.source_id for p in first} == {0}
    p = perturber()
    # the sentence without a perturbation is cached as the mark of none, never as a bare []
    stored = dict(p.store.items())
    assert set(stored) == set(sentences) and stored[sentences[1]] == {"perturbations": 0}
    assert isinstance(stored[sentences[0]], list) and len(stored[sentences[0]]) == len(first)
    conn = sqlite3.connect(tmp_path / "cache.sqlite3")
    conn.execute("UPDATE entries SET v = '[]' WHERE k = ?", (sentences[0],))
    conn.commit()
    conn.close()
    again = perturber()
    assert again.perturb(sentences, random.Random(1)) == first and again.cache_hits == 1  # "Hi." from its mark
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


# -- sit compare and reports on hostile texts ---------------------------------------------------
PAYLOAD = "<script>alert(1)</script><img src=x onerror=alert(2)>\x1b[31mRED\x07\x1b]0;title\x07\x00\x08\x9b\r"
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
LIVE = re.compile(r"<(?:script|img)\b")


def _hostile(value, key=""):
    if isinstance(value, str):
        return value if key in ("relation", "group", "role", "kind", "level", "perturber") else value + PAYLOAD
    if isinstance(value, list):
        return [_hostile(v, key) for v in value]
    return {k: _hostile(v, k) for k, v in value.items()} if isinstance(value, dict) else value


def _hostile_run(path, drop_first=False):
    """A run directory whose run.json texts (warnings, reasons, input, how each relation is told,
    its two sides) and every text of its issues, pairs and translations carry markup, terminal
    escapes, BEL, NUL and a carriage return."""
    from sample_runs import sample_issues, write_sample_run

    run = write_sample_run(path, sample_issues(4, 2, seed=3))
    meta = json.loads((run / "run.json").read_text())
    for key in ("input", "perturber_reason", "command", "created", "signature_line"):
        meta[key] = str(meta.get(key, "")) + PAYLOAD
    meta["warnings"] = ["a warning " + PAYLOAD]
    meta["relations_told"] = {name: _hostile(told) for name, told in meta["relations_told"].items()}
    meta["signature"]["translator_model"] += PAYLOAD
    (run / "run.json").write_text(json.dumps(meta))
    for name in ("issues.jsonl", "pairs.jsonl", "translations.jsonl"):
        rows = [_hostile(json.loads(line)) for line in (run / name).read_text().splitlines()]
        if drop_first and name == "issues.jsonl":  # the first sentence's findings: new in the other run
            rows = [r for r in rows if r["source_id"] != rows[0]["source_id"]]
        (run / name).write_text("".join(json.dumps(r) + "\n" for r in rows))
    return run


@pytest.mark.parametrize("command", ["report text", "report markdown", "report csv", "compare text", "compare markdown",
                                     "compare junit"])
def test_text_markdown_and_junit_of_hostile_texts_show_no_control_character_and_no_live_html(command, tmp_path):
    from xml.etree import ElementTree

    base, new = _hostile_run(tmp_path / "base", drop_first=True), _hostile_run(tmp_path / "new")
    what, fmt = command.split()
    out = tmp_path / f"out.{fmt}"
    args = ["report", str(new)] if what == "report" else ["compare", str(base), str(new)]
    assert main([*args, "-f", fmt, "-o", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert not CONTROL.findall(text) and "\\x1b[31mRED\\x07" in text.replace("\\\\", "\\").replace("\\[", "[")
    if fmt not in ("text", "csv"):
        assert not LIVE.findall(text) and "&lt;script&gt;alert(1)" in text.replace("&lt;/", "&lt;/")
    if fmt == "junit":
        tree = ElementTree.fromstring(text)
        assert tree.findall(".//failure")  # the first sentence's findings are new, their texts escaped
    if what == "compare" and fmt == "markdown":
        assert "<details open><summary><b>new</b>" in text  # sit's own tags stay


def test_a_run_directory_holding_a_lone_surrogate_is_one_line(run_dir, tmp_path, capsys):
    issues = run_dir / "issues.jsonl"
    issues.write_text(issues.read_text().replace("The ", "The \\ud800", 1))
    for args in (["report", str(run_dir), "-f", "text"], ["compare", str(run_dir), str(run_dir), "-f", "junit"]):
        assert main(args) == 2
        _one_line(capsys.readouterr().err, "issues.jsonl:1: not a row sit reads here (text holding a lone surrogate")


def test_an_error_naming_a_hostile_path_prints_no_control_character(tmp_path, capsys):
    assert main(["report", str(tmp_path / "run\x1b[2J\x07\nsecond line")]) == 2
    err = capsys.readouterr().err
    _one_line(err, "run\\x1b[2J\\x07\\x0asecond line is not a sit run directory")


@pytest.mark.parametrize("value, message", [
    ("", "--fail-on takes new or new:N"),
    ("new:²", "got 'new:²'"),
    ("new:" + "9" * 36, "--fail-on new:N must be at most"),
    ("new:-1", "--fail-on takes new or new:N"),
])
def test_a_fail_on_that_is_not_new_or_new_n_is_one_line(value, message, run_dir, capsys):
    assert main(["compare", str(run_dir), str(run_dir), "--fail-on", value]) == 2
    _one_line(capsys.readouterr().err, "sit: error: --fail-on ", message)


@pytest.mark.parametrize("edit, message", [
    (lambda m: m["relations_told"].update(sit="structure"), "relations_told['sit'] is a str, not an object"),
    (lambda m: m["relations_told"]["sit"].update(sides=["source"]), "relations_told['sit'].sides is not two names"),
    (lambda m: m["relations_told"]["sit"].update(title=["a", "b"]), "relations_told['sit'].title is a list, not text"),
    (lambda m: m["relations_told"]["sit"].update(kinds={"untranslated": 3}), "relations_told['sit'].kinds holds"),
    (lambda m: m["signature"]["relations"].update(sit=["distance"]), "signature.relations['sit'] is a list, not an object"),
    (lambda m: m.update(config={"relation_options": {"sit": ["x"]}}), "config.relation_options['sit'] is a list"),
    (lambda m: m.update(config={"relation_options": ["sit.x=1"]}), "config.relation_options is a list, not an object"),
    (lambda m: m.update(config={"relations": ["sit", 3]}), "config.relations holds something other than names"),
], ids=["told str", "one side", "title list", "kinds numbers", "options list", "config options list",
        "config options as a list", "config relations"])
@pytest.mark.parametrize("command", ["compare", "baseline"])
def test_relations_told_and_relation_options_of_the_wrong_type_are_one_line(edit, message, command, run_dir, tmp_path,
                                                                            capsys):
    from sample_runs import write_sample_run

    base = write_sample_run(tmp_path / "base")
    _edit_meta(run_dir, edit)
    args = ["compare", str(base), str(run_dir)] if command == "compare" else \
        ["run", "--baseline", str(run_dir), "--out", str(tmp_path / "o")]
    assert main(args) == 2
    _one_line(capsys.readouterr().err, message)
    assert not (tmp_path / "o").exists()


def test_an_issue_of_a_relation_the_run_did_not_run_is_one_line(run_dir, capsys):
    rows = (run_dir / "issues.jsonl").read_text().splitlines()
    rows[1] = rows[1].replace('"relation": "sit"', '"relation": "bogus"')
    (run_dir / "issues.jsonl").write_text("\n".join(rows) + "\n")
    assert main(["compare", str(run_dir), str(run_dir)]) == 2
    _one_line(capsys.readouterr().err, "issues.jsonl:2: not a row sit reads here (relation 'bogus' is not one the run ran (sit))")


# -- sit cache loses no data -------------------------------------------------------------------
def _filled_cache(root, n=260):
    store = Cache(root).store("translations", {"name": "apertium", "model": "eng-spa"})
    store.put_many([(f"sentence number {i} of the probe", f"frase número {i} de la sonda") for i in range(n)])
    return store


def _cached(root) -> int:
    from sit.cache.ops import stats

    return sum(s.entries for s in stats(Cache(root)).stores)


@pytest.mark.parametrize("args, message", [
    (["--namespace", ""], "--namespace is empty; give a value"),
    (["--translator", " "], "--translator is empty"),
    (["--kind", ""], "--kind is empty"),
    (["--kind", "translations", "--older-than", "inf"], "--older-than must be a finite number of at least 0 (days), not inf"),
    (["--kind", "translations", "--older-than", "1e308"], "--older-than must be at most 1e+09, not 1e+308"),
    (["--kind", "translations", "--older-than", "1e20"], "--older-than must be at most 1e+09, not 1e+20"),
])
def test_a_prune_filter_that_is_empty_or_endless_is_refused_and_deletes_nothing(args, message, tmp_path, capsys):
    _filled_cache(tmp_path)
    assert main(["cache", "--cache-dir", str(tmp_path), "prune", *args]) == 2
    _one_line(capsys.readouterr().err, message)
    assert _cached(tmp_path) == 260


def test_importing_keys_and_values_holding_lone_surrogates_imports_the_rest(tmp_path, capsys, caplog):
    f = tmp_path / "store.jsonl"
    f.write_text('{"namespace": {"name": "x"}, "kind": "translations"}\n{"k": "a\\ud800", "v": "b"}\n'
                 '{"k": "c", "v": "d\\udc00"}\n{"k": "e", "v": "f"}\n')
    assert main(["cache", "--cache-dir", str(tmp_path / "c"), "import", str(f)]) == 0
    assert "1 new entries in translations/x" in capsys.readouterr().err
    assert "did not cache 2 value(s)" in caplog.text and "lone surrogates" in caplog.text
    assert dict(Cache(tmp_path / "c").store("translations", {"name": "x"}).items()) == {"e": "f"}


def _sit_cache(*args, timeout=120):
    """``sit cache ARGS`` in a process of its own (a hang is a timeout, not a stuck test run)."""
    import os
    import subprocess
    import sys

    code = "import sys; from sit.cli import main; sys.exit(main(['cache', *sys.argv[1:]]))"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


ROOT = __import__("pathlib").Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("where", ["file", "folder", "/dev/zero"])
def test_importing_a_fifo_or_a_device_is_refused_at_once(where, tmp_path):
    import os

    fifo = tmp_path / "dump" / "translations" / "store.jsonl"
    fifo.parent.mkdir(parents=True)
    os.mkfifo(fifo)
    target = {"file": fifo, "folder": tmp_path / "dump", "/dev/zero": "/dev/zero"}[where]
    done = _sit_cache("--cache-dir", str(tmp_path / "c"), "import", str(target), timeout=60)  # a hang fails here
    assert done.returncode == 2, done.stderr
    _one_line(done.stderr, "is a FIFO, not a file" if where != "/dev/zero" else "/dev/zero is a device or socket")


def test_importing_into_a_database_damaged_mid_page_repairs_it_and_says_so(tmp_path, capsys):
    _filled_cache(tmp_path, 3000)
    conn = sqlite3.connect(tmp_path / "cache.sqlite3")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    with open(tmp_path / "cache.sqlite3", "r+b") as fh:  # a page of entries, far from the header
        fh.seek(4096 * 20 + 100)
        fh.write(b"\xde\xad\xbe\xef" * 64)
    f = tmp_path / "store.jsonl"
    f.write_text('{"namespace": {"name": "x"}, "kind": "translations"}\n{"k": "e", "v": "f"}\n')
    assert main(["cache", "--cache-dir", str(tmp_path), "import", str(f)]) == 0
    err = capsys.readouterr().err
    assert "sit: warning: the cache" in err and "was damaged (*** in database main ***" in err and "readable entries" in err
    conn = sqlite3.connect(tmp_path / "cache.sqlite3")
    assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    conn.close()
    assert len(list(tmp_path.glob("cache.sqlite3.corrupt-*"))) >= 1 and 2900 < _cached(tmp_path) < 3001


FULL_DISK = """
import resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # writing past the limit fails (EFBIG), as on a full disk
resource.setrlimit(resource.RLIMIT_FSIZE, (100000, 100000))
from sit.cli import main
sys.exit(main(["cache", "--cache-dir", sys.argv[1], "export", "-o", sys.argv[2]]))
"""


def test_an_export_that_meets_a_full_disk_leaves_no_temporary_file(tmp_path):
    import os
    import subprocess
    import sys

    _filled_cache(tmp_path / "c", 3000)
    done = subprocess.run([sys.executable, "-c", FULL_DISK, str(tmp_path / "c"), str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 4
    _one_line(done.stderr, "cannot write", "File too large; check the path, free space and permissions")
    assert [p.name for p in (tmp_path / "out").rglob("*") if p.is_file()] == []


# -- triage marks ------------------------------------------------------------------------------
@pytest.mark.parametrize("field, message", [
    ("label", "label 'xxxxxxxx"), ("category", "unknown error category 'xxxxxxxx"),
])
def test_a_10_mb_label_line_is_quoted_cut(field, message, run_dir, tmp_path, capsys):
    labels = tmp_path / "labels.jsonl"
    labels.write_text(json.dumps({"source_id": 0, "rank": 1, "label": "bug", field: "x" * 10_000_000}) + "\n")
    assert main(["precision", str(run_dir), str(labels)]) == 2
    err = capsys.readouterr().err
    _one_line(err, message, "... (10,000,002 characters)")
    assert len(err) < 400


def test_a_fifo_as_labels_is_refused_at_once(run_dir, tmp_path):
    import os
    import subprocess
    import sys

    fifo = tmp_path / "labels.jsonl"
    os.mkfifo(fifo)
    code = "import sys; from sit.cli import main; sys.exit(main(sys.argv[1:]))"
    done = subprocess.run([sys.executable, "-c", code, "precision", str(run_dir), str(fifo)], capture_output=True,
                          text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})  # a hang fails here
    assert done.returncode == 2
    _one_line(done.stderr, "labels.jsonl is a FIFO, not a file; is this a labels.jsonl file exported from report.html?")


# -- plugins -------------------------------------------------------------------------------------
def _plugin_site(root, dist, entry_points: dict[str, dict[str, str]], modules: dict[str, str]):
    """A site directory holding distribution ``dist`` (version 0.3.1) as pip installs one: its
    modules and a dist-info whose entry_points.txt declares ``entry_points``."""
    info = root / f"{dist.replace('-', '_')}-0.3.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.3.1\n")
    (info / "entry_points.txt").write_text("".join(f"[{group}]\n" + "".join(f"{n} = {v}\n" for n, v in names.items())
                                                   for group, names in entry_points.items()))
    for name, source in modules.items():
        (root / name).write_text(source)
    return root


BROKEN = {
    "raises": ("broken_raises:Thing", "raise RuntimeError('no config for the plugin')\n",
               "failed to import broken_raises (RuntimeError: no config for the plugin); fix or uninstall sit-broken"),
    "syntax": ("broken_syntax:Thing", "def f(:\n", "failed to import broken_syntax (SyntaxError: "),
    "no attribute": ("broken_attr:Missing", "class Thing: pass\n", "names broken_attr:Missing, but broken_attr has no 'Missing'"),
    "a function": ("broken_func:make", "def make(**kw): return None\n", "names broken_func:make, a function, not a class"),
    "an int": ("broken_int:N", "N = 3\n", "names broken_int:N, an int, not a class"),
    "another class": ("broken_cls:Thing", "class Thing:\n    pass\n", "names broken_cls:Thing, which is not a translator "
                      "(a subclass of sit.translators.base:Translator)"),
    "no colon": ("broken_cls", "", "names 'broken_cls', not module:Class"),
}


@pytest.mark.parametrize("case", list(BROKEN))
def test_a_broken_plugin_is_one_line_naming_it_when_sit_run_names_it(case, tmp_path):
    import os
    import subprocess
    import sys

    target, source, message = BROKEN[case]
    module = target.partition(":")[0]
    site = _plugin_site(tmp_path / "site", "sit-broken", {"sit.translators": {"broken": target}},
                        {f"{module}.py": source} if source else {})
    corpus = tmp_path / "in.txt"
    corpus.write_text("The cat sat.\n")
    code = "import sys; from sit.cli import main; sys.exit(main(sys.argv[1:]))"
    done = subprocess.run([sys.executable, "-c", code, "run", "--input", str(corpus), "--translator", "broken",
                           "--out", str(tmp_path / "o"), "--no-progress"], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(site)])})
    assert done.returncode == 2, done.stderr
    _one_line(done.stderr, "sit: error: the translator 'broken' (plugin from sit-broken) ", message)


# -- registries (issue 38, part 4) ---------------------------------------------------------------
UPPER = """from sit.translators import Translator


class UpperTranslator(Translator):
    name = "upper"
    batch_independent = True

    def model_id(self):
        return "upper-1"

    def _translate_batch(self, texts):
        return [t.upper() for t in texts]
"""
SHOUT = """from sit.relations.length import LengthRelation


class ShoutRelation(LengthRelation):
    name = "shout"
"""


def _registry(group="sit.translators"):
    from sit.registry import Entry, Registry

    return Registry("translator", {"apertium": Entry("sit.translators.apertium:ApertiumTranslator")}, group=group,
                    base="sit.translators.base:Translator")


def test_register_refuses_a_clash_in_one_line_naming_both():
    from sit.errors import ConfigError
    from sit.translators.apertium import ApertiumTranslator

    registry = _registry(group="")
    registry.register("apertium", ApertiumTranslator)  # the same target again: no change
    with pytest.raises(ConfigError, match=r"^the translator 'apertium' is registered twice: "
                                          r"sit.translators.apertium:ApertiumTranslator and other.module:Other; "):
        registry.register("apertium", "other.module:Other")
    assert registry.get("apertium") is ApertiumTranslator


def test_a_plugin_named_like_a_built_in_is_refused_loudly(tmp_path, monkeypatch, caplog):
    monkeypatch.syspath_prepend(str(_plugin_site(tmp_path, "sit-shadow", {"sit.translators": {
        "apertium": "shadow:UpperTranslator", "upper": "shadow:UpperTranslator"}}, {"shadow.py": UPPER})))
    monkeypatch.delenv("SIT_PLUGINS", raising=False)
    registry = _registry()
    assert registry.entry("apertium").target == "sit.translators.apertium:ApertiumTranslator"
    assert "the plugin sit-shadow names its translator 'apertium', which is sit's own" in caplog.text
    assert registry.get("upper").__name__ == "UpperTranslator" and registry.plugin_version("upper") == ("sit-shadow", "0.3.1")


def test_two_plugins_naming_one_translator_are_refused_when_it_is_used(tmp_path, monkeypatch):
    from sit.errors import ConfigError

    for dist, module in (("sit-one", "one"), ("sit-two", "two")):
        monkeypatch.syspath_prepend(str(_plugin_site(tmp_path / dist, dist, {"sit.translators": {"upper": f"{module}:UpperTranslator"}},
                                                     {f"{module}.py": UPPER})))
    monkeypatch.delenv("SIT_PLUGINS", raising=False)
    with pytest.raises(ConfigError, match=r"two plugins name the translator 'upper': sit-(one|two) \((one|two):Upper"):
        _registry().get("upper")
    monkeypatch.setenv("SIT_PLUGINS", "sit-two")  # the allow-list settles it
    assert _registry().entry("upper").plugin == "sit-two"


def test_the_registries_read_the_installed_entry_points_once_for_a_path(tmp_path, monkeypatch):
    # every registry reading its own group read every installed distribution again (six of them:
    # 30 ms of a cached run); a site added to the path is still seen by the registries made after
    import importlib.metadata as md

    from sit.registry import _installed_entry_points

    scans = []
    real = md.entry_points
    monkeypatch.setattr(md, "entry_points", lambda **kw: scans.append(kw) or real(**kw))
    monkeypatch.delenv("SIT_PLUGINS", raising=False)
    _installed_entry_points.cache_clear()
    assert "upper" not in _registry() and "apertium" in _registry(group="sit.relations")
    assert len(scans) == 1
    monkeypatch.syspath_prepend(str(_plugin_site(tmp_path, "sit-upper", {"sit.translators": {"upper": "upper_mod:UpperTranslator"}},
                                                 {"upper_mod.py": UPPER})))
    assert "upper" in _registry() and len(scans) == 2
    _installed_entry_points.cache_clear()


@pytest.mark.parametrize("allowed, seen", [(None, True), ("", False), ("sit-upper", True), ("sit-other, x", False),
                                           (" sit-upper ,sit-other", True)])
def test_sit_plugins_is_an_allow_list_of_distributions(allowed, seen, tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(_plugin_site(tmp_path, "sit-upper", {"sit.translators": {"upper": "upper_mod:UpperTranslator"}},
                                                 {"upper_mod.py": UPPER})))
    if allowed is None:
        monkeypatch.delenv("SIT_PLUGINS", raising=False)
    else:
        monkeypatch.setenv("SIT_PLUGINS", allowed)
    assert ("upper" in _registry()) is seen and "apertium" in _registry()


def _site_env(site, **env):
    import os

    base = {k: v for k, v in os.environ.items() if k != "SIT_PLUGINS"}
    return {**base, "PYTHONPATH": os.pathsep.join([str(ROOT), str(site)]), **env}


@pytest.mark.parametrize("allowed, plugin_in_all", [(None, False), ("sit-shout", True), ("", False)])
def test_relation_all_runs_only_the_plugins_sit_plugins_names(allowed, plugin_in_all, tmp_path):
    import subprocess
    import sys

    site = _plugin_site(tmp_path / "site", "sit-shout", {"sit.relations": {"shout": "shout_mod:ShoutRelation"}},
                        {"shout_mod.py": SHOUT})
    code = "from sit.relations import parse_relations as p; print(','.join(p('all'))); print(','.join(p('shout')))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env=_site_env(site, **({} if allowed is None else {"SIT_PLUGINS": allowed})))
    if allowed == "":  # not allowed at all: not even by its name
        assert done.returncode != 0 and "unknown relation 'shout'" in done.stderr
        return
    every, named = done.stdout.split()
    assert ("shout" in every.split(",")) is plugin_in_all and {"sit", "length", "case"} <= set(every.split(","))
    assert named == "shout"  # named itself, an installed plugin runs


def test_a_plugin_s_name_and_version_are_in_the_run_signature(tmp_path):
    import subprocess
    import sys

    site = _plugin_site(tmp_path / "site", "sit-upper", {"sit.translators": {"upper": "upper_mod:UpperTranslator"},
                                                         "sit.relations": {"shout": "shout_mod:ShoutRelation"}},
                        {"upper_mod.py": UPPER, "shout_mod.py": SHOUT})
    corpus = tmp_path / "in.txt"
    corpus.write_text("The cat sat on the mat.\n")
    code = "import sys; from sit.cli import main; sys.exit(main(sys.argv[1:]))"
    done = subprocess.run([sys.executable, "-c", code, "run", "--input", str(corpus), "--translator", "upper",
                           "--relation", "shout,length", "--cache-dir", str(tmp_path / "c"), "--out", str(tmp_path / "o"),
                           "--no-progress"], capture_output=True, text=True, timeout=300, env=_site_env(site))
    assert done.returncode == 0, done.stderr
    versions = json.loads((tmp_path / "o" / "run.json").read_text())["signature"]["versions"]
    assert versions["plugin sit-upper"] == "0.3.1" and [k for k in versions if k.startswith("plugin ")] == ["plugin sit-upper"]
