"""Tiny transformers models the tests build offline, saved with ``save_pretrained`` and loaded by
sit through the same ``from_pretrained`` path a real hub model takes.

- a tiny BERT masked LM with a WordPiece vocabulary trained on the bundled corpora, trained for a
  few hundred steps so that its predictions after "the" are words of the corpus;
- a tiny MarianMT with SentencePiece vocabularies trained on English sentences and their real
  Apertium Spanish translations, trained until it reproduces a handful of them; configured as
  opus-mt models are, <pad>'s zero embedding included, so that CTranslate2 converts it exactly.
"""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path


def corpus() -> list[str]:
    from sit.inputs import read_sentences

    return list(read_sentences(dataset="politics").texts) + list(read_sentences(dataset="business").texts)


def bert_tokenizer(out: Path, sentences: list[str], vocab_size: int = 2000):
    """A lowercasing BERT WordPiece tokenizer trained on ``sentences``, its vocabulary saved in
    ``out`` (an existing directory): the tiny BERT's, and the benchmarks' BERT-sized models'."""
    from tokenizers import BertWordPieceTokenizer
    from transformers import BertTokenizerFast

    wp = BertWordPieceTokenizer(lowercase=True)
    wp.train_from_iterator(sentences, vocab_size=vocab_size, min_frequency=1,
                           special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"])
    wp.save_model(str(out))
    return BertTokenizerFast.from_pretrained(str(out), do_lower_case=True)


def build_tiny_bert(out: Path, *, steps: int = 300, seed: int = 0) -> Path:
    import torch
    from transformers import BertConfig, BertForMaskedLM

    torch.manual_seed(seed)
    rng = random.Random(seed)
    sentences = corpus()
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    tokenizer = bert_tokenizer(out, sentences)
    config = BertConfig(vocab_size=tokenizer.vocab_size, hidden_size=64, num_hidden_layers=2,
                        num_attention_heads=2, intermediate_size=128, max_position_embeddings=64)
    model = BertForMaskedLM(config)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    model.train()
    for _ in range(steps):
        batch = rng.sample(sentences, 32)
        enc = tokenizer(batch, return_tensors="pt", padding=True, truncation=True, max_length=64)
        labels = enc["input_ids"].clone()
        special = (labels == tokenizer.cls_token_id) | (labels == tokenizer.sep_token_id) | (labels == tokenizer.pad_token_id)
        mask = (torch.rand(labels.shape) < 0.2) & ~special
        labels[~mask] = -100
        inputs = enc["input_ids"].clone()
        inputs[mask] = tokenizer.mask_token_id
        loss = model(input_ids=inputs, attention_mask=enc["attention_mask"], labels=labels).loss
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)
    return out


# English sentences and their Spanish translations by Apertium (eng-spa 0.8.1), memorised by the
# tiny MarianMT the tests train.
MARIAN_PAIRS = [
    ("The president met the minister.", "El presidente cumplió el ministro."),
    ("The bank raised interest rates.", "El banco tasas de interés criado."),
    ("The company opened a new factory.", "La empresa abrió una fábrica nueva."),
    ("The senator criticized the governor.", "El senador criticó el gobernador."),
]


def _opus_mt_like(config_class, model_class, vocab_size: int, pad: int):
    """A small MarianMT configured as the opus-mt models are (swish, sinusoidal positions, scaled
    and shared embeddings; generation starts from <pad>, the last token, and never emits it), whose
    <pad> embedding stays zero in training.

    Marian's decoder starts from a zero embedding: an opus-mt model's <pad> row is zero, and
    CTranslate2's Marian converter relies on it (``start_from_zero_embedding``, <pad> dropped from
    the vocabulary). The output projection is tied to the embeddings, so training would move that
    row away from zero through the <pad> logit; its gradient is masked out instead."""
    import torch

    config = config_class(
        vocab_size=vocab_size, d_model=64, encoder_layers=2, decoder_layers=2, encoder_attention_heads=4,
        decoder_attention_heads=4, encoder_ffn_dim=128, decoder_ffn_dim=128, max_position_embeddings=128,
        activation_function="swish", pad_token_id=pad, eos_token_id=0, decoder_start_token_id=pad,
        forced_eos_token_id=0, scale_embedding=True, share_encoder_decoder_embeddings=True,
    )
    model = model_class(config)
    model.generation_config.update(bad_words_ids=[[pad]], renormalize_logits=True)
    keep = torch.ones(vocab_size, 1)
    keep[pad] = 0.0
    model.model.shared.weight.register_hook(lambda grad: grad * keep)
    return model


