import json

import pytest
from conftest import requires_apertium

from sit.cache import Cache, default_cache_dir
from sit.errors import CorruptCacheError

NS = {"name": "fake", "model": "m1", "version": "1", "source_lang": "en", "target_lang": "es"}


def test_round_trip_survives_a_new_process_view(tmp_path):
    store = Cache(tmp_path).store("translations", NS)
    store.put_many([("Hello.", "Hola."), ("Ünïcode ✓", "sí")])
    again = Cache(tmp_path).store("translations", NS)
    assert again.get("Hello.") == "Hola."
    assert again.get("Ünïcode ✓") == "sí"
    assert len(again) == 2
    assert again.problems == []


def test_namespaces_do_not_mix(tmp_path):
    cache = Cache(tmp_path)
    cache.store("translations", NS).put("a", "1")
    other = cache.store("translations", {**NS, "model": "m2"})
    assert "a" not in other


def test_cache_dir_resolves_when_called(tmp_path, monkeypatch):
    monkeypatch.setenv("SIT_CACHE_DIR", str(tmp_path / "env"))
    assert default_cache_dir() == tmp_path / "env"
    assert default_cache_dir(tmp_path / "opt") == tmp_path / "opt"
    monkeypatch.delenv("SIT_CACHE_DIR")
    assert default_cache_dir() == tmp_path / "cache"  # conftest chdirs into tmp_path


def test_truncated_last_entry_is_never_read_and_is_reported(tmp_path):
    store = Cache(tmp_path).store("translations", NS)
    store.put_many([("one", "uno"), ("two", "dos")])
    with open(store.path, "ab") as fh:  # a crash in the middle of an append
        fh.write(b'{"k": "three", "v": "tr')
    again = Cache(tmp_path).store("translations", NS)
    assert again.get("three", None) is None
    assert again.get("two") == "dos"
    assert any("incomplete last entry" in p and str(store.path) in p for p in again.problems)
    again.put("three", "tres")  # the next append starts on a fresh line
    third = Cache(tmp_path).store("translations", NS)
    assert third.get("three") == "tres" and third.get("one") == "uno"
    assert third.problems == [], "the repaired entry parses cleanly after the next append"


def test_corrupt_file_is_copied_aside_not_dropped(tmp_path):
    store = Cache(tmp_path).store("translations", NS)
    store.put_many([("one", "uno"), ("two", "dos")])
    raw = store.path.read_bytes()
    lines = raw.split(b"\n")
    lines[1] = b"\x00garbage{"  # damage the first entry in the middle of the file
    store.path.write_bytes(b"\n".join(lines))
    again = Cache(tmp_path).store("translations", NS)
    assert again.get("one", None) is None
    assert again.get("two") == "dos"
    assert len(again.problems) == 1 and "corrupt cache file" in again.problems[0]
    assert str(store.path) in again.problems[0]
    backups = list(store.path.parent.glob(store.path.name + ".corrupt-*"))
    assert len(backups) == 1 and b"garbage" in backups[0].read_bytes()
    # the repaired file is valid again
    assert Cache(tmp_path).store("translations", NS).problems == []


def test_every_damaged_copy_is_kept(tmp_path):
    """Two damaged versions of one file within the same second: both copies aside survive
    (the second never lands over the first)."""
    store = Cache(tmp_path).store("translations", NS)
    store.put_many([("one", "uno"), ("two", "dos")])
    header = store.path.read_bytes().split(b"\n")[0]
    for damage in (b"first damage{", b"second damage{"):
        store.path.write_bytes(header + b"\n" + damage + b"\n" + b'{"k": "two", "v": "dos"}\n')
        assert Cache(tmp_path).store("translations", NS).get("two") == "dos"
    copies = sorted(p.read_bytes() for p in store.path.parent.glob(store.path.name + ".corrupt-*"))
    assert len(copies) == 2 and b"first damage{" in copies[0] and b"second damage{" in copies[1]


def test_strict_cache_raises_with_the_path(tmp_path):
    store = Cache(tmp_path).store("translations", NS)
    store.put("one", "uno")
    store.path.write_text(store.path.read_text() + "not json\n" + json.dumps({"k": "x", "v": "y"}) + "\n")
    with pytest.raises(CorruptCacheError) as info:
        Cache(tmp_path, strict=True).store("translations", NS).get("one")
    assert info.value.path == str(store.path)


def test_header_of_another_namespace_is_corruption(tmp_path):
    store = Cache(tmp_path).store("translations", NS)
    store.put("one", "uno")
    text = store.path.read_text().replace('"m1"', '"other"')
    store.path.write_text(text)
    again = Cache(tmp_path).store("translations", NS)
    assert again.get("one") == "uno"
    assert again.problems and "line 1" in again.problems[0]


def test_atomic_writes_follow_the_umask_without_changing_it(tmp_path, monkeypatch):
    """Run files and cache rewrites get 0o666 less the umask, as open() gives, and are fsync-ed;
    no writer flips the process umask (global state other threads would see)."""
    import os

    from sit.rundir import write_json_atomic

    old = os.umask(0o027)
    try:
        def no_umask(mask):
            raise AssertionError("a writer changed the process umask")

        synced = []
        real_fsync = os.fsync
        monkeypatch.setattr(os, "umask", no_umask)
        monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real_fsync(fd)))
        write_json_atomic(tmp_path / "run.json", {"a": 1})
        store = Cache(tmp_path / "c").store("t", {"name": "x"})
        store.put("k", "v")
        monkeypatch.undo()
    finally:
        os.umask(old)
    assert (tmp_path / "run.json").stat().st_mode & 0o777 == 0o640
    assert store.path.stat().st_mode & 0o777 == 0o640
    assert len(synced) >= 3  # the run file, the new cache file, the appended batch
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c", "run.json"], "no temporary file left"

