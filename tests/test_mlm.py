"""The SIT masked-LM perturber on a tiny BERT the tests train and save."""

import pytest

from sit.cache import Cache
from sit.errors import ModelError
from sit.perturb import PERTURBERS
from conftest import requires_torch

SENTENCES = [
    "The angry senators rejected the new budget proposal.",
    "Shares of the company fell sharply after the earnings report.",
    "The mayor promised to build more affordable houses in the city.",
]


@pytest.fixture
def perturber(tiny_bert, english_tagger):
    return PERTURBERS.create("mlm", model=str(tiny_bert), num_perturb=10, tagger=english_tagger)


def test_one_forward_pass_covers_every_mask(perturber):
    pairs = perturber.perturb(SENTENCES)
    assert pairs, "the tiny model proposes same-POS words"
    assert perturber.forward_calls == 1, "all masks of the batch in a single forward pass"


def test_perturbations_replace_one_noun_or_adjective_with_a_top_k_prediction(perturber, english_tagger):
    import torch

    pairs = perturber.perturb(SENTENCES)
    tokenizer, model = perturber.load()
    for pair in pairs:
        doc = english_tagger.tag([pair.original])[0]
        new = english_tagger.tag([pair.perturbed])[0]
        i = pair.edit.position
        assert 0 < i < len(doc) - 1, "never the first or the last token"
        assert doc[i].pos_ in ("NOUN", "ADJ") and new[i].pos_ == doc[i].pos_
        assert [t.text for n, t in enumerate(doc) if n != i] == [t.text for n, t in enumerate(new) if n != i]
        assert pair.perturbed[pair.edit.char_start:pair.edit.char_end] == pair.edit.after
        assert len(pair.edit.after) > 1 and pair.edit.after.isalpha()
        # independently: the replacement is among the model's top-10 at that mask
        masked = "".join(tokenizer.mask_token + t.whitespace_ if n == i else t.text_with_ws for n, t in enumerate(doc))
        enc = tokenizer(masked, return_tensors="pt")
        with torch.inference_mode():
            logits = model(**enc).logits[0]
        pos = (enc["input_ids"][0] == tokenizer.mask_token_id).nonzero()[0, 0]
        top = tokenizer.convert_ids_to_tokens(torch.topk(logits[pos], 10).indices.tolist())
        assert pair.edit.after.lower() in top


def test_one_forward_per_mask_gives_the_same_perturbations(tiny_bert, english_tagger):
    batched = PERTURBERS.create("mlm", model=str(tiny_bert), tagger=english_tagger)
    single = PERTURBERS.create("mlm", model=str(tiny_bert), tagger=english_tagger, forward_batch_size=1)
    a, b = batched.perturb(SENTENCES), single.perturb(SENTENCES)
    assert [p.perturbed for p in a] == [p.perturbed for p in b]
    assert single.forward_calls > batched.forward_calls == 1


def test_cached_rerun_needs_no_model(tiny_bert, english_tagger, tmp_path):
    first = PERTURBERS.create("mlm", model=str(tiny_bert), tagger=english_tagger, cache=Cache(tmp_path))
    pairs = first.perturb(SENTENCES)
    again = PERTURBERS.create("mlm", model=str(tiny_bert), tagger=english_tagger, cache=Cache(tmp_path))
    assert again.perturb(SENTENCES) == pairs
    assert again._model is None and again.cache_hits == len(SENTENCES)


def test_a_model_without_a_trained_mlm_head_is_refused(tmp_path, tiny_bert):
    from transformers import AutoTokenizer, BertConfig, BertModel

    cfg = BertConfig.from_pretrained(tiny_bert)
    BertModel(cfg).save_pretrained(tmp_path / "encoder")
    AutoTokenizer.from_pretrained(tiny_bert).save_pretrained(tmp_path / "encoder")
    p = PERTURBERS.create("mlm", model=str(tmp_path / "encoder"))
    with pytest.raises(ModelError, match="no trained masked-LM head"):
        p.load()


@requires_torch
def test_unreachable_model_suggests_wordnet():
    p = PERTURBERS.create("mlm", model="bert-large-uncased")
    with pytest.raises(ModelError, match="--perturber wordnet"):
        p.load()