# The same English sentences in Chinese, for the tiny en->zh MarianMT (the mission's language pair).
MARIAN_PAIRS_ZH = [
    ("The president met the minister.", "总统会见了部长。"),
    ("The bank raised interest rates.", "银行提高了利率。"),
    ("The company opened a new factory.", "公司开了一家新工厂。"),
    ("The senator criticized the governor.", "参议员批评了州长。"),
]


def build_tiny_marian(out: Path, *, max_steps: int = 600, seed: int = 0, pairs: list[tuple[str, str]] = MARIAN_PAIRS,
                      target_lang: str = "es") -> Path:
    """A tiny MarianMT that has memorised ``pairs`` (English -> ``target_lang``)."""
    import sentencepiece as spm
    import torch
    from transformers import MarianConfig, MarianMTModel, MarianTokenizer

    torch.manual_seed(seed)
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    sentences = corpus()[:60]
    src_text = [s for s, _ in pairs] + sentences
    tgt_text = [t for _, t in pairs]
    for name, texts in (("source", src_text), ("target", tgt_text * 5)):
        spm.SentencePieceTrainer.train(
            sentence_iterator=iter(texts), model_prefix=str(out / name), vocab_size=120 if name == "target" else 400,
            model_type="unigram", character_coverage=1.0, bos_id=-1, eos_id=-1, unk_id=0, pad_id=-1,
            hard_vocab_limit=False, minloglevel=2,
        )
        (out / f"{name}.model").rename(out / f"{name}.spm")
        (out / f"{name}.vocab").unlink()
    vocab = {"</s>": 0, "<unk>": 1}
    for name in ("source", "target"):
        sp = spm.SentencePieceProcessor(model_file=str(out / f"{name}.spm"))
        for i in range(sp.get_piece_size()):
            vocab.setdefault(sp.id_to_piece(i), len(vocab))
    vocab["<pad>"] = len(vocab)
    (out / "vocab.json").write_text(json.dumps(vocab, ensure_ascii=False), encoding="utf-8")
    tokenizer = MarianTokenizer(
        source_spm=str(out / "source.spm"), target_spm=str(out / "target.spm"), vocab=str(out / "vocab.json"),
        source_lang="en", target_lang=target_lang,
    )
    pad = vocab["<pad>"]
    model = _opus_mt_like(MarianConfig, MarianMTModel, len(vocab), pad)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    enc = tokenizer([s for s, _ in pairs], text_target=[t for _, t in pairs], return_tensors="pt", padding=True)
    labels = enc["labels"].clone()
    labels[labels == pad] = -100
    targets = [t for _, t in pairs]
    for step in range(1, max_steps + 1):
        model.train()
        loss = model(input_ids=enc["input_ids"], attention_mask=enc["attention_mask"], labels=labels).loss
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 25 == 0:  # stop once greedy decoding reproduces every training pair
            model.eval()
            with torch.inference_mode():
                gen = model.generate(input_ids=enc["input_ids"], attention_mask=enc["attention_mask"],
                                     num_beams=1, max_new_tokens=40)
            if tokenizer.batch_decode(gen, skip_special_tokens=True) == targets:
                break
    else:
        raise RuntimeError(f"the tiny MarianMT did not learn its {len(targets)} pairs in {max_steps} steps")
    if model.model.shared.weight[pad].any():
        raise RuntimeError("the tiny MarianMT's <pad> embedding left zero: CTranslate2 would decode it differently")
    model.eval()
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)
    return out


# The same English sentences in French, so that a tiny multilingual model must follow the forced
# target-language token to choose between its two targets.
N_MULTI = 2  # sentences the tiny multilingual models learn (kept small: seconds on two cores)
FRENCH = [
    "Le président a rencontré le ministre.",
    "La banque a relevé les taux d'intérêt.",
    "L'entreprise a ouvert une nouvelle usine.",
    "Le sénateur a critiqué le gouverneur.",
]


