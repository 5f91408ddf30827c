"""`sit cache stats | verify | export | import | prune`, through the CLI, on a real database."""

import json
import os
import sqlite3
import time

from sit.cache import Cache
from sit.cli import main

TR = {"name": "apertium", "model": "eng-spa", "version": "3.8", "source_lang": "en", "target_lang": "es"}
GOOGLE = {"name": "google", "model": "nmt", "source_lang": "en", "target_lang": "es"}
PARSE = {"name": "spacy", "model": "es_core_news_sm", "lang": "es"}
TREE = {"tokens": ["Hola"], "heads": [0], "relations": ["ROOT"]}


def _fill(root):
    cache = Cache(root)
    cache.store("translations", TR).put_many([("one", "uno"), ("two", "dos"), ("Ünï ✓", "sí")])
    cache.store("translations", GOOGLE).put_many([("one", "uno (g)")])
    cache.store("parses", PARSE).put_many([("Hola", TREE)])
    return cache


def _cli(root, *args):
    return main(["cache", "--cache-dir", str(root), *args])


def test_stats_counts_stores_entries_and_bytes(tmp_path, capsys):
    _fill(tmp_path / "c")
    assert _cli(tmp_path / "c", "stats", "--json") == 0
    st = json.loads(capsys.readouterr().out)
    assert st["entries"] == 5 and st["path"] == str(tmp_path / "c" / "cache.sqlite3")
    rows = {(s["kind"], s["namespace"]["name"]): s for s in st["stores"]}
    assert {k: s["entries"] for k, s in rows.items()} == {
        ("translations", "apertium"): 3, ("translations", "google"): 1, ("parses", "spacy"): 1}
    # bytes of keys and values as stored: "one"+"uno" ... in UTF-8 JSON
    assert rows[("translations", "google")]["bytes"] == len("one") + len(json.dumps("uno (g)"))
    assert _cli(tmp_path / "c", "stats") == 0
    text = capsys.readouterr().out
    assert "3 store(s), 5 entries" in text and "apertium-eng-spa-" in text


def test_export_writes_the_jsonl_format_and_import_reads_it_back_once(tmp_path, capsys):
    _fill(tmp_path / "c")
    assert _cli(tmp_path / "c", "export", "--kind", "translations", "-o", str(tmp_path / "out")) == 0
    files = sorted((tmp_path / "out").rglob("*.jsonl"))
    assert [f.parent.name for f in files] == ["translations", "translations"]
    apertium = [f for f in files if f.name.startswith("apertium-eng-spa-")][0]
    lines = [json.loads(x) for x in apertium.read_text(encoding="utf-8").splitlines()]
    assert lines[0] == {"kind": "translations", "namespace": TR}
    assert sorted((d["k"], d["v"]) for d in lines[1:]) == [("one", "uno"), ("two", "dos"), ("Ünï ✓", "sí")]
    assert _cli(tmp_path / "new", "import", str(tmp_path / "out")) == 0
    assert _cli(tmp_path / "new", "import", str(apertium)) == 0  # twice: nothing changes
    assert "0 new entries" in capsys.readouterr().err
    copy = Cache(tmp_path / "new")
    assert dict(copy.store("translations", TR).items()) == {"one": "uno", "two": "dos", "Ünï ✓": "sí"}
    assert len(copy.store("parses", PARSE)) == 0  # only the kind exported
    conn = sqlite3.connect(tmp_path / "new" / "cache.sqlite3")
    assert conn.execute("SELECT count(*) FROM entries").fetchone()[0] == 4


def test_import_of_a_file_that_is_not_a_cache_is_one_line_exit_2(tmp_path, capsys):
    bad = tmp_path / "x.jsonl"
    bad.write_text('{"k": "a", "v": "b"}\n')
    assert _cli(tmp_path / "c", "import", str(bad)) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not a sit cache file" in err[0]
    assert _cli(tmp_path / "c", "import", str(tmp_path / "absent.jsonl")) == 2
    assert not (tmp_path / "c").exists()


def test_prune_by_kind_translator_namespace_and_age(tmp_path, capsys):
    root = tmp_path / "c"
    _fill(root)
    assert _cli(root, "prune") == 2  # nothing said: nothing done
    assert _cli(root, "prune", "--translator", "google") == 0
    cache = Cache(root)
    assert len(cache.store("translations", GOOGLE)) == 0 and len(cache.store("translations", TR)) == 3
    # entries written 10 days ago go with --older-than 5; the others stay
    conn = sqlite3.connect(root / "cache.sqlite3")
    with conn:
        conn.execute("UPDATE entries SET t = ? WHERE k = 'two'", (int(time.time()) - 10 * 86400,))
    conn.close()
    assert _cli(root, "prune", "--kind", "translations", "--older-than", "5") == 0
    assert "deleted 1 entries" in capsys.readouterr().err
    assert sorted(k for k, _ in Cache(root).store("translations", TR).items()) == ["one", "Ünï ✓"]
    store = Cache(root).store("parses", PARSE)
    assert _cli(root, "prune", "--namespace", f"{store.label}-{store.hash}", "--vacuum") == 0
    assert len(Cache(root).store("parses", PARSE)) == 0 and len(Cache(root).store("translations", TR)) == 2
    assert _cli(root, "prune", "--older-than", "-1") == 2


def test_verify_finds_and_repairs_damage_exit_4(tmp_path, capsys):
    root = tmp_path / "c"
    cache = _fill(root)
    store = cache.store("translations", TR)
    store.put_many([(f"sentence {i} " * 5, f"frase {i} " * 5) for i in range(3000)])
    assert _cli(root, "verify") == 0
    assert "ok" in capsys.readouterr().out
    conn = sqlite3.connect(root / "cache.sqlite3")
    with conn:
        conn.execute("UPDATE entries SET v = '17' WHERE k = 'two'")  # a value of the wrong shape
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    path = root / "cache.sqlite3"
    raw = bytearray(path.read_bytes())
    raw[len(raw) // 2: len(raw) // 2 + 4096] = os.urandom(4096)  # and a damaged page
    path.write_bytes(bytes(raw))
    assert _cli(root, "verify") == 4
    err = capsys.readouterr().err
    assert "damaged" in err and "corrupt-" in err
    assert _cli(root, "verify") == 0  # repaired
    fresh = Cache(root).store("translations", TR)
    assert fresh.get("one") == "uno" and fresh.get("two", None) is None
    assert 2000 < len(fresh) < 3003
