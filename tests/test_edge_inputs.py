"""Bad input at sit's edges (issue 49): a cases file, plugins, --baseline options, a damaged cache
page, and the redactor; each a one-line error (or, for the redactor, nothing masked that is not
the secret), never a traceback."""

from __future__ import annotations

import json

import pytest

from sit.cli import main
from sit.errors import InputError
from sit.regression import load_cases

#: one case as `sit export` wrote it from `sit check` (numbers, a missing number)
CASE = {"case_id": "d5e2330d262ea6be", "relation": "numbers", "source_id": 1,
        "source": "The bank rose 4.5 percent on Monday.", "variant": "The bank rose 4.5 percent on Monday.",
        "edit": {"position": 0, "before": "", "after": "", "perturber": "numbers", "char_start": -1, "char_end": -1,
                 "level": "sentence", "note": "original", "zipf": None, "similarity": None, "lm_fall": None,
                 "change": ""},
        "relation_options": {}, "translations": {"source": "El banco subió un 4,6 por ciento el lunes.",
                                                 "variant": "El banco subió un 4,6 por ciento el lunes."}}


def _one_error(capsys) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and "error:" in lines[0], err
    return lines[0]


@pytest.mark.parametrize("change, says", [
    ({"source_id": 2**70}, "`source_id` is not a line number"),
    ({"source_id": -7}, "`source_id` is not a line number"),
    ({"relation_options": ["x"]}, "`relation_options` is not an object"),
    ({"source": "word " * 1000}, "the source has 5,000 characters, over the limit of 2,000: raise it with --max-line-chars"),
])
def test_a_bad_case_is_one_line_naming_its_line(tmp_path, capsys, change, says):
    path = tmp_path / "cases.jsonl"
    path.write_text(json.dumps(CASE) + "\n" + json.dumps({**CASE, **change}) + "\n", encoding="utf-8")
    assert main(["run", "--cases", str(path), "--out", str(tmp_path / "o")]) == 2
    line = _one_error(capsys)
    assert f"{path}:2" in line and says in line, line


def test_a_lone_surrogate_in_a_case_is_refused(tmp_path, capsys):
    path = tmp_path / "cases.jsonl"
    path.write_text(json.dumps(CASE).replace('"The bank', '"\\ud800The bank', 1) + "\n", encoding="utf-8")
    assert main(["run", "--cases", str(path), "--out", str(tmp_path / "o")]) == 2
    assert "lone surrogate" in _one_error(capsys)


def test_a_good_case_loads_and_the_limit_can_be_raised(tmp_path):
    path = tmp_path / "cases.jsonl"
    path.write_text(json.dumps(CASE) + "\n" + json.dumps({**CASE, "source_id": 0}) + "\n", encoding="utf-8")
    assert load_cases(path).ids == [0, 1]
    path.write_text(json.dumps({**CASE, "source": "word " * 1000}) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match="over the limit of 2,000"):
        load_cases(path)
    assert load_cases(path, max_chars=6000).texts == ["word " * 1000]


# -- plugins -------------------------------------------------------------------------------------
RAISER = """from sit.translators import Translator


class Raiser(Translator):
    name = "raiser"

    def __init__(self, **kwargs):
        raise RuntimeError("the raiser plugin has no configuration")
"""


def _site(root, dist: str, entry_points: bytes, modules: dict[str, str]):
    """A site directory holding ``dist`` as pip installs it, its entry_points.txt ``entry_points``."""
    info = root / f"{dist.replace('-', '_')}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_bytes(entry_points)
    for name, source in modules.items():
        (root / name).write_text(source)
    return root


def _sit(site, tmp_path, *args):
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    return subprocess.run([sys.executable, "-m", "sit.cli", *args], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join([str(root), str(site)])}, cwd=tmp_path)


def test_a_plugin_whose_init_raises_is_one_line_naming_it(tmp_path):
    site = _site(tmp_path / "site", "sit-raiser", b"[sit.translators]\nraiser = sit_raiser:Raiser\n",
                 {"sit_raiser.py": RAISER})
    (tmp_path / "in.txt").write_text("The cat sat.\n")
    done = _sit(site, tmp_path, "run", "--input", str(tmp_path / "in.txt"), "--translator", "raiser", "--perturber",
                "character_swap", "--out", str(tmp_path / "o"), "--cache-dir", str(tmp_path / "cache"), "--no-progress")
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert lines == ["sit: error: the translator 'raiser' (plugin from sit-raiser) failed to start (RuntimeError: the "
                     "raiser plugin has no configuration); fix or uninstall sit-raiser, or leave it out of SIT_PLUGINS"]


