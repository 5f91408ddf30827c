"""Throughput of the model stages (prints figures; no assertion): the masked-LM forward passes
of the mlm perturber, the mlm perturber end to end, and MarianMT batched generation, on CPU or GPU.

No weights can be downloaded here, so the models are built from configs of the real sizes
(BERT-base/large, opus-mt-en-zh) with random weights: the compute per token is the real one.
Generation is forced to a fixed length so that random weights do not change the work.

The end-to-end figure runs the ``mlm`` perturber through its public ``perturb`` on news sentences
(sit/datasets/news.txt), with everything a run does: spaCy tagging, one masked-LM pass per batch of
masks, the candidate-quality stage (frequency, grammar, collocations, the MiniLM encoder where
installed) on the same ``--device``. The random model's output bias keeps its proposals on its
tokenizer's words (the corpus's), so the quality stage checks real words, as with a trained model;
how many it keeps is not a trained model's count. Model loading is timed apart (``load_s``).

    python3 benchmarks/bench_models.py --device cuda [--sentences 200] [--quick]
    python3 benchmarks/bench_models.py --stages perturber --sizes base --perturb-sentences 20 --device cpu
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))


def sentences(n: int) -> list[str]:
    texts = []
    for name in ("politics", "business"):
        texts += (ROOT / "datasets" / f"{name}.txt").read_text(encoding="utf-8").splitlines()
    return [t for t in texts if t.strip()][:n]


def masked_variants(texts: list[str], mask: str) -> list[str]:
    """Every word of 3+ letters masked in turn (about what the POS filter keeps, times 2)."""
    out = []
    for t in texts:
        words = t.split()
        for i, w in enumerate(words[1:-1], start=1):
            if w.isalpha() and len(w) > 2:
                out.append(" ".join(words[:i] + [mask] + words[i + 1 :]))
    return out


def sync(device: str) -> None:
    import torch

    if device.startswith("cuda"):
        torch.cuda.synchronize()


#: BertConfig arguments of BERT-base (the defaults) and BERT-large, with bert-base-uncased's vocabulary size
BERT_SIZES = {"base": {}, "large": dict(hidden_size=1024, num_hidden_layers=24, num_attention_heads=16,
                                         intermediate_size=4096)}


def bert_sized(work: Path, size: str):
    """A random BertForMaskedLM of BERT-``size`` (30,522 output tokens, as bert-base-uncased) saved
    with a WordPiece tokenizer trained on the bundled corpora (tests/tiny_models.py's); the output
    bias of the ids past the tokenizer's vocabulary is -1e4, so proposals are the corpus's words.
    Returns (directory, tokenizer)."""
    import torch
    from tiny_models import bert_tokenizer
    from transformers import BertConfig, BertForMaskedLM

    torch.manual_seed(0)
    d = work / f"bert-{size}"
    d.mkdir(exist_ok=True)
    tokenizer = bert_tokenizer(d, sentences(400), vocab_size=3000)
    model = BertForMaskedLM(BertConfig(vocab_size=30522, **BERT_SIZES[size]))
    with torch.no_grad():
        model.cls.predictions.bias[len(tokenizer):] = -1e4
    model.save_pretrained(d)
    tokenizer.save_pretrained(d)
    return d, tokenizer


def bench_mlm(work: Path, device: str, texts: list[str], sizes: list[str], batches: list[int]) -> list[dict]:
    from sit.perturb.mlm import MaskedLMPerturber

    rows = []
    for size in sizes:
        d, tokenizer = bert_sized(work, size)
        masked = masked_variants(texts, tokenizer.mask_token)
        for fbs in batches:
            p = MaskedLMPerturber(model=str(d), device=device, forward_batch_size=fbs)
            p.load()
            p.predict(masked[: min(len(masked), max(fbs, 8))], 10)  # warm-up
            sync(device)
            t = time.perf_counter()
            p.predict(masked, 10)
            sync(device)
            dt = time.perf_counter() - t
            rows.append({"stage": "mlm", "model": f"bert-{size} (random)", "device": device, "forward_batch": fbs,
                         "masks": len(masked), "seconds": round(dt, 3), "masks_per_s": round(len(masked) / dt, 1)})
            print(json.dumps(rows[-1]), flush=True)
    return rows


def news(n: int) -> list[str]:
    from sit.inputs import read_sentences

    return list(read_sentences(dataset="news").texts)[:n]


def timed_predict(p, device: str) -> dict:
    """Count the masks and seconds that ``p``'s masked LM takes from now on (in the dict returned)."""
    spent = {"masks": 0, "seconds": 0.0}
    predict = p.predict

    def timed(masked, k):
        sync(device)
        t = time.perf_counter()
        out = predict(masked, k)
        sync(device)
        spent["masks"] += len(masked)
        spent["seconds"] += time.perf_counter() - t
        return out

    p.predict = timed
    return spent


def bench_perturber(work: Path, device: str, texts: list[str], sizes: list[str], batch: int,
                    forward_batch: int) -> list[dict]:
    """The mlm perturber end to end (``perturb``, no cache) on ``texts``: sentences/s and perturbations/s."""
    from sit.perturb.mlm import MaskedLMPerturber
    from sit.perturb.substitution import Tagger

    tagger = Tagger()
    rows = []
    for size in sizes:
        d, _ = bert_sized(work, size)
        p = MaskedLMPerturber(model=str(d), device=device, forward_batch_size=forward_batch, tagger=tagger)
        p.batch_size = batch
        t = time.perf_counter()
        p.load()
        if p.quality.encoder is not None:
            p.quality.encoder.load()
        p.perturb(texts[:2], random.Random(0))  # warm-up: spaCy, the quality stage's resources
        sync(device)
        load = time.perf_counter() - t
        calls, in_lm = p.forward_calls, timed_predict(p, device)
        t = time.perf_counter()
        pairs = p.perturb(texts, random.Random(0))
        sync(device)
        dt = time.perf_counter() - t
        rows.append({"stage": "mlm perturber", "model": f"bert-{size} (random)", "device": device, "batch": batch,
                     "forward_batch": forward_batch, "encoder": p.quality.encoder.model_id() if p.quality.encoder else "none",
                     "sentences": len(texts), "masks": in_lm["masks"], "perturbations": len(pairs),
                     "forward_calls": p.forward_calls - calls, "load_s": round(load, 2), "seconds": round(dt, 3),
                     "masked_lm_s": round(in_lm["seconds"], 3), "sentences_per_s": round(len(texts) / dt, 2),
                     "perturbations_per_s": round(len(pairs) / dt, 1)})
        print(json.dumps(rows[-1]), flush=True)
    return rows


def opus_sized_marian(work: Path) -> Path:
    """The tiny Marian's trained tokenizer files with a random model of opus-mt-en-zh's shape."""
    import torch
    from tiny_models import build_tiny_marian
    from transformers import MarianConfig, MarianMTModel

    d = build_tiny_marian(work / "marian")
    vocab = json.loads((d / "vocab.json").read_text())
    pad = vocab["<pad>"]
    cfg = MarianConfig(  # opus-mt-en-zh's shape
        vocab_size=len(vocab), d_model=512, encoder_layers=6, decoder_layers=6, encoder_attention_heads=8,
        decoder_attention_heads=8, encoder_ffn_dim=2048, decoder_ffn_dim=2048, max_position_embeddings=512,
        pad_token_id=pad, eos_token_id=0, decoder_start_token_id=pad, scale_embedding=True,
    )
    model = MarianMTModel(cfg)
    with torch.no_grad():
        model.final_logits_bias.zero_()
    model.save_pretrained(d)
    return d


def bench_marian(work: Path, device: str, texts: list[str], batches: list[int], new_tokens: int) -> list[dict]:
    from sit.translators.marian import MarianTranslator

    d = opus_sized_marian(work)
    rows = []
    for bs in batches:
        tr = MarianTranslator("en", "es", model=str(d), device=device, batch_size=bs, max_new_tokens=new_tokens)
        tr.load()
        tr._model.generation_config.min_new_tokens = new_tokens  # fixed-length output
        tr._translate_batch(texts[:bs])  # warm-up
        sync(device)
        t = time.perf_counter()
        out = tr.translate(texts)
        sync(device)
        dt = time.perf_counter() - t
        assert len(out) == len(texts)
        rows.append({"stage": "marian", "model": "opus-mt-en-zh shape (random)", "device": device, "batch": bs,
                     "sentences": len(texts), "new_tokens": new_tokens, "seconds": round(dt, 3),
                     "sentences_per_s": round(len(texts) / dt, 1)})
        print(json.dumps(rows[-1]), flush=True)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--device", default="cpu", help="cpu, cuda or cuda:N (default cpu)")
    ap.add_argument("--stages", default="mlm,perturber,marian",
                    help="comma-separated: mlm (forward passes), perturber (end to end), marian (default all)")
    ap.add_argument("--sizes", default="base,large", help="BERT sizes for mlm and perturber (default base,large)")
    ap.add_argument("--sentences", type=int, default=200, help="corpus sentences for mlm and marian (default 200)")
    ap.add_argument("--perturb-sentences", type=int, default=200, help="news sentences for the perturber (default 200)")
    ap.add_argument("--batch-size", type=int, default=16, help="sentences per perturber batch (default 16, the class's)")
    ap.add_argument("--forward-batch-size", type=int, default=256,
                    help="masks per masked-LM forward pass in the perturber (default 256, the class's)")
    ap.add_argument("--quick", action="store_true", help="fewer configurations (for a CPU smoke run)")
    ap.add_argument("--out", help="also write the rows as JSON here")
    args = ap.parse_args()
    import torch
    from transformers.utils import logging as hf_logging

    from sit.models import resolve_device

    hf_logging.disable_progress_bar()

    from sit.errors import ConfigError

    try:
        device = resolve_device(args.device, "the benchmark")
    except ConfigError as exc:
        ap.error(str(exc))
    print(f"torch {torch.__version__}, device {device}"
          + (f" ({torch.cuda.get_device_name(device)})" if device.startswith("cuda") else ""), flush=True)
    stages, sizes = args.stages.split(","), args.sizes.split(",")
    texts = sentences(args.sentences)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        if "mlm" in stages:
            rows += bench_mlm(work, device, texts, sizes[:1] if args.quick else sizes,
                              [1, 64] if args.quick else [1, 16, 64, 256])
        if "perturber" in stages:
            rows += bench_perturber(work, device, news(args.perturb_sentences), sizes[:1] if args.quick else sizes,
                                    args.batch_size, args.forward_batch_size)
        if "marian" in stages:
            rows += bench_marian(work, device, texts, [16] if args.quick else [1, 16, 64, 200], 16 if args.quick else 48)
    if args.out:
        Path(args.out).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
