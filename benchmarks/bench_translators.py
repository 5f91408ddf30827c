"""Throughput of the new translators (prints figures; no assertion).

1. CTranslate2 vs transformers on CPU for an opus-mt-sized MarianMT (opus-mt-en-zh's shape, random
   weights: the compute per token is the real one), sentences/s at batch sizes 1, 16 and 64, both
   forced to the same output length. CTranslate2 runs the converted model at int8 (its CPU
   default) and float32.
2. The concurrency speed-up of the openai adapter against the fake OpenAI-compatible server of the
   tests with a fixed latency per request (200 ms): 1 vs 8 requests in flight.

    python3 benchmarks/bench_translators.py [--sentences 64] [--new-tokens 24] [--skip-ct2] [--out rows.json]
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from bench_models import opus_sized_marian, sentences  # noqa: E402


class _FixedLength:
    """A ctranslate2.Translator whose outputs all have ``n`` tokens (as min_new_tokens does)."""

    def __init__(self, translator, n: int):
        self.translator, self.n = translator, n

    def translate_batch(self, source, **kw):
        return self.translator.translate_batch(source, min_decoding_length=self.n, **{**kw, "max_decoding_length": self.n})


def _time(tr, texts: list[str], warm: list[str]) -> float:
    tr._translate_batch(warm)  # warm-up, uncached
    t = time.perf_counter()
    out = tr.translate(texts)
    dt = time.perf_counter() - t
    assert len(out) == len(texts)
    return dt


def bench_ct2(work: Path, texts: list[str], batches: list[int], new_tokens: int) -> list[dict]:
    import ctranslate2
    import torch

    from sit.translators.ct2 import CTranslate2Translator
    from sit.translators.marian import MarianTranslator

    hf = opus_sized_marian(work)
    ct2_dir = work / "marian-ct2"
    files = [p.name for p in hf.iterdir() if p.suffix in (".spm", ".json") and p.name != "config.json"]
    ctranslate2.converters.TransformersConverter(str(hf), copy_files=files).convert(str(ct2_dir), force=True)
    rows = []
    for bs in batches:
        for engine, compute in (("transformers", "float32"), ("ctranslate2", "int8"), ("ctranslate2", "float32")):
            shutil.rmtree(work / "cache", ignore_errors=True)
            if engine == "transformers":
                tr = MarianTranslator("en", "es", model=str(hf), device="cpu", batch_size=bs, max_new_tokens=new_tokens)
                tr.load()
                tr._model.generation_config.min_new_tokens = new_tokens
            else:
                tr = CTranslate2Translator("en", "es", model=str(ct2_dir), device="cpu", batch_size=bs,
                                           compute_type=compute)
                tr.load()
                tr._translator = _FixedLength(tr._translator, new_tokens)
            dt = _time(tr, texts, texts[:bs])
            rows.append({"stage": "marian", "engine": engine, "compute": compute, "batch": bs, "sentences": len(texts),
                         "new_tokens": new_tokens, "threads": torch.get_num_threads(), "seconds": round(dt, 3),
                         "sentences_per_s": round(len(texts) / dt, 1)})
            print(json.dumps(rows[-1]), flush=True)
    return rows


def bench_openai(texts: list[str], latency: float, levels: list[int]) -> list[dict]:
    from fakes import FakeOpenAI

    from sit.translators import get_translator

    rows = []
    with FakeOpenAI(latency=latency) as fake:
        for n in levels:
            tr = get_translator("openai", model=fake.model, concurrency=n, env=fake.env())
            t = time.perf_counter()
            out = tr.translate(texts)
            dt = time.perf_counter() - t
            assert all(out) and not fake.problems, fake.problems
            rows.append({"stage": "openai", "concurrency": n, "latency_s": latency, "texts": len(texts),
                         "seconds": round(dt, 2), "texts_per_s": round(len(texts) / dt, 1)})
            print(json.dumps(rows[-1]), flush=True)
    rows[-1]["speedup"] = round(rows[0]["seconds"] / rows[-1]["seconds"], 2)
    print(f"openai: {levels[-1]} requests in flight vs 1: {rows[-1]['speedup']}x", flush=True)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sentences", type=int, default=64)
    ap.add_argument("--new-tokens", type=int, default=24)
    ap.add_argument("--latency", type=float, default=0.2)
    ap.add_argument("--skip-ct2", action="store_true")
    ap.add_argument("--out", help="also write the rows as JSON here")
    args = ap.parse_args()
    texts = sentences(args.sentences)
    rows = bench_openai(texts[:32], args.latency, [1, 8])
    if not args.skip_ct2:
        with tempfile.TemporaryDirectory() as tmp:
            rows += bench_ct2(Path(tmp), texts, [1, 16, 64], args.new_tokens)
    if args.out:
        Path(args.out).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