def test_an_entry_points_file_not_in_utf8_is_one_warning_and_the_other_plugins_load(tmp_path):
    site = _site(tmp_path / "site", "sit-latin", "[sit.translators]\ncafé = sit_latin:T\n".encode("latin-1"), {})
    _site(site, "sit-raiser", b"[sit.translators]\nraiser = sit_raiser:Raiser\n", {"sit_raiser.py": RAISER})
    done = _sit(site, tmp_path, "list")
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    warnings = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(warnings) == 1 and f"sit-latin in {site}" in warnings[0] and "UnicodeDecodeError" in warnings[0]
    assert "raiser               (plugin from sit-raiser)" in done.stdout and "café" not in done.stdout


# -- --baseline ----------------------------------------------------------------------------------
BASE_CONFIG = {"dataset": None, "input": "in.txt", "limit": None, "max_line_chars": 2000, "source_lang": "en",
               "perturber": "character_swap", "perturber_options": {}, "relations": ["sit"], "relation_options": {},
               "parser": "auto", "parser_model": None, "options": {"num_perturb": 10}, "threshold": 0.0,
               "top_k": 3, "seed": 0}


@pytest.mark.parametrize("value, says", [
    ("x", "--num-perturb must be an integer of at least 1, not 'x'"),
    (1e9, "--num-perturb must be at most 1000 (perturbations per sentence), not 1000000000.0"),
])
def test_a_baseline_s_recorded_num_perturb_is_checked_before_any_work(tmp_path, capsys, value, says):
    from sample_runs import sample_issues, write_sample_run

    base = write_sample_run(tmp_path / "base", sample_issues(2, 1, seed=1),
                            config={**BASE_CONFIG, "options": {"num_perturb": value}})
    code = main(["run", "--baseline", str(base), "--translator", "apertium", "--cache-dir", str(tmp_path / "cache"),
                 "--out", str(tmp_path / "again"), "--no-progress"])
    assert code == 2 and says in _one_error(capsys)
    assert not (tmp_path / "cache").exists() and not (tmp_path / "again").exists()  # no work done


# -- sit cache prune -----------------------------------------------------------------------------
def test_cache_prune_over_a_damaged_page_says_so(tmp_path, capsys):
    import sqlite3

    from sit.cache import Cache

    cache = Cache(tmp_path)
    cache.store("parses", {"name": "spacy", "lang": "es"}).put_many(
        [(f"Hola {n}", {"tokens": ["Hola"], "heads": [0], "relations": ["ROOT"]}) for n in range(2)])
    cache.store("translations", {"name": "apertium", "model": "eng-spa"}).put_many(
        [(f"text {n}", "texto " * 80) for n in range(400)])
    del cache
    db = tmp_path / "cache.sqlite3"
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    page = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    with open(db, "r+b") as f:  # garbage over the last page but one (the translations'): a torn write
        f.seek(db.stat().st_size - 2 * page)
        f.write(b"\x5a" * page)
    assert main(["cache", "--cache-dir", str(tmp_path), "prune", "--kind", "parses"]) == 0
    err = capsys.readouterr().err
    assert "deleted 2 entries" in err and "was damaged" in err and "copied it to cache.sqlite3.corrupt-" in err, err
    assert list(tmp_path.glob("cache.sqlite3.corrupt-*"))


# -- the redactor --------------------------------------------------------------------------------
def test_the_redactor_leaves_ordinary_words_a_key_happens_to_hold():
    from sit.redact import Redactor

    key = "sk-translator-abc123"
    redact = Redactor([key])
    message = "--translator-option needs --translator NAME"
    assert redact(message) == message  # was "-***option needs -*** NAME"
    # the key, its pieces cut short and its fragments with anything but one word are still masked
    assert redact(f"key {key} sent") == "key *** sent"
    assert redact("key sk-translato cut") == "key *** cut"
    assert redact("tail translator-abc1 cut") == "tail *** cut"
    assert redact("tail -abc123") == "tail ***"
