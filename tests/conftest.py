"""Shared fixtures: isolated cache and data directories, and the tiny models the tests build."""

from __future__ import annotations

import atexit
import os
import shutil
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).parent
sys.path.insert(0, str(TESTS))

import hermetic  # noqa: E402

# the run's own caches and data (tests/hermetic.py), before anything imports a model library: the suite
# sees nothing the user has cached, and never the real model hub (HF_HUB_OFFLINE=1)
HERMETIC_ROOT = hermetic.isolate(os.environ)
atexit.register(hermetic.remove, HERMETIC_ROOT)
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


#: fixtures that train a model, start a cluster or serve a hub: a test that uses one is marked slow
SLOW_FIXTURES = {"tiny_bert", "tiny_marian", "tiny_marian_zh", "tiny_stanza", "tiny_stanza_dir", "model_hub", "tiny_nllb",
                 "tiny_m2m100", "tiny_marian_ct2", "ray_cluster", "tiny_causal", "tiny_causal_untrained"}


def pytest_collection_modifyitems(config, items):
    """Mark slow every test that uses one of :data:`SLOW_FIXTURES` (``-m "not slow"``: the quick
    loop while working; the README's command and CI run them all)."""
    for item in items:
        if SLOW_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)


def have_apertium_pair(pair: str = "eng-spa") -> bool:
    if shutil.which("apertium") is None:
        return False
    from sit.translators.apertium import installed_pairs

    return pair in installed_pairs()


requires_apertium = pytest.mark.skipif(
    not have_apertium_pair(), reason="Apertium eng-spa is not installed (apt-get install apertium apertium-eng-spa)"
)


