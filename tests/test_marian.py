"""The MarianMT adapter on a tiny MarianMT the tests train, loaded through from_pretrained."""

import pytest

from sit.cache import Cache
from sit.errors import ModelError
from sit.translators import get_translator
from tiny_models import MARIAN_PAIRS
from conftest import requires_torch


def test_translates_through_from_pretrained_in_batches(tiny_marian, tmp_path):
    t = get_translator("marian", target_lang="es", model=str(tiny_marian), cache=Cache(tmp_path), batch_size=3)
    sources = [s for s, _ in MARIAN_PAIRS]
    assert t.translate(sources) == [ref for _, ref in MARIAN_PAIRS]
    assert t.generate_calls == 2, "4 texts in batches of 3: two generate() calls"


def test_cached_rerun_loads_no_model(tiny_marian, tmp_path):
    sources = [s for s, _ in MARIAN_PAIRS]
    get_translator("marian", target_lang="es", model=str(tiny_marian), cache=Cache(tmp_path)).translate(sources)
    again = get_translator("marian", target_lang="es", model=str(tiny_marian), cache=Cache(tmp_path))
    assert again.translate(sources) == [ref for _, ref in MARIAN_PAIRS]
    assert again._model is None and again.stats.calls == 0


@requires_torch
def test_default_model_is_opus_mt_en_zh():
    with pytest.raises(ModelError, match="'Helsinki-NLP/opus-mt-en-zh'"):
        get_translator("marian")  # the default, unreachable offline


@requires_torch
def test_unreachable_model_fails_before_any_work_and_says_what_to_do(tmp_path):
    with pytest.raises(ModelError) as info:
        get_translator("marian", target_lang="es", model="Helsinki-NLP/opus-mt-en-es", cache=Cache(tmp_path))
    msg = str(info.value)
    assert "neither a local directory nor reachable" in msg and "--translator apertium" in msg


def test_translation_never_samples_whatever_the_generation_config_says(tiny_marian, tmp_path):
    """sit.models.hf.generate_ids turns sampling off: a copy of the tiny model whose generation config asks
    for sampling at a high temperature translates exactly as the original does."""
    import json
    import shutil

    import torch

    sampling = tmp_path / "sampling-marian"
    shutil.copytree(tiny_marian, sampling)
    config = json.loads((sampling / "generation_config.json").read_text())
    (sampling / "generation_config.json").write_text(json.dumps({**config, "do_sample": True, "temperature": 5.0}))
    sources = [s for s, _ in MARIAN_PAIRS]
    for seed in (0, 1):
        torch.manual_seed(seed)
        t = get_translator("marian", target_lang="es", model=str(sampling), cache=Cache(tmp_path / f"c{seed}"))
        assert t.translate(sources) == [ref for _, ref in MARIAN_PAIRS]
