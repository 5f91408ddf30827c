"""The nllb and m2m100 adapters on tiny models the tests train (tests/tiny_models.py), loaded
through from_pretrained: the forced target-language token chooses between two learnt targets."""

import pytest

from sit.cache import Cache
from sit.errors import ConfigError, ModelError
from sit.translators import get_translator, translator_options
from tiny_models import FRENCH, MARIAN_PAIRS, N_MULTI
from conftest import requires_torch

ENGLISH = [s for s, _ in MARIAN_PAIRS[:N_MULTI]]
SPANISH = [t for _, t in MARIAN_PAIRS[:N_MULTI]]


@pytest.fixture(params=["nllb", "m2m100"])
def model(request):
    return request.param, request.getfixturevalue(f"tiny_{request.param}")


def test_the_target_language_token_is_forced_in_batched_generation(model, tmp_path):
    name, path = model
    es = get_translator(name, target_lang="es", model=str(path), cache=Cache(tmp_path), batch_size=N_MULTI)
    assert es.translate(ENGLISH) == SPANISH and es.generate_calls == 1
    fr = get_translator(name, target_lang="fr", model=str(path), cache=Cache(tmp_path), batch_size=1)
    assert fr.translate(ENGLISH) == FRENCH[:N_MULTI] and fr.generate_calls == N_MULTI
    assert fr.stats.cache_hits == 0  # another target, another cache entry


def test_cached_rerun_loads_no_model_and_options_key_the_cache(model, tmp_path):
    name, path = model
    get_translator(name, target_lang="es", model=str(path), cache=Cache(tmp_path)).translate(ENGLISH)
    again = get_translator(name, target_lang="es", model=str(path), cache=Cache(tmp_path))
    assert again.translate(ENGLISH) == SPANISH and again._model is None and again.stats.calls == 0
    beams = get_translator(name, target_lang="es", model=str(path), cache=Cache(tmp_path),
                           **translator_options(name, {"beam_size": 3}))
    assert beams.translate(ENGLISH) == SPANISH and beams.stats.cache_hits == 0
    assert beams.options() == {"beam_size": 3, "max_new_tokens": 256}


def test_language_codes():
    from sit.translators.seq2seq import m2m100_code, nllb_code

    assert [nllb_code(c) for c in ("en", "es", "zh", "zh-TW", "spa_Latn")] == [
        "eng_Latn", "spa_Latn", "zho_Hans", "zho_Hant", "spa_Latn"]
    assert m2m100_code("zh-CN") == "zh"
    with pytest.raises(ConfigError, match="no FLORES-200 code for 'xx'"):
        get_translator("nllb", target_lang="xx")


def test_a_language_the_model_lacks_fails_in_one_line(tiny_nllb, tmp_path):
    tr = get_translator("nllb", target_lang="spa_Latn", source_lang="deu_Latn", model=str(tiny_nllb), cache=Cache(tmp_path))
    assert tr.translate([]) == []
    tr = get_translator("m2m100", target_lang="es", model=str(tiny_nllb), cache=Cache(tmp_path))
    with pytest.raises(ModelError, match="has no language token '__en__'"):
        tr.translate(["The bank."])


@requires_torch
@pytest.mark.parametrize("name, default", [("nllb", "facebook/nllb-200-distilled-600M"), ("m2m100", "facebook/m2m100_418M")])
def test_unreachable_model_fails_before_any_work(name, default, tmp_path):
    with pytest.raises(ModelError) as info:
        get_translator(name, target_lang="es", cache=Cache(tmp_path))
    assert repr(default) in str(info.value) and "neither a local directory nor reachable" in str(info.value)
    assert "\n" not in str(info.value)
    with pytest.raises(ConfigError, match="--device 'warp9' is not a torch device"):
        get_translator(name, target_lang="es", model=str(tmp_path), device="warp9")
