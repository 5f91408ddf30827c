"""Benchmark of the engines (prints figures; no assertion): the same run with ``--engine local``
and ``--engine ray``, each in a fresh process with an empty cache, then a cached re-run on ray.

On one machine this measures what Ray costs (its start, actor start-up, one model load per actor,
moving batches through the object store) against what it gains (stages on all cores). On a GPU
machine, ``--gpus-per-worker 1 --workers 1`` against ``--gpus-per-worker 1`` (all GPUs) gives the
throughput with one and with every GPU, e.g. with ``--translator marian --model DIR
--perturber mlm --mlm-model DIR``.

    python3 benchmarks/bench_engine.py [--dataset news] [--limit N] [--perturber auto]
        [--translator apertium] [--ray-address ADDR] [--workers N] [--gpus-per-worker G]

Figures: wall seconds of the whole process, of the run, and per stage (``run.json``'s timings).
A local Ray instance a run starts is stopped when that run ends. ``--ray-address local`` keeps the
benchmark off any cluster already running on the machine.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, sys, time
from sit.pipeline import RunConfig, run
t = time.perf_counter()
r = run(RunConfig(**json.loads(sys.argv[1])))
print(json.dumps({"wall": time.perf_counter() - t, "counts": r.counts.to_dict(), "timings": r.timings}))
"""


def run_once(config: dict) -> dict:
    t = time.perf_counter()
    p = subprocess.run([sys.executable, "-c", CHILD, json.dumps(config)], capture_output=True, text=True, cwd=ROOT)
    if p.returncode != 0:
        raise SystemExit(f"run failed ({config.get('engine')}):\n{p.stderr[-2000:]}")
    out = json.loads(p.stdout.strip().splitlines()[-1])
    out["process"] = time.perf_counter() - t
    return out


def show(label: str, r: dict) -> None:
    c, t = r["counts"], r["timings"]
    stages = "  ".join(f"{k} {v:6.1f}" for k, v in t.items() if v >= 0.05)
    print(f"{label:<22} process {r['process']:6.1f} s  run {r['wall']:6.1f} s  |  {stages}")
    print(f"{'':<22} {c['sentences']} sentences, {c['perturbations']} perturbations, {c['translations']} texts, "
          f"{c['translator_calls']} translator call(s), {c['cache_hits']} cache hit(s), {c['issues']} issues")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dataset", default="news")
    ap.add_argument("--limit", type=int, default=200)
    ap.add_argument("--perturber", default="auto")
    ap.add_argument("--translator", default="apertium")
    ap.add_argument("--model")
    ap.add_argument("--mlm-model", default="bert-base-uncased")
    ap.add_argument("--ray-address")
    ap.add_argument("--workers", type=int)
    ap.add_argument("--gpus-per-worker", type=float, default=0.0)
    ap.add_argument("--skip-local", action="store_true")
    args = ap.parse_args()
    base = {"dataset": args.dataset, "limit": args.limit, "perturber": args.perturber,
            "translator": args.translator, "model": args.model, "mlm_model": args.mlm_model, "progress": False}
    ray = {"engine": "ray", "ray_address": args.ray_address, "workers": args.workers,
           "gpus_per_worker": args.gpus_per_worker}
    with tempfile.TemporaryDirectory() as tmp:
        print(f"{args.limit} sentences of {args.dataset}, perturber {args.perturber}, translator {args.translator}")
        results = {}
        if not args.skip_local:
            results["local"] = run_once({**base, "cache_dir": f"{tmp}/local", "out": f"{tmp}/run-local"})
            show("local (cold)", results["local"])
        results["ray"] = run_once({**base, **ray, "cache_dir": f"{tmp}/ray", "out": f"{tmp}/run-ray"})
        show("ray (cold)", results["ray"])
        show("ray (cached re-run)", run_once({**base, **ray, "cache_dir": f"{tmp}/ray", "out": f"{tmp}/run-ray2"}))
        if "local" in results:
            same = all((Path(tmp) / "run-local" / f).read_bytes() == (Path(tmp) / "run-ray" / f).read_bytes()
                       for f in ("pairs.jsonl", "issues.jsonl"))
            print(f"pairs.jsonl and issues.jsonl identical: {same}; ray/local wall: "
                  f"{results['ray']['process'] / results['local']['process']:.2f}x")


if __name__ == "__main__":
    main()
