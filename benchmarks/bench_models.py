"""Throughput of the model stages (prints figures; no assertion): the masked-LM forward passes
of the mlm perturber and MarianMT batched generation, on CPU or GPU.

No weights can be downloaded here, so the models are built from configs of the real sizes
(BERT-base/large, opus-mt-en-zh) with random weights: the compute per token is the real one.
Generation is forced to a fixed length so that random weights do not change the work.

    python3 benchmarks/bench_models.py --device cuda [--sentences 200] [--quick]
"""

from __future__ import annotations

import argparse
import json
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


def bench_mlm(work: Path, device: str, texts: list[str], sizes: list[str], batches: list[int]) -> list[dict]:
    from tokenizers import BertWordPieceTokenizer
    from transformers import BertConfig, BertForMaskedLM, BertTokenizerFast

    from sit.perturb.mlm import MaskedLMPerturber

    rows = []
    tokdir = work / "wordpiece"
    tokdir.mkdir(exist_ok=True)
    wp = BertWordPieceTokenizer(lowercase=True)
    wp.train_from_iterator(sentences(400), vocab_size=3000, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"])
    wp.save_model(str(tokdir))
    tokenizer = BertTokenizerFast.from_pretrained(str(tokdir))
    for size in sizes:
        cfg = BertConfig(vocab_size=30522) if size == "base" else BertConfig(
            vocab_size=30522, hidden_size=1024, num_hidden_layers=24, num_attention_heads=16, intermediate_size=4096)
        d = work / f"bert-{size}"
        BertForMaskedLM(cfg).save_pretrained(d)
        tokenizer.save_pretrained(d)
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
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--sentences", type=int, default=200)
    ap.add_argument("--quick", action="store_true", help="fewer configurations (for a CPU smoke run)")
    ap.add_argument("--out", help="also write the rows as JSON here")
    args = ap.parse_args()
    import torch

    print(f"torch {torch.__version__}, device {args.device}"
          + (f" ({torch.cuda.get_device_name(0)})" if args.device.startswith("cuda") else ""), flush=True)
    texts = sentences(args.sentences)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        if args.quick:
            rows = bench_mlm(work, args.device, texts, ["base"], [1, 64])
            rows += bench_marian(work, args.device, texts, [16], 16)
        else:
            rows = bench_mlm(work, args.device, texts, ["base", "large"], [1, 16, 64, 256])
            rows += bench_marian(work, args.device, texts, [1, 16, 64, 200], 48)
    if args.out:
        Path(args.out).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
