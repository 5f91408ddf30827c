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