def checked_rows(tmp_path, pairs: str, target_lang: str, checks: tuple[str, ...], options=None) -> list[dict]:
    """The findings (issues.jsonl rows) of ``sit check --checks CHECKS`` on a TSV of ``pairs``
    ("source\ttranslation" lines; the header is line 1, so the first pair's source id is 2);
    ``options``: ``--relation-option`` values, ``{"typography": {"straight": True}}``."""
    import json

    from sit.check import CheckConfig, check

    tsv = tmp_path / "t.tsv"
    tsv.write_text("source\ttranslation\n" + pairs, encoding="utf-8")
    check(CheckConfig(source=str(tsv), target_lang=target_lang, out=str(tmp_path / "run"), cache_dir=str(tmp_path / "c"),
                      checks=checks, report_formats=(), relation_options=options or {}))
    return [json.loads(line) for line in (tmp_path / "run" / "issues.jsonl").read_text().splitlines()]


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path, monkeypatch):
    """Each test gets its own translation cache (SIT_CACHE_DIR) and runs in a fresh directory."""
    monkeypatch.setenv("SIT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)


def have_torch() -> bool:
    """Whether torch and transformers are installed (the models, the sentence encoder, Stanza)."""
    import importlib.util

    return all(importlib.util.find_spec(m) is not None for m in ("torch", "transformers"))


#: a test of a model, the sentence encoder or Stanza: skipped where torch is not installed
requires_torch = pytest.mark.skipif(not have_torch(), reason="torch and transformers are not installed "
                                    "(pip install torch==2.13.0 transformers)")


def needs_torch() -> None:
    """Skip the test where torch or transformers is not installed (the tiny models need both)."""
    for module in ("torch", "transformers"):
        pytest.importorskip(module, reason=f"{module} is not installed (pip install torch==2.13.0 transformers)")


@pytest.fixture(scope="session")
def tiny_bert(tmp_path_factory) -> Path:
    needs_torch()
    from tiny_models import build_tiny_bert

    return build_tiny_bert(tmp_path_factory.mktemp("models") / "tiny-bert")


@pytest.fixture(scope="session")
def tiny_marian(tmp_path_factory) -> Path:
    needs_torch()
    from tiny_models import build_tiny_marian

    return build_tiny_marian(tmp_path_factory.mktemp("models") / "tiny-marian")


@pytest.fixture(scope="session")
def tiny_marian_zh(tmp_path_factory) -> Path:
    """A tiny English->Chinese MarianMT (the mission's pair), in opus-mt's layout."""
    import torch
    from tiny_models import MARIAN_PAIRS_ZH, build_tiny_marian

    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # a model this small gains nothing from threads, and loses much on a busy machine
    try:
        return build_tiny_marian(tmp_path_factory.mktemp("models") / "tiny-marian-zh", pairs=MARIAN_PAIRS_ZH,
                                 target_lang="zh")
    finally:
        torch.set_num_threads(threads)


@pytest.fixture(scope="session")
def tiny_stanza(tmp_path_factory) -> dict:
    """Tiny Stanza pipelines (tokenize, pos, lemma, depparse, pretrain) for zh-hans and es, trained
    by Stanza's own trainers: Stanza language code -> processor -> model file."""
    from tiny_stanza import STANZA_LANG, build_tiny_stanza

    root = tmp_path_factory.mktemp("stanza-models")
    return {STANZA_LANG[lang]: build_tiny_stanza(root / lang, lang) for lang in ("zh", "es")}


@pytest.fixture(scope="session")
def tiny_stanza_dir(tiny_stanza, tmp_path_factory) -> Path:
    """The tiny Stanza pipelines installed as ``stanza.download`` leaves them (a resources dir)."""
    from tiny_stanza import install

    return install(tiny_stanza, tmp_path_factory.mktemp("stanza_resources"))


@pytest.fixture
def model_hub(tiny_marian_zh, tiny_marian, tiny_bert, tiny_stanza):
    """A fake model hub on 127.0.0.1 serving the tiny models under the real ids the defaults name
    (Helsinki-NLP/opus-mt-en-zh, Helsinki-NLP/opus-mt-en-es, bert-base-uncased) and the tiny
    Stanza pipelines with their index; stopped at teardown."""
    import stanza
    from fakes.hub import FakeHub

    hub = (FakeHub().add_repo("Helsinki-NLP/opus-mt-en-zh", tiny_marian_zh)
           .add_repo("Helsinki-NLP/opus-mt-en-es", tiny_marian).add_repo("bert-base-uncased", tiny_bert)
           .add_stanza(tiny_stanza, stanza.__resources_version__).start())
    yield hub
    hub.stop()


@pytest.fixture(scope="session")
def english_tagger():
    from sit.perturb.substitution import Tagger

    return Tagger()


@pytest.fixture(scope="session")
def tiny_nllb(tmp_path_factory) -> Path:
    needs_torch()
    from tiny_models import build_tiny_multilingual

    return build_tiny_multilingual(tmp_path_factory.mktemp("models") / "tiny-nllb", "nllb")


@pytest.fixture(scope="session")
def tiny_m2m100(tmp_path_factory) -> Path:
    needs_torch()
    from tiny_models import build_tiny_multilingual

    return build_tiny_multilingual(tmp_path_factory.mktemp("models") / "tiny-m2m100", "m2m100")


@pytest.fixture(scope="session")
def tiny_causal(tmp_path_factory) -> Path:
    """A tiny Llama that writes the Spanish of MARIAN_PAIRS' sources after the llm translator's few-shot prompt."""
    needs_torch()
    from tiny_models import build_tiny_causal

    return build_tiny_causal(tmp_path_factory.mktemp("models") / "tiny-causal")


@pytest.fixture(scope="session")
def tiny_causal_untrained(tmp_path_factory) -> Path:
    needs_torch()
    from tiny_models import build_tiny_causal

    return build_tiny_causal(tmp_path_factory.mktemp("models") / "tiny-causal-untrained", train=False)


@pytest.fixture(scope="session")
def tiny_marian_ct2(tiny_marian, tmp_path_factory) -> Path:
    """The tiny MarianMT converted to CTranslate2 (float32 weights), with its tokenizer's files."""
    ctranslate2 = pytest.importorskip("ctranslate2", reason="pip install ctranslate2 (the ct2 extra)")
    out = tmp_path_factory.mktemp("models") / "tiny-marian-ct2"
    files = [p.name for p in tiny_marian.iterdir() if p.name not in ("config.json", "model.safetensors", "generation_config.json")]
    converter = ctranslate2.converters.TransformersConverter(str(tiny_marian), copy_files=files)
    converter.convert(str(out), quantization="float32", force=True)
    return out


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def ray_cluster():
    """One local Ray cluster for the session (2 CPUs), started with ``ray start --head --block``
    (under tests/orphan_guard.py, which ends it when this process ends, however it ends) and
    stopped by ending that process group; ``RAY_ADDRESS`` names it, so the drivers the tests
    run (``sit run --engine ray`` and scripts, in subprocesses) use it. This process never joins
    it: Ray's runtime in the driver can upset CPython 3.11.7's AST recursion check
    (``SystemError: AST constructor recursion depth mismatch``, fixed in 3.11.8), which pytest's
    assertion rewriting meets. Skipped without Ray."""
    import importlib.util
    import subprocess

    if importlib.util.find_spec("ray") is None:
        pytest.skip('Ray is not installed (pip install "ray[data]==2.60.0")')
    import time

    port = _free_port()
    # a throw-away cluster on 127.0.0.1: no token authentication (Ray's default for a new local cluster)
    saved = {k: os.environ.get(k) for k in ("RAY_ADDRESS", "RAY_AUTH_MODE")}
    os.environ["RAY_AUTH_MODE"] = "disabled"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(TESTS.parent), str(TESTS)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
    # under tests/orphan_guard.py: a test run killed before this fixture's teardown takes the cluster with it
    head = subprocess.Popen(
        [sys.executable, str(TESTS / "orphan_guard.py"), str(os.getpid()), "--",
         sys.executable, "-m", "ray.scripts.scripts", "start", "--head", "--block", "--num-cpus=2", "--num-gpus=0",
         f"--port={port}", "--include-dashboard=false", "--disable-usage-stats"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    address = f"127.0.0.1:{port}"
    probe = f"import ray; ray.init(address={address!r}, logging_level='ERROR'); ray.shutdown()"
    try:
        deadline = time.monotonic() + 120
        while subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True).returncode != 0:
            if time.monotonic() > deadline or head.poll() is not None:
                raise RuntimeError(f"the test Ray cluster did not start at {address}")
            time.sleep(1)
        os.environ["RAY_ADDRESS"] = address
        yield address
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        _stop_session(head, address)


def _stop_session(head, address: str) -> None:
    """End the process group the fixture started (``ray start`` and the Ray processes it ran), and
    Ray's note of it (``ray.init()`` would try to join it)."""
    import signal
    import subprocess

    for sig in (signal.SIGTERM, signal.SIGKILL, signal.SIGKILL):
        try:
            os.killpg(head.pid, sig)
        except ProcessLookupError:
            break
        try:
            head.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
    note = Path("/tmp/ray/ray_current_cluster")
    if note.is_file() and note.read_text().strip().rpartition(":")[2] == address.rpartition(":")[2]:
        note.unlink()
