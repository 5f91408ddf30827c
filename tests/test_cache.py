import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import requires_apertium

from sit.cache import Cache, default_cache_dir
from sit.errors import CorruptCacheError

NS = {"name": "fake", "model": "m1", "version": "1", "source_lang": "en", "target_lang": "es"}
ROOT = Path(__file__).resolve().parent.parent


def _sql(path, statement, params=()):
    """Change the database behind sit's back, as another program (or bit rot) would."""
    conn = sqlite3.connect(path)
    with conn:
        conn.execute(statement, params)
    conn.close()


def _checkpoint(path):
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


def test_round_trip_survives_a_new_process_view(tmp_path):
    store = Cache(tmp_path).store("translations", NS)
    store.put_many([("Hello.", "Hola."), ("Ünïcode ✓", "sí")])
    again = Cache(tmp_path).store("translations", NS)
    assert again.get("Hello.") == "Hola."
    assert again.get("Ünïcode ✓") == "sí"
    assert again.get_many(["Hello.", "absent"]) == {"Hello.": "Hola."}
    assert len(again) == 2 and dict(again.items()) == {"Hello.": "Hola.", "Ünïcode ✓": "sí"}
    assert again.problems == []
    assert store.path == tmp_path / "cache.sqlite3"


def test_namespaces_and_kinds_do_not_mix(tmp_path):
    cache = Cache(tmp_path)
    cache.store("translations", NS).put("a", "1")
    assert "a" not in cache.store("translations", {**NS, "model": "m2"})
    assert "a" not in cache.store("summaries", NS)
    assert "a" in Cache(tmp_path).store("translations", NS)


def test_a_cache_only_read_creates_nothing(tmp_path):
    store = Cache(tmp_path / "c").store("translations", NS)
    assert store.get("x", None) is None and len(store) == 0 and list(store.items()) == []
    assert not (tmp_path / "c").exists()


