"""The ctranslate2 adapter on the tiny MarianMT converted to CTranslate2 in the test session."""

import pytest

pytest.importorskip("ctranslate2", reason="pip install ctranslate2 (the ct2 extra)")

from sit.cache import Cache  # noqa: E402
from sit.errors import ConfigError, ModelError  # noqa: E402
from sit.translators import get_translator  # noqa: E402
from tiny_models import MARIAN_PAIRS  # noqa: E402

SOURCES = [s for s, _ in MARIAN_PAIRS]


# sentences the tiny Marian was not trained on: its greedy output on them is gibberish, but
# gibberish that CTranslate2 must reproduce token for token
UNSEEN = [
    "The senator met the minister.",
    "The bank opened a new factory.",
    "The company raised interest rates.",
    "The minister criticized the president.",
    "A new bank opened.",
    "The president met the foreign minister in the capital on Monday.",
    "The ministry published new rules for foreign investors.",
]


def test_float32_greedy_output_is_transformers_greedy_output(tiny_marian, tiny_marian_ct2, tmp_path):
    # the converted model decodes as MarianMTModel.generate(num_beams=1) does: the source ends with
    # </s>, no target prefix, the decoder starts from <pad>'s zero embedding (see tiny_models)
    sources = SOURCES + UNSEEN
    marian = get_translator("marian", target_lang="es", model=str(tiny_marian), cache=Cache(tmp_path / "m"))
    ct2 = get_translator("ctranslate2", target_lang="es", model=str(tiny_marian_ct2), cache=Cache(tmp_path / "c"),
                         compute_type="float32", beam_size=1, batch_size=4)
    expected = marian.translate(sources)
    assert expected[:len(SOURCES)] == [t for _, t in MARIAN_PAIRS]  # the model learned its pairs
    assert ct2.translate(sources) == expected


def test_scores_are_transformers_teacher_forced_log_probabilities(tiny_marian, tiny_marian_ct2):
    # finer than the greedy output, which a one-token change in the source may leave as it is: each
    # target token's log-probability given the tokens sit feeds CTranslate2 (without the final </s>
    # the figures move by 0.005 to 0.5) is transformers' given the model's own input
    import torch
    from transformers import MarianMTModel, MarianTokenizer

    tokenizer, model = MarianTokenizer.from_pretrained(tiny_marian), MarianMTModel.from_pretrained(tiny_marian).eval()
    sources, targets = SOURCES + UNSEEN[:4], [t for _, t in MARIAN_PAIRS] * 2
    enc = tokenizer(sources, text_target=targets, return_tensors="pt", padding=True)
    with torch.no_grad():
        logits = model(**enc).logits
    pad = model.config.pad_token_id
    logits[..., pad] = float("-inf")  # never generated (bad_words_ids); not in CTranslate2's vocabulary
    log_probs = logits.log_softmax(-1)
    labels = [[t for t in row if t != pad] for row in enc["labels"].tolist()]
    expected = [[log_probs[i, j, t].item() for j, t in enumerate(row)] for i, row in enumerate(labels)]
    ct2 = get_translator("ctranslate2", target_lang="es", model=str(tiny_marian_ct2), compute_type="float32")
    _, translator = ct2.load()
    scored = translator.score_batch(ct2.source_tokens(sources),
                                    [tokenizer.convert_ids_to_tokens(row[:-1]) for row in labels])  # it adds </s>
    assert [r.log_probs for r in scored] == [pytest.approx(row, abs=1e-4) for row in expected]


def test_translates_in_batches_through_the_converted_model(tiny_marian_ct2, tmp_path):
    ct2 = get_translator("ctranslate2", target_lang="es", model=str(tiny_marian_ct2), cache=Cache(tmp_path / "a"),
                         compute_type="float32", batch_size=3)
    out = ct2.translate(SOURCES)
    assert ct2.translate_calls == 2 and ct2.options()["compute_type"] == "float32"
    assert all(isinstance(t, str) and t.endswith(".") for t in out)
    spanish = set("".join(t for _, t in MARIAN_PAIRS))
    assert set("".join(out)) <= spanish  # decoded with the target vocabulary


def test_int8_by_default_on_cpu_and_options_key_the_cache(tiny_marian_ct2, tmp_path):
    cache = Cache(tmp_path)
    tr = get_translator("ctranslate2", target_lang="es", model=str(tiny_marian_ct2), cache=cache, device="cpu")
    assert tr.options() == {"compute_type": "int8", "beam_size": 1, "max_decoding_length": 256}
    out = tr.translate(SOURCES)
    assert all(isinstance(t, str) and t for t in out)
    again = get_translator("ctranslate2", target_lang="es", model=str(tiny_marian_ct2), cache=cache)
    assert again.translate(SOURCES) == out and again.stats.calls == 0 and again._translator is None
    beams = get_translator("ctranslate2", target_lang="es", model=str(tiny_marian_ct2), cache=cache, beam_size=2)
    beams.translate(SOURCES[:1])
    assert beams.stats.cache_hits == 0 and beams.translate_calls == 1


def test_a_transformers_model_is_refused_with_the_conversion_command(tiny_marian):
    with pytest.raises(ConfigError) as info:
        get_translator("ctranslate2", model=str(tiny_marian))
    msg = str(info.value)
    assert "is a transformers model, not a CTranslate2 model" in msg
    assert f"ct2-transformers-converter --model {tiny_marian} --output_dir" in msg and "\n" not in msg


def test_missing_model_tokenizer_or_device_fail_before_any_work(tiny_marian, tiny_marian_ct2, tmp_path):
    with pytest.raises(ModelError, match="not a CTranslate2 model directory"):
        get_translator("ctranslate2", model=str(tmp_path / "nowhere"))
    with pytest.raises(ConfigError, match="needs --model"):
        get_translator("ctranslate2")
    with pytest.raises(ConfigError, match="compute_type=int3 is not supported on cpu"):
        get_translator("ctranslate2", model=str(tiny_marian_ct2), compute_type="int3")
    with pytest.raises(ConfigError, match="CTranslate2 runs on cpu, cuda or cuda:N"):
        get_translator("ctranslate2", model=str(tiny_marian_ct2), device="mps")
    bare = tmp_path / "bare"
    bare.mkdir()
    (bare / "model.bin").write_bytes((tiny_marian_ct2 / "model.bin").read_bytes())
    for name in ("config.json", "shared_vocabulary.json"):
        if (tiny_marian_ct2 / name).exists():
            (bare / name).write_bytes((tiny_marian_ct2 / name).read_bytes())
    with pytest.raises(ModelError, match="--translator-option tokenizer="):
        get_translator("ctranslate2", target_lang="es", model=str(bare), cache=Cache(tmp_path)).translate(["Hi."])
    tr = get_translator("ctranslate2", target_lang="es", model=str(bare), tokenizer=str(tiny_marian),
                        compute_type="float32", cache=Cache(tmp_path / "c"))
    full = get_translator("ctranslate2", target_lang="es", model=str(tiny_marian_ct2), compute_type="float32",
                          cache=Cache(tmp_path / "d"))
    assert tr.translate(SOURCES) == full.translate(SOURCES)  # the tokenizer option, as the copied files
