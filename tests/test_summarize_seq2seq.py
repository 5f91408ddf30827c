"""The transformers summarizer and paraphraser on a tiny BART built here (offline), loaded
through the same ``from_pretrained`` path a hub model takes."""

from __future__ import annotations

import json
import random

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

from sit.cache import Cache  # noqa: E402
from sit.cli import main  # noqa: E402
from sit.errors import ConfigError, ModelError  # noqa: E402
from sit.perturb import PERTURBERS  # noqa: E402
from sit.summarize import SUMMARIZERS  # noqa: E402
from sit.summarize.data import bundled_path, read_jsonl  # noqa: E402
from sit.summarize.robustness import lead_bias  # noqa: E402
from sit.perturb.text import sentences  # noqa: E402

pytestmark = pytest.mark.slow


def build_tiny_bart(out, texts):
    """A 1-layer BART with a byte-level BPE vocabulary trained on ``texts``, saved to ``out``."""
    import torch
    from tokenizers import ByteLevelBPETokenizer
    from transformers import BartConfig, BartForConditionalGeneration, BartTokenizer

    out.mkdir(parents=True, exist_ok=True)
    bpe = ByteLevelBPETokenizer()
    bpe.train_from_iterator(texts, vocab_size=400, min_frequency=1,
                            special_tokens=["<s>", "<pad>", "</s>", "<unk>", "<mask>"])
    bpe.save_model(str(out))
    tok = BartTokenizer(vocab=str(out / "vocab.json"), merges=str(out / "merges.txt"))
    torch.manual_seed(0)
    config = BartConfig(
        vocab_size=len(tok), d_model=16, encoder_layers=1, decoder_layers=1, encoder_attention_heads=2,
        decoder_attention_heads=2, encoder_ffn_dim=32, decoder_ffn_dim=32, max_position_embeddings=256,
        pad_token_id=tok.pad_token_id, bos_token_id=tok.bos_token_id, eos_token_id=tok.eos_token_id,
        decoder_start_token_id=tok.eos_token_id, forced_bos_token_id=tok.bos_token_id,
    )
    model = BartForConditionalGeneration(config)
    model.generation_config.max_length = 24
    model.generation_config.min_length = 6
    model.generation_config.num_beams = 1
    model.save_pretrained(out)
    tok.save_pretrained(out)
    return out


@pytest.fixture(scope="module")
def docs():
    return read_jsonl(bundled_path("lead_docs"))[:6]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory, docs):
    return str(build_tiny_bart(tmp_path_factory.mktemp("tiny-bart"), [d.text for d in docs]))


def test_tiny_seq2seq_summarizes_deterministically(tiny, docs):
    s = SUMMARIZERS.create("seq2seq", model=tiny)
    texts = [d.text for d in docs[:3]]
    a = s.summarize(texts + [""])
    assert len(a) == 4 and a[-1] == "" and all(isinstance(x, str) and x.strip() for x in a[:3])
    assert SUMMARIZERS.create("transformers", model=tiny, batch_size=1).summarize(texts) == a[:3]
    assert s.signature()["model"] == tiny and s.signature()["version"].startswith("transformers-")


def test_cached_summaries_need_no_model(tiny, docs, tmp_path):
    texts = [d.text for d in docs[:3]]
    first = SUMMARIZERS.create("seq2seq", model=tiny, cache=Cache(tmp_path)).summarize(texts)
    again = SUMMARIZERS.create("seq2seq", model=tiny, cache=Cache(tmp_path))
    assert again.summarize(texts) == first
    assert again.cache_hits == 3 and again._loaded is None


def test_lead_bias_with_the_tiny_model(tiny, docs):
    report = lead_bias(docs, SUMMARIZERS.create("seq2seq", model=tiny), PERTURBERS.create("homoglyph"), seed=0)
    s = report.summary()
    assert s["summarizer"] == "seq2seq" and s["documents"] == 6 and s["perturbed_documents"] == 6
    assert 0 <= s["lead_inclusion_before"] <= 1 and 0 <= s["lead_inclusion_after"] <= 1
    assert set(s["rouge_before"]) == {"rouge1", "rouge2", "rougeL"}
    assert all(d.summary for d in report.documents)


