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


@pytest.fixture(scope="session")
def tiny_nllb(tmp_path_factory) -> Path:
    from tiny_models import build_tiny_multilingual

    return build_tiny_multilingual(tmp_path_factory.mktemp("models") / "tiny-nllb", "nllb")


@pytest.fixture(scope="session")
def tiny_m2m100(tmp_path_factory) -> Path:
    from tiny_models import build_tiny_multilingual

    return build_tiny_multilingual(tmp_path_factory.mktemp("models") / "tiny-m2m100", "m2m100")


@pytest.fixture(scope="session")
def tiny_marian_ct2(tiny_marian, tmp_path_factory) -> Path:
    """The tiny MarianMT converted to CTranslate2 (float32 weights), with its tokenizer's files."""
    ctranslate2 = pytest.importorskip("ctranslate2", reason="pip install ctranslate2 (the ct2 extra)")
    out = tmp_path_factory.mktemp("models") / "tiny-marian-ct2"
    files = [p.name for p in tiny_marian.iterdir() if p.name not in ("config.json", "model.safetensors", "generation_config.json")]
    converter = ctranslate2.converters.TransformersConverter(str(tiny_marian), copy_files=files)
    converter.convert(str(out), quantization="float32", force=True)
    return out