def test_cache_dir_resolves_when_called(tmp_path, monkeypatch):
    monkeypatch.setenv("SIT_CACHE_DIR", str(tmp_path / "env"))
    assert default_cache_dir() == tmp_path / "env"
    assert default_cache_dir(tmp_path / "opt") == tmp_path / "opt"
    monkeypatch.delenv("SIT_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_cache_dir() == tmp_path / "xdg" / "sit"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_cache_dir() == tmp_path / "home" / ".cache" / "sit"


def test_a_long_key_and_a_hash_collision_never_give_a_wrong_answer(tmp_path):
    store = Cache(tmp_path).store("translations", NS)
    store.put_many([("x" * 100_000, "long"), ("short", "corto")])
    # another key under the same hash (forged): looked up, it is a miss, not "corto"
    _sql(store.path, "UPDATE entries SET k = 'forged' WHERE k = 'short'")
    again = Cache(tmp_path).store("translations", NS)
    assert again.get("x" * 100_000) == "long"
    assert again.get("short", None) is None


# -- values of the wrong shape ------------------------------------------------------------------

GOOD = {"parses": {"tokens": ["a"], "heads": [0], "relations": ["root"]},
        "perturbations": [{"perturbed": "b", "edit": {"position": 0}}],
        "summaries": "s", "translations": "uno", "scores": 0.5, "perturbation-drops": {"stopword": 2}}


@pytest.mark.parametrize("kind, value", [
    ("translations", 3), ("translations", ["uno"]), ("translations", None), ("translations", {"t": "uno"}),
    ("parses", {"tokens": ["a"]}), ("parses", ["a"]), ("perturbations", {"perturbed": "x"}),
    ("perturbations", [{"perturbed": 3, "edit": {}}]), ("summaries", 7),
    ("scores", "0.5"), ("scores", None), ("scores", True), ("perturbation-drops", {"stopword": -1}),
    ("perturbation-drops", [1]),
])
def test_every_kind_refuses_values_of_the_wrong_shape(tmp_path, kind, value):
    store = Cache(tmp_path).store(kind, NS)
    store.put_many([("ok", GOOD[kind]), ("bad", GOOD[kind])])
    _sql(store.path, "UPDATE entries SET v = ? WHERE k = 'bad'", (json.dumps(value),))
    again = Cache(tmp_path).store(kind, NS)
    assert again.get("ok") == GOOD[kind]
    assert again.get("bad", None) is None and "bad" not in again
    assert len(again.problems) == 1 and "wrong shape" in again.problems[0]
    aside = list(tmp_path.glob("cache.sqlite3.corrupt-*.jsonl"))
    assert len(aside) == 1
    lines = [json.loads(x) for x in aside[0].read_text().splitlines()]
    assert lines == [{"kind": kind, "namespace": NS}, {"k": "bad", "v": value}]
    again.put("bad", GOOD[kind])  # recomputed
    assert Cache(tmp_path).store(kind, NS).get("bad") == GOOD[kind]


def test_a_value_that_is_not_json_is_never_served(tmp_path):
    store = Cache(tmp_path).store("translations", NS)
    store.put("one", "uno")
    _sql(store.path, "UPDATE entries SET v = '\"un' WHERE k = 'one'")
    again = Cache(tmp_path).store("translations", NS)
    assert again.get("one", None) is None and again.problems


def test_a_value_of_the_wrong_shape_is_never_written(tmp_path):
    store = Cache(tmp_path).store("scores", NS)
    store.put_many([("a", 0.25), ("b", float("nan")), ("c", None)])
    assert dict(Cache(tmp_path).store("scores", NS).items()) == {"a": 0.25}


@requires_apertium
def test_a_wrongly_typed_cached_translation_does_not_break_the_translator(tmp_path):
    """End to end through a real translator: the damaged entry is translated again."""
    from sit.translators import get_translator

    tr = get_translator("apertium", source_lang="en", target_lang="es", cache=Cache(tmp_path))
    first = tr.translate(["The bank.", "The house."])
    _sql(tr.store.path, "UPDATE entries SET v = '42' WHERE k = 'The bank.'")
    again = get_translator("apertium", source_lang="en", target_lang="es", cache=Cache(tmp_path))
    assert again.translate(["The bank.", "The house."]) == first
    assert again.stats.computed == 1 and again.stats.cache_hits == 1


# -- a damaged database ----------------------------------------------------------------------

def _filled(root, n=3000):
    store = Cache(root).store("translations", NS)
    for start in range(0, n, 500):
        store.put_many([(f"sentence number {i} " * 4, f"frase número {i} " * 4) for i in range(start, start + 500)])
    del store
    _checkpoint(root / "cache.sqlite3")
    return root / "cache.sqlite3"


@pytest.mark.parametrize("damage", ["garbage-middle", "truncated", "all-garbage"])
def test_a_damaged_database_is_copied_aside_and_its_readable_entries_kept(tmp_path, damage):
    path = _filled(tmp_path)
    original = path.read_bytes()
    size = len(original)
    if damage == "garbage-middle":
        path.write_bytes(original[: size // 2] + os.urandom(20_000) + original[size // 2 + 20_000:])
    elif damage == "truncated":
        os.truncate(path, size // 2 + 123)
    else:
        path.write_bytes(os.urandom(size))
    damaged = path.read_bytes()
    cache = Cache(tmp_path)
    store = cache.store("translations", NS)
    first = store.get("sentence number 0 " * 4, None)
    kept = sum(1 for _ in store.items())  # damage is found where a run reads (`sit cache verify` reads all)
    assert len(cache.problems) == 1 and "damaged" in cache.problems[0] and str(path) in cache.problems[0]
    copies = [p for p in tmp_path.glob("cache.sqlite3.corrupt-*") if not p.name.endswith("-wal")]
    assert len(copies) == 1 and copies[0].read_bytes() == damaged
    if damage == "all-garbage":
        assert kept == 0 and first is None
    else:
        assert first == "frase número 0 " * 4  # the first pages were intact
        assert 0 < kept < 3000 if damage == "truncated" else 2000 < kept < 3000
    store.put("new", "nuevo")  # the repaired file works, and a fresh view finds nothing wrong
    fresh = Cache(tmp_path)
    assert fresh.store("translations", NS).get("new") == "nuevo" and len(fresh.store("translations", NS)) == kept + 1
    assert fresh.problems == []
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()


def test_every_damaged_copy_is_kept(tmp_path):
    """Two damaged versions within the same second: both copies aside survive."""
    path = _filled(tmp_path, 500)
    for fill in (b"A", b"B"):
        path.write_bytes(fill * 8192)
        assert Cache(tmp_path).store("translations", NS).get("x", None) is None
    copies = sorted(p.read_bytes()[:1] for p in tmp_path.glob("cache.sqlite3.corrupt-*") if not p.name.endswith("wal"))
    assert copies == [b"A", b"B"]


def test_strict_cache_raises_with_the_path(tmp_path):
    path = _filled(tmp_path, 500)
    path.write_bytes(b"not a database" * 1000)
    with pytest.raises(CorruptCacheError) as info:
        Cache(tmp_path, strict=True).store("translations", NS).get("one")
    assert info.value.path == str(path)
    assert path.read_bytes() == b"not a database" * 1000  # strict touches nothing


def test_files_follow_the_umask_without_changing_it(tmp_path, monkeypatch):
    """Run files and the cache get 0o666 less the umask, as open() gives; no writer flips the
    process umask (global state other threads would see)."""
    from sit.rundir import write_json_atomic

    old = os.umask(0o027)
    try:
        def no_umask(mask):
            raise AssertionError("a writer changed the process umask")

        monkeypatch.setattr(os, "umask", no_umask)
        write_json_atomic(tmp_path / "run.json", {"a": 1})
        store = Cache(tmp_path / "c").store("t", {"name": "x"})
        store.put("k", "v")
        monkeypatch.undo()
    finally:
        os.umask(old)
    assert (tmp_path / "run.json").stat().st_mode & 0o777 == 0o640
    assert store.path.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c", "run.json"], "no temporary file left"


# -- crashes and concurrent runs ---------------------------------------------------------------

WRITER = """
import sys
from sit.cache import Cache
store = Cache(sys.argv[1]).store("translations", {ns!r})
start = int(sys.argv[2])
for b in range(start, start + 100000):
    store.put_many([(f"t{{b}}-{{i}}", f"v{{b}}-{{i}}" * 50) for i in range(200)])
    print(b, flush=True)
"""


def _writer(root, start):
    return subprocess.Popen([sys.executable, "-c", WRITER.format(ns=NS), str(root), str(start)],
                            stdout=subprocess.PIPE, text=True, cwd=ROOT)


def test_kill_9_mid_batch_keeps_every_committed_batch(tmp_path):
    proc = _writer(tmp_path, 0)
    done = [int(proc.stdout.readline()) for _ in range(30)]  # 30 batches reported committed
    os.kill(proc.pid, signal.SIGKILL)  # most likely in the middle of the next batch
    proc.wait()
    cache = Cache(tmp_path)
    store = cache.store("translations", NS)
    n = len(store)
    assert n % 200 == 0 and n >= 200 * len(done), "only whole batches, and every batch reported"
    assert all(store.get(f"t{b}-{i}") == f"v{b}-{i}" * 50 for b in done for i in (0, 199))
    assert cache.problems == []
    conn = sqlite3.connect(store.path)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_two_processes_writing_at_once_lose_nothing_and_readers_never_wait(tmp_path):
    Cache(tmp_path).store("translations", NS).put("seed", "s")
    procs = [_writer(tmp_path, n * 1_000_000) for n in range(2)]
    reads = []
    reader = Cache(tmp_path).store("translations", NS)
    for _ in range(20):  # both writers busy: a reader is answered at once, every time
        for p in procs:
            reads.append(int(p.stdout.readline()))
        assert reader.get("seed") == "s"
    for p in procs:
        p.terminate()  # a normal stop between or inside a transaction
        rest = p.communicate()[0].split()
        reads.extend(int(x) for x in rest)
    store = Cache(tmp_path).store("translations", NS)
    batches = {b for b in reads}
    assert len(store) >= 1 + 200 * len(batches)
    assert all(store.get(f"t{b}-{i}") == f"v{b}-{i}" * 50 for b in batches for i in (0, 100, 199))


# -- JSONL caches of earlier versions --------------------------------------------------------------

def _old_store_file(root, kind, namespace, entries, *, tail=b""):
    """A store file exactly as sit before SQLite wrote it: <root>/<kind>/<name>-<model>-<hash>.jsonl,
    its namespace header (sorted keys), then one {"k", "v"} line per entry."""
    import hashlib

    blob = json.dumps([namespace], sort_keys=True, ensure_ascii=False, default=str)
    name = f"{namespace['name']}-{namespace['model']}-{hashlib.sha256(blob.encode()).hexdigest()[:16]}.jsonl"
    path = root / kind / name
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps({"namespace": namespace}, sort_keys=True, ensure_ascii=False)]
    lines += [json.dumps({"k": k, "v": v}, ensure_ascii=False) for k, v in entries]
    path.write_bytes(("\n".join(lines) + "\n").encode() + tail)
    return path


def test_an_old_jsonl_store_is_imported_on_first_use_and_left_in_place(tmp_path):
    old = _old_store_file(tmp_path, "translations", NS, [("one", "uno"), ("two", 2), ("três", "tres")],
                          tail=b'{"k": "four", "v": "cua')
    before = old.read_bytes()
    cache = Cache(tmp_path)
    store = cache.store("translations", NS)
    assert store.get("one") == "uno" and store.get("três") == "tres"
    assert store.get("two", None) is None and store.get("four", None) is None
    assert cache.imported == 2 and len(store) == 2
    assert any("line 3" in p for p in store.problems)  # the wrongly typed entry is reported, not imported
    assert old.read_bytes() == before
    again = Cache(tmp_path)
    assert len(again.store("translations", NS)) == 2 and again.imported == 0  # not imported twice
    with open(old, "ab") as fh:  # an earlier version appended more since: the new lines come in
        fh.write(b'\n{"k": "five", "v": "cinco"}\n')
    third = Cache(tmp_path)
    assert third.store("translations", NS).get("five") == "cinco" and third.imported == 1


def test_the_old_default_dot_cache_is_still_used(tmp_path, monkeypatch):
    monkeypatch.delenv("SIT_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    _old_store_file(tmp_path / "cache", "translations", NS, [("one", "uno")])  # ./cache (cwd is tmp_path)
    cache = Cache()
    assert cache.root == tmp_path / "xdg" / "sit"
    assert cache.store("translations", NS).get("one") == "uno"
    assert cache.path.exists()
    monkeypatch.chdir(tmp_path / "xdg")  # from anywhere else, it is there too
    assert Cache().store("translations", NS).get("one") == "uno"


@requires_apertium
def test_a_rerun_after_the_upgrade_makes_no_translator_call(tmp_path):
    """A cache written by the JSONL version (here by hand, in its exact format, with values no
    translator would give) answers the real Apertium adapter: no call, the cached values."""
    from sit.translators import get_translator

    tr = get_translator("apertium", source_lang="en", target_lang="es", cache=Cache(tmp_path / "fresh"))
    texts = ["The bank.", "The house is red."]
    _old_store_file(tmp_path / "old", "translations", tr.signature(), [(t, f"CACHED {t}") for t in texts])
    again = get_translator("apertium", source_lang="en", target_lang="es", cache=Cache(tmp_path / "old"))
    assert again.translate(texts) == [f"CACHED {t}" for t in texts]
    assert again.stats.calls == 0 and again.stats.cache_hits == 2


@requires_apertium
def test_a_run_says_which_cache_it_used_and_finds_it_from_another_directory(tmp_path, monkeypatch, capsys):
    """No --cache-dir, no $SIT_CACHE_DIR: the cache is $XDG_CACHE_HOME/sit/cache.sqlite3, named in
    run.json and the summary, and a run from another directory answers from it."""
    from sit.cli import main

    monkeypatch.delenv("SIT_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    db = tmp_path / "xdg" / "sit" / "cache.sqlite3"
    args = ["run", "--dataset", "politics", "--limit", "2", "--perturber", "character_swap", "--relation", "sit",
            "--translator", "apertium", "--no-progress"]
    assert main([*args, "--out", str(tmp_path / "r1")]) == 0
    assert f"sit: cache: {db}\n" in capsys.readouterr().err
    assert json.loads((tmp_path / "r1" / "run.json").read_text())["cache"] == str(db)
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    assert main([*args, "--out", str(tmp_path / "r2")]) == 0
    counts = json.loads((tmp_path / "r2" / "run.json").read_text())["counts"]
    assert counts["translator_calls"] == 0 and counts["cache_hits"] == counts["translations"] > 0
    assert not (tmp_path / "cache").exists() and not (tmp_path / "elsewhere" / "cache").exists()


def test_a_deeply_nested_cached_value_is_set_aside_not_a_recursion_error(tmp_path):
    """Issue 23, item 10 for the cache: a value nested 100,000 levels deep (a hostile or damaged
    database) is read by the one limited JSON reader, copied aside and recomputed."""
    import sqlite3

    cache = Cache(tmp_path)
    cache.store("translations", {"name": "t"}).put("hello", "hola")
    db = sqlite3.connect(cache.path)
    db.execute("UPDATE entries SET v = ?", ("[" * 100_000 + "]" * 100_000,))
    db.commit()
    db.close()
    store = Cache(tmp_path).store("translations", {"name": "t"})
    assert store.get("hello", None) is None and store.get_many(["hello"]) == {}
    assert any("wrong shape" in p for p in store.problems)
    assert list(tmp_path.glob("cache.sqlite3.corrupt-*"))