def _nllb_tokenizer(out: Path, texts: list[str]):
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers
    from transformers import NllbTokenizer

    bpe = Tokenizer(models.BPE(unk_token="<unk>"))
    bpe.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="always", split=True)
    bpe.train_from_iterator(texts, trainers.BpeTrainer(vocab_size=300, special_tokens=["<s>", "<pad>", "</s>", "<unk>"],
                                                       show_progress=False))
    model = json.loads(bpe.to_str())["model"]
    merges = [tuple(m.split(" ")) if isinstance(m, str) else tuple(m) for m in model["merges"]]
    return NllbTokenizer(vocab=model["vocab"], merges=merges, src_lang="eng_Latn", tgt_lang="spa_Latn")


def _m2m100_tokenizer(out: Path, texts: list[str]):
    import sentencepiece as spm
    from transformers import M2M100Tokenizer

    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(texts), model_prefix=str(out / "spm"), vocab_size=200, model_type="word",
        character_coverage=1.0, bos_id=-1, eos_id=-1, unk_id=0, pad_id=-1, hard_vocab_limit=False, minloglevel=2)
    sp = spm.SentencePieceProcessor(model_file=str(out / "spm.model"))
    vocab = {"<s>": 0, "<pad>": 1, "</s>": 2, "<unk>": 3}
    for i in range(sp.get_piece_size()):
        vocab.setdefault(sp.id_to_piece(i), len(vocab))
    (out / "vocab.json").write_text(json.dumps(vocab, ensure_ascii=False), encoding="utf-8")
    (out / "spm.vocab").unlink()
    return M2M100Tokenizer(vocab_file=str(out / "vocab.json"), spm_file=str(out / "spm.model"), src_lang="en",
                           tgt_lang="es")


def build_tiny_multilingual(out: Path, kind: str = "nllb", *, max_steps: int = 600, seed: int = 0) -> Path:
    """A tiny NLLB (``kind="nllb"``: NllbTokenizer, FLORES-200 codes) or M2M100 (M2M100Tokenizer,
    ``__es__`` codes) that translates the first :data:`N_MULTI` English sentences of
    :data:`MARIAN_PAIRS` into their Spanish or into :data:`FRENCH`, whichever target-language
    token is forced as the first generated token."""
    import torch
    from transformers import M2M100Config, M2M100ForConditionalGeneration

    torch.manual_seed(seed)
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    english = [s for s, _ in MARIAN_PAIRS[:N_MULTI]]
    targets = {"es": [t for _, t in MARIAN_PAIRS[:N_MULTI]], "fr": FRENCH[:N_MULTI]}
    build = _nllb_tokenizer if kind == "nllb" else _m2m100_tokenizer
    tokenizer = build(out, english + targets["es"] + targets["fr"])
    code = {"es": "spa_Latn", "fr": "fra_Latn", "en": "eng_Latn"} if kind == "nllb" else {"es": "es", "fr": "fr", "en": "en"}
    tokenizer.src_lang = code["en"]
    lang_token = (lambda c: c) if kind == "nllb" else tokenizer.get_lang_token
    size = len(tokenizer)  # M2M100's language tokens come after its vocabulary, outside len()
    if hasattr(tokenizer, "lang_token_to_id"):
        size = max(size, max(tokenizer.lang_token_to_id.values()) + 1)
    config = M2M100Config(
        vocab_size=size, d_model=64, encoder_layers=1, decoder_layers=1, encoder_attention_heads=4,
        decoder_attention_heads=4, encoder_ffn_dim=128, decoder_ffn_dim=128, max_position_embeddings=128,
        pad_token_id=tokenizer.pad_token_id, bos_token_id=0, eos_token_id=2, decoder_start_token_id=2,
        scale_embedding=True, dropout=0.0, attention_dropout=0.0, activation_dropout=0.0)
    model = M2M100ForConditionalGeneration(config)
    sources, labels, forced = [], [], []
    for lang, texts in targets.items():
        tokenizer.tgt_lang = code[lang]
        enc = tokenizer(english, text_target=texts, return_tensors="pt", padding=True)
        sources.append(enc)
        lab = enc["labels"].clone()
        lab[lab == tokenizer.pad_token_id] = -100
        labels.append(lab)
        forced.append(tokenizer.convert_tokens_to_ids(lang_token(code[lang])))
    opt = torch.optim.AdamW(model.parameters(), lr=5e-3)
    for step in range(1, max_steps + 1):
        model.train()
        for enc, lab in zip(sources, labels):
            loss = model(input_ids=enc["input_ids"], attention_mask=enc["attention_mask"], labels=lab).loss
            opt.zero_grad()
            loss.backward()
            opt.step()
        if step % 20 == 0 and _learned(model, tokenizer, sources, forced, list(targets.values())):
            break
    else:
        raise RuntimeError(f"the tiny {kind} did not learn its pairs in {max_steps} steps")
    model.eval()
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)
    return out