def test_sit_summarize_with_the_tiny_model(tiny, tmp_path, capsys):
    docs_file = tmp_path / "docs.jsonl"
    rows = [json.loads(x) for x in bundled_path("lead_docs").read_text(encoding="utf-8").splitlines()[:4]]
    docs_file.write_text("".join(json.dumps({"document": r["document"]}) + "\n" for r in rows), encoding="utf-8")
    rc = main(["summarize", "--input", str(docs_file), "--summarizer", "seq2seq", "--model", tiny,
               "--perturber", "sentence_reorder", "--no-progress", "--cache-dir", str(tmp_path / "c")])
    assert rc == 0
    out = capsys.readouterr().out
    assert "Lead bias of seq2seq" in out and "ROUGE: no reference summaries given" in out
    assert "against the original document's summary" in out


def test_hub_model_fails_clearly_offline(monkeypatch, docs):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    s = SUMMARIZERS.create("seq2seq", model="sit-test/no-such-summarizer")
    with pytest.raises(ModelError, match="model hub is unreachable"):
        s.summarize([docs[0].text])


def test_sentence_paraphrase_with_a_model(tiny, docs):
    p = PERTURBERS.create("sentence_paraphrase", model=tiny, num_beams=2, max_new_tokens=12)
    texts = [docs[0].text, "", "Short one."]
    a = p.perturb_detailed(texts, random.Random(0))
    b = p.perturb_detailed(texts, random.Random(0))
    assert [o[0].text for o in a] == [o[0].text for o in b]
    assert a[1][0].reason == "empty text"
    first = a[0][0]
    assert first.applied, first.reason  # the untrained model's output is never the sentence itself
    lead = sentences(docs[0].text)[0]
    c = first.changes[0]  # the first sentence is replaced, the rest kept byte for byte
    assert (c.position, *first.spans()[0], c.before) == (0, 0, lead.end, lead.text)
    assert first.text == c.after + docs[0].text[lead.end:] and c.after != lead.text
    assert a[2][0].applied and a[2][0].text == a[2][0].changes[0].after  # a one-sentence text: all of it
    pairs = p.perturb(texts, random.Random(0))
    assert len(pairs) == 3 and pairs[0].edit.level == "sentence"


def test_a_paraphrase_equal_to_the_sentence_is_no_perturbation(tiny, monkeypatch):
    import sit.models.hf as hf

    def echo(tokenizer, net, device, texts, **kwargs):  # the sentence back, once with other spacing
        return [[t, "  " + t.replace(" ", "   ")] for t in texts]

    monkeypatch.setattr(hf, "generate", echo)
    p = PERTURBERS.create("sentence_paraphrase", model=tiny, num_beams=2)
    o = p.perturb_detailed(["Short one. Second one."], random.Random(0))[0][0]
    assert not o.applied and o.text == "Short one. Second one."
    assert o.reason == "the model returned the sentence unchanged"


def _devices(net) -> set[str]:
    return {str(t.device) for t in list(net.parameters()) + list(net.buffers())}


def test_summarizer_and_paraphraser_run_on_the_device_named(tiny, docs):
    s = SUMMARIZERS.create("seq2seq", model=tiny, device="cpu")
    assert s.summarize([docs[0].text])[0]
    _, net, device = s._loaded
    assert device == "cpu" and _devices(net) == {"cpu"}
    p = PERTURBERS.create("sentence_paraphrase", model=tiny, num_beams=2, max_new_tokens=8, device="cpu")
    p.perturb_detailed([docs[0].text], random.Random(0))
    _, net, device = p._loaded
    assert device == "cpu" and _devices(net) == {"cpu"}


@pytest.mark.parametrize("device", ["nonsense", "cuda:99", "gpu"])
def test_a_device_that_is_not_there_is_a_one_line_error_when_the_model_is_created(tiny, device):
    with pytest.raises(ConfigError, match="--device") as err:
        SUMMARIZERS.create("seq2seq", model=tiny, device=device)
    assert "\n" not in str(err.value) and device in str(err.value)
    with pytest.raises(ConfigError, match="--device"):
        PERTURBERS.create("sentence_paraphrase", model=tiny, device=device)


def test_sit_summarize_device_option_reaches_the_model(tiny, tmp_path, capsys):
    docs_file = tmp_path / "docs.jsonl"
    docs_file.write_text(json.dumps({"document": "One sentence here. Another one there."}) + "\n", encoding="utf-8")
    rc = main(["summarize", "--input", str(docs_file), "--summarizer", "seq2seq", "--model", tiny,
               "--perturber", "sentence_reorder", "--no-progress", "--device", "cuda:99"])
    err = capsys.readouterr().err
    assert rc == 2 and "--device cuda:99" in err and len(err.strip().splitlines()) == 1
