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