def _learned(model, tokenizer, sources, forced, targets) -> bool:
    import torch

    model.eval()
    with torch.inference_mode():
        for enc, bos, want in zip(sources, forced, targets):
            gen = model.generate(input_ids=enc["input_ids"], attention_mask=enc["attention_mask"], num_beams=1,
                                 max_new_tokens=40, forced_bos_token_id=bos)
            gen = [[i for i in row if i != bos] for row in gen.tolist()]  # M2M100's may not be special
            if tokenizer.batch_decode(gen, skip_special_tokens=True) != want:
                return False
    return True


# -- a tiny causal LM that translates through a few-shot prompt (the llm translator) ---------------
#: what the tiny causal LM writes after the answer's line, as a base model does: the next example
CONTINUATION = "\n\nEnglish: The"
CHAT_TEMPLATE = ("{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}\n{% endfor %}"
                 "{% if add_generation_prompt %}<|assistant|>{% endif %}")


def causal_tokenizer(out: Path, texts: list[str]):
    """A byte-level BPE tokenizer trained on ``texts`` (<bos>, <eos>, <pad>), saved in ``out``."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    bpe = Tokenizer(models.BPE())
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    bpe.train_from_iterator(texts, trainers.BpeTrainer(vocab_size=600, special_tokens=["<pad>", "<bos>", "<eos>"],
                                                       initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    from tokenizers.processors import TemplateProcessing

    bpe.post_processor = TemplateProcessing(single="<bos> $A", special_tokens=[("<bos>", bpe.token_to_id("<bos>"))])
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=bpe, bos_token="<bos>", eos_token="<eos>", pad_token="<pad>")
    tokenizer.save_pretrained(out)
    return tokenizer


def build_tiny_causal(out: Path, *, pairs: list[tuple[str, str]] = MARIAN_PAIRS, train: bool = True,
                      max_steps: int = 800, seed: int = 0) -> Path:
    """A tiny Llama causal LM that, given the llm translator's en->es few-shot prompt of one of
    ``pairs``' sources, writes its translation, then goes on as a base model does
    (:data:`CONTINUATION`); ``train=False``: the same model untrained (it babbles to its bound)."""
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    from sit.translators.llm import Prompt, few_shot

    torch.manual_seed(seed)
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    prompt = Prompt.of(False, few_shot("en", "es"), "en", "es")
    prompts = [prompt.fill(s) for s, _ in pairs]
    answers = [" " + t + CONTINUATION for _, t in pairs]
    tokenizer = causal_tokenizer(out, [p + a for p, a in zip(prompts, answers)] + corpus()[:60])
    config = LlamaConfig(vocab_size=len(tokenizer), hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                         num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=256,
                         bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id,
                         pad_token_id=tokenizer.pad_token_id, tie_word_embeddings=True)
    model = LlamaForCausalLM(config)
    if train:
        _train_causal(model, tokenizer, prompts, answers, max_steps)
    model.eval()
    model.save_pretrained(out)
    return out


def _train_causal(model, tokenizer, prompts: list[str], answers: list[str], max_steps: int) -> None:
    """Train ``model`` on the answers (the prompts' tokens take no loss) until greedy decoding
    writes each answer's first line."""
    import torch

    tokenizer.padding_side = "right"
    enc = tokenizer([p + a for p, a in zip(prompts, answers)], return_tensors="pt", padding=True)
    labels = enc["input_ids"].clone()
    for i, p in enumerate(prompts):
        labels[i, :len(tokenizer(p)["input_ids"])] = -100
    labels[enc["attention_mask"] == 0] = -100
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    tokenizer.padding_side = "left"
    left = tokenizer(prompts, return_tensors="pt", padding=True)
    wanted = [a.split("\n")[0] for a in answers]
    for step in range(1, max_steps + 1):
        model.train()
        loss = model(**enc, labels=labels).loss
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 50 == 0:
            model.eval()
            with torch.inference_mode():
                gen = model.generate(**left, max_new_tokens=30, do_sample=False)
            said = tokenizer.batch_decode(gen[:, left["input_ids"].shape[1]:], skip_special_tokens=True)
            if [s.split("\n")[0] for s in said] == wanted:
                return
    raise RuntimeError(f"the tiny causal LM did not learn its {len(prompts)} answers in {max_steps} steps")


def _permute(weights, heads: int):
    """llama.cpp's order of a query or key projection's rows (transformers undoes it on loading)."""
    return weights.reshape(heads, 2, weights.shape[0] // heads // 2, *weights.shape[1:]).swapaxes(1, 2).reshape(weights.shape)


def write_tiny_gguf(model_dir: Path, out: Path) -> Path:
    """The tiny causal LM of ``model_dir`` written as a GGUF file (architecture llama, float32
    tensors, its byte-level BPE tokenizer as a ``gpt2`` vocabulary with its merges), with the
    ``gguf`` package's writer, as llama.cpp's converter lays it out."""
    import gguf
    from transformers import AutoTokenizer, LlamaForCausalLM

    model, tokenizer = LlamaForCausalLM.from_pretrained(model_dir), AutoTokenizer.from_pretrained(model_dir)
    c = model.config
    writer = gguf.GGUFWriter(str(out), "llama")
    writer.add_context_length(c.max_position_embeddings)
    writer.add_embedding_length(c.hidden_size)
    writer.add_block_count(c.num_hidden_layers)
    writer.add_feed_forward_length(c.intermediate_size)
    writer.add_head_count(c.num_attention_heads)
    writer.add_head_count_kv(c.num_key_value_heads)
    writer.add_layer_norm_rms_eps(c.rms_norm_eps)
    writer.add_rope_freq_base(c.rope_parameters["rope_theta"])
    writer.add_rope_dimension_count(c.hidden_size // c.num_attention_heads)
    writer.add_vocab_size(len(tokenizer))
    tokens = [t for t, _ in sorted(tokenizer.get_vocab().items(), key=lambda kv: kv[1])]
    merges = json.loads((model_dir / "tokenizer.json").read_text(encoding="utf-8"))["model"]["merges"]
    writer.add_tokenizer_model("gpt2")
    writer.add_tokenizer_pre("default")
    writer.add_token_list(tokens)
    writer.add_token_types([gguf.TokenType.CONTROL if t in tokenizer.all_special_tokens else gguf.TokenType.NORMAL
                            for t in tokens])
    writer.add_token_merges([m if isinstance(m, str) else " ".join(m) for m in merges])
    writer.add_bos_token_id(tokenizer.bos_token_id)
    writer.add_eos_token_id(tokenizer.eos_token_id)
    writer.add_pad_token_id(tokenizer.pad_token_id)
    writer.add_add_bos_token(True)
    names = gguf.get_tensor_name_map(gguf.MODEL_ARCH.LLAMA, c.num_hidden_layers)
    for name, tensor in model.state_dict().items():
        if name == "lm_head.weight":
            continue  # tied to the embeddings: a file without output.weight says so
        data = tensor.float().numpy()
        if name.endswith("q_proj.weight"):
            data = _permute(data, c.num_attention_heads)
        elif name.endswith("k_proj.weight"):
            data = _permute(data, c.num_key_value_heads)
        writer.add_tensor(names.get_name(name, try_suffixes=(".weight", ".bias")), data)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return out