def _entry(k, v) -> bytes:
    return (json.dumps({"k": k, "v": v}) + "\n").encode()


@pytest.mark.parametrize("value", [3, ["uno"], None, {"t": "uno"}], ids=["number", "list", "null", "object"])
def test_a_translation_of_the_wrong_type_is_recomputed_not_served(tmp_path, value):
    store = Cache(tmp_path).store("translations", NS)
    store.put_many([("one", "uno"), ("two", "dos")])
    with open(store.path, "ab") as fh:
        fh.write(_entry("three", value))
    again = Cache(tmp_path).store("translations", NS)
    assert again.get("three", None) is None and again.get("two") == "dos"
    assert len(again.problems) == 1 and "corrupt cache file" in again.problems[0]
    again.put("three", "tres")
    assert Cache(tmp_path).store("translations", NS).get("three") == "tres"


@requires_apertium
def test_a_wrongly_typed_cached_translation_does_not_break_the_translator(tmp_path):
    """End to end through a real translator: the damaged entry is translated again."""
    from sit.translators import get_translator

    tr = get_translator("apertium", source_lang="en", target_lang="es", cache=Cache(tmp_path))
    first = tr.translate(["The bank.", "The house."])
    with open(tr.store.path, "ab") as fh:
        fh.write(_entry("The bank.", 42))
    again = get_translator("apertium", source_lang="en", target_lang="es", cache=Cache(tmp_path))
    assert again.translate(["The bank.", "The house."]) == first


@pytest.mark.parametrize("kind, value", [
    ("parses", {"tokens": ["a"]}), ("parses", ["a"]), ("perturbations", {"perturbed": "x"}),
    ("perturbations", [{"perturbed": 3, "edit": {}}]), ("summaries", 7),
])
def test_every_kind_refuses_values_of_the_wrong_shape(tmp_path, kind, value):
    store = Cache(tmp_path).store(kind, NS)
    store.put("ok", {"parses": {"tokens": ["a"], "heads": [0], "relations": ["root"]},
                     "perturbations": [{"perturbed": "b", "edit": {"position": 0}}],
                     "summaries": "s"}[kind])
    with open(store.path, "ab") as fh:
        fh.write(_entry("bad", value))
    again = Cache(tmp_path).store(kind, NS)
    assert "ok" in again and "bad" not in again and again.problems


def test_a_file_missing_its_final_newline_loses_nothing_on_the_next_append(tmp_path):
    store = Cache(tmp_path).store("translations", NS)
    store.put_many([("one", "uno"), ("two", "dos")])
    store.path.write_bytes(store.path.read_bytes().rstrip(b"\n"))  # an editor dropped the last newline
    again = Cache(tmp_path).store("translations", NS)
    assert again.get("two") == "dos"
    again.put("three", "tres")
    third = Cache(tmp_path).store("translations", NS)
    assert dict(third.items()) == {"one": "uno", "two": "dos", "three": "tres"} and third.problems == []


def test_a_truncated_header_keeps_the_next_entries_and_gets_its_header_back(tmp_path):
    store = Cache(tmp_path).store("translations", NS)
    store.put("one", "uno")
    header = store.path.read_bytes().split(b"\n")[0]
    store.path.write_bytes(header[:20])  # a crash while the file was being created
    again = Cache(tmp_path).store("translations", NS)
    assert len(again) == 0
    again.put_many([("two", "dos"), ("three", "tres")])
    third = Cache(tmp_path).store("translations", NS)
    assert dict(third.items()) == {"two": "dos", "three": "tres"} and third.problems == []
    assert json.loads(third.path.read_bytes().split(b"\n")[0]) == {"namespace": NS}


def test_an_append_never_cuts_off_entries_another_writer_added(tmp_path):
    """Two writers (two runs) load the same file holding a crash fragment; the second one's
    repair must not cut off what the first appended in between."""
    store = Cache(tmp_path).store("translations", NS)
    store.put("one", "uno")
    with open(store.path, "ab") as fh:
        fh.write(b'{"k": "frag')
    a = Cache(tmp_path).store("translations", NS)
    b = Cache(tmp_path).store("translations", NS)
    assert len(a) == len(b) == 1
    b.put_many([("two", "dos"), ("three", "tres")])
    a.put("four", "cuatro")
    final = Cache(tmp_path).store("translations", NS)
    assert dict(final.items()) == {"one": "uno", "two": "dos", "three": "tres", "four": "cuatro"}
    assert final.problems == []


def _append_many(root, start):
    store = Cache(root).store("translations", NS)
    for i in range(start, start + 200, 4):
        store.put_many([(f"t{j}", f"v{j}") for j in range(i, i + 4)])


def test_concurrent_processes_appending_lose_nothing(tmp_path):
    import multiprocessing

    Cache(tmp_path).store("translations", NS).put("seed", "s")
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_append_many, args=(tmp_path, n * 1000)) for n in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
    final = Cache(tmp_path).store("translations", NS)
    assert len(final) == 1 + 4 * 200 and final.problems == []
