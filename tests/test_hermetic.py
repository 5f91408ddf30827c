"""The test run is independent of the user's caches (tests/hermetic.py), and an interrupted run
leaves no process behind (tests/orphan_guard.py)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import hermetic
from conftest import HERMETIC_ROOT, requires_apertium, requires_torch

ROOT = Path(__file__).resolve().parent.parent
TESTS = Path(__file__).resolve().parent

#: tests that failed when the user's Hugging Face cache held bert-base-uncased and opus-mt-en-es
#: (the masked LM became available to --perturber auto; the default es model became local)
CACHE_SENSITIVE = [
    "tests/test_cli_run.py::test_run_writes_a_ranked_report_and_reruns_from_the_cache",
    "tests/test_compare.py::test_a_run_compared_with_itself_and_with_a_rerun_has_nothing_new_or_fixed",
    "tests/test_marian.py::test_default_model_is_opus_mt_en_zh",
    "tests/test_marian.py::test_unreachable_model_fails_before_any_work_and_says_what_to_do",
]


def test_every_cache_and_data_folder_of_the_run_is_its_own():
    import huggingface_hub.constants as hf

    for key in ("HF_HOME", "HF_HUB_CACHE", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "STANZA_RESOURCES_DIR", "NLTK_DATA",
                "SIT_DATA_DIR", "TORCH_HOME"):
        assert Path(os.environ[key]).is_relative_to(HERMETIC_ROOT), key
    assert Path(hf.HF_HUB_CACHE).is_relative_to(HERMETIC_ROOT)  # what huggingface_hub read when imported
    assert os.environ["HF_HUB_OFFLINE"] == "1" and "HF_ENDPOINT" not in os.environ
    from sit.models import wordnet_root

    assert Path(wordnet_root()).is_relative_to(HERMETIC_ROOT)  # the system WordNet, copied for the run


def test_a_users_sit_variables_and_hub_address_are_dropped(tmp_path):

    env = {"SIT_DEEPL_KEY": "secret", "SIT_TEST_ARTIFACTS": "/a", "HF_ENDPOINT": "http://h", "HF_HUB_OFFLINE": "0",
           "HF_HOME": "/home/u/.cache/huggingface", "PATH": "/bin"}
    root = hermetic.isolate(env, tmp_path / "run")
    assert "SIT_DEEPL_KEY" not in env and "HF_ENDPOINT" not in env and env["HF_HUB_OFFLINE"] == "1"
    assert env["SIT_TEST_ARTIFACTS"] == "/a" and env["PATH"] == "/bin" and env["HF_HOME"] == str(root / "hf")


def _user_home_with_models(home: Path, tiny_bert: Path, tiny_marian: Path) -> dict[str, str]:
    """A user's home whose Hugging Face cache holds bert-base-uncased and Helsinki-NLP/opus-mt-en-es,
    downloaded by huggingface_hub itself (from the fake hub) into the hub cache's layout; the
    environment of that user (no variable of the run's isolation)."""
    from fakes.hub import FakeHub

    hub = FakeHub().add_repo("bert-base-uncased", tiny_bert).add_repo("Helsinki-NLP/opus-mt-en-es", tiny_marian).start()
    env = {k: v for k, v in os.environ.items() if k not in hermetic.FOLDERS and k != "HF_HUB_OFFLINE"}
    env.update(HOME=str(home), PYTHONPATH=str(ROOT))
    try:
        fetch = ("from huggingface_hub import snapshot_download\n"
                 "for repo in ('bert-base-uncased', 'Helsinki-NLP/opus-mt-en-es'): snapshot_download(repo)")
        done = subprocess.run([sys.executable, "-c", fetch], env=dict(env, HF_ENDPOINT=hub.url), capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0, done.stderr[-2000:]
    finally:
        hub.stop()
    return env


@requires_torch
@requires_apertium
@pytest.mark.slow
def test_the_tests_that_read_the_users_model_cache_pass_with_models_there(tmp_path, tiny_bert, tiny_marian):
    home = tmp_path / "home"
    env = _user_home_with_models(home, tiny_bert, tiny_marian)
    snapshots = sorted(p.relative_to(home).parts[:4] for p in home.glob(".cache/huggingface/hub/*/snapshots/*/config.json"))
    assert [s[3] for s in snapshots] == ["models--Helsinki-NLP--opus-mt-en-es", "models--bert-base-uncased"]

    # the cache is real to sit: outside the test run, --perturber auto now takes the masked LM
    offline = dict(env, HF_HUB_OFFLINE="1", SIT_CACHE_DIR=str(tmp_path / "cache"))
    run = subprocess.run([sys.executable, "-m", "sit.cli", "run", "--dataset", "politics", "--translator", "apertium",
                          "--limit", "2", "--out", str(tmp_path / "run")], env=offline, cwd=tmp_path,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    assert json.loads((tmp_path / "run" / "run.json").read_text(encoding="utf-8"))["signature"]["perturber"] == "mlm"

    # and the tests that once read it pass all the same
    tests = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *CACHE_SENSITIVE],
                           env=env, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert tests.returncode == 0, tests.stdout[-3000:]
    assert f"{len(CACHE_SENSITIVE)} passed" in tests.stdout


def _gone(pids: list[int], within: float) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not any(Path(f"/proc/{p}").exists() and "(Z)" not in _state(p) for p in pids):
            return True
        time.sleep(0.2)
    return False


def _state(pid: int) -> str:
    try:
        return "(" + Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] + ")"
    except OSError:
        return "(gone)"


def test_a_killed_test_process_takes_its_guarded_processes_with_it(tmp_path):
    """A stand-in for pytest starts a guarded command (which starts a process of its own, as
    ``ray start --block`` does), then is killed with SIGKILL: no teardown runs, yet both end."""
    pids = tmp_path / "pids"
    parent = ("import os, subprocess, sys, time\n"
              f"subprocess.Popen([sys.executable, {str(TESTS / 'orphan_guard.py')!r}, '--grace', '2', str(os.getpid()), '--',"
              f" 'sh', '-c', 'sleep 300 & echo $$ $! > {pids}; wait'], start_new_session=True)\n"
              "time.sleep(300)\n")
    stand_in = subprocess.Popen([sys.executable, "-c", parent])
    try:
        deadline = time.monotonic() + 30
        while not (pids.exists() and len(pids.read_text().split()) == 2):
            assert time.monotonic() < deadline, "the guarded command did not start"
            time.sleep(0.1)
        started = [int(p) for p in pids.read_text().split()]
        assert not _gone(started, 0.5)  # running while the parent runs
        stand_in.send_signal(signal.SIGKILL)
        stand_in.wait()
        assert _gone(started, 15), [_state(p) for p in started]
    finally:
        stand_in.kill()


def test_the_guard_ends_its_group_when_told_to_stop(tmp_path):
    pids = tmp_path / "pids"
    guard = subprocess.Popen([sys.executable, str(TESTS / "orphan_guard.py"), "--grace", "2", str(os.getpid()), "--",
                              "sh", "-c", f"sleep 300 & echo $$ $! > {pids}; wait"], start_new_session=True)
    deadline = time.monotonic() + 30
    while not (pids.exists() and len(pids.read_text().split()) == 2):
        assert time.monotonic() < deadline
        time.sleep(0.1)
    started = [int(p) for p in pids.read_text().split()]
    os.killpg(guard.pid, signal.SIGTERM)
    guard.wait(timeout=30)
    assert _gone(started, 10)
