"""Shared fixtures: isolated cache and data directories, and the tiny models the tests build."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).parent
sys.path.insert(0, str(TESTS))

# never try the model hub from tests: this machine has no internet, and tests must not depend on it
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


def have_apertium_pair(pair: str = "eng-spa") -> bool:
    if shutil.which("apertium") is None:
        return False
    from sit.translators.apertium import installed_pairs

    return pair in installed_pairs()


requires_apertium = pytest.mark.skipif(
    not have_apertium_pair(), reason="Apertium eng-spa is not installed (apt-get install apertium apertium-eng-spa)"
)


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path, monkeypatch):
    """Each test gets its own translation cache (SIT_CACHE_DIR) and runs in a fresh directory."""
    monkeypatch.setenv("SIT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)


@pytest.fixture(scope="session")
def tiny_bert(tmp_path_factory) -> Path:
    from tiny_models import build_tiny_bert

    return build_tiny_bert(tmp_path_factory.mktemp("models") / "tiny-bert")


@pytest.fixture(scope="session")
def tiny_marian(tmp_path_factory) -> Path:
    from tiny_models import build_tiny_marian

    return build_tiny_marian(tmp_path_factory.mktemp("models") / "tiny-marian")


@pytest.fixture(scope="session")
def english_tagger():
    from sit.perturb.substitution import Tagger

    return Tagger()


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def ray_cluster():
    """One local Ray cluster for the session (2 CPUs), started with ``ray start --head --block``
    and stopped by ending that process; this process is connected to it and ``RAY_ADDRESS``
    names it, so ``sit run --engine ray`` subprocesses use it too. Skipped without Ray."""
    ray = pytest.importorskip("ray", reason='Ray is not installed (pip install "sit-mt[ray]")')
    import subprocess
    import time

    port = _free_port()
    # a throw-away cluster on 127.0.0.1: no token authentication (Ray's default for a new local cluster)
    saved = {k: os.environ.get(k) for k in ("RAY_ADDRESS", "RAY_AUTH_MODE")}
    os.environ["RAY_AUTH_MODE"] = "disabled"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(TESTS.parent), str(TESTS)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
    head = subprocess.Popen(
        [sys.executable, "-m", "ray.scripts.scripts", "start", "--head", "--block", "--num-cpus=2", "--num-gpus=0",
         f"--port={port}", "--include-dashboard=false", "--disable-usage-stats"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    address = f"127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                ray.init(address=address, log_to_driver=False, logging_level="ERROR")
                break
            except Exception:
                if time.monotonic() > deadline or head.poll() is not None:
                    raise
                time.sleep(1)
        os.environ["RAY_ADDRESS"] = address
        yield address
    finally:
        ray.shutdown()
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        _stop_session(head)


def _stop_session(head) -> None:
    """End the process group the fixture started (``ray start`` and the Ray processes it ran)."""
    import signal
    import subprocess
    import time

    for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 10)):
        try:
            os.killpg(head.pid, sig)
        except ProcessLookupError:
            return
        try:
            head.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            continue
        time.sleep(1)  # what ray start's children left of the group
    try:
        os.killpg(head.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
