"""Benchmark of the offline pipeline (prints figures; no assertion).

For each bundled dataset and for both together (200 sentences): a cold run (empty cache) and a
cached re-run, each in a fresh process: sentences, perturbations, translations, wall time per
stage, peak memory (max RSS). Then the masked-LM stage on the tiny BERT the tests build: one
forward pass for all masks of a batch vs one forward pass per mask.

Targets on the project's 2-core machine: full offline run of 200 sentences < 60 s, cached re-run
< 10 s, peak memory < 2 GB.

    python3 benchmarks/bench_pipeline.py [--skip-pipeline] [--skip-mlm] [--device cpu|cuda]
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
import json, resource, sys, time
from sit.pipeline import RunConfig, run
cfg = RunConfig(**json.loads(sys.argv[1]))
t = time.perf_counter()
r = run(cfg)
wall = time.perf_counter() - t
print(json.dumps({"wall": wall, "counts": r.counts, "timings": r.timings,
                  "maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "perturber": r.signature.perturber}))
"""


def run_once(config: dict) -> dict:
    t = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", CHILD, json.dumps(config)], capture_output=True, text=True, cwd=ROOT)
    if proc.returncode != 0:
        raise SystemExit(proc.stderr)
    res = json.loads(proc.stdout.strip().splitlines()[-1])
    res["process_wall"] = time.perf_counter() - t
    return res


def pipeline(work: Path) -> None:
    combined = work / "both.txt"
    from sit.inputs import read_sentences

    combined.write_text("\n".join(read_sentences(dataset="politics").texts + read_sentences(dataset="business").texts) + "\n")
    cases = [("politics", {"dataset": "politics"}), ("business", {"dataset": "business"}),
             ("both (200)", {"input": str(combined)})]
    stages = ["setup", "perturb", "translate", "parse", "compare", "score", "report"]
    print(f"{'input':<12} {'run':<6} {'sent':>5} {'pert':>6} {'transl':>6} {'calls':>5} {'hits':>6} "
          + " ".join(f"{s[:9]:>9}" for s in stages) + f" {'wall s':>7} {'process s':>9} {'peak MB':>8}")
    for name, case in cases:
        cache = work / f"cache-{name.split()[0]}"
        for label in ("cold", "cached"):
            cfg = {**case, "translator": "apertium", "cache_dir": str(cache), "out": str(work / f"run-{name.split()[0]}-{label}"),
                   "progress": False}
            r = run_once(cfg)
            c, t = r["counts"], r["timings"]
            print(f"{name:<12} {label:<6} {c['sentences']:>5} {c['perturbations']:>6} {c['translations']:>6} "
                  f"{c['translator_calls']:>5} {c['cache_hits']:>6} "
                  + " ".join(f"{t.get(s, 0):>9.2f}" for s in stages)
                  + f" {r['wall']:>7.2f} {r['process_wall']:>9.2f} {r['maxrss_mb']:>8.0f}")
    print("targets: 200 sentences cold < 60 s, cached re-run < 10 s, peak < 2048 MB (perturber: "
          f"{r['perturber']})")


def mlm(work: Path, device: str, base: bool) -> None:
    sys.path.insert(0, str(ROOT / "tests"))
    from tiny_models import build_tiny_bert

    from sit.inputs import read_sentences
    from sit.perturb import PERTURBERS
    from sit.perturb.substitution import Tagger

    sentences = list(read_sentences(dataset="politics").texts)[:50]
    model_dir = build_tiny_bert(work / "tiny-bert")
    models = [("tiny BERT", str(model_dir))]
    if base:  # bert-base-sized, random weights: the compute of the real model
        from transformers import BertConfig, BertForMaskedLM, BertTokenizerFast

        cfg = BertConfig(vocab_size=30522)
        d = work / "base-random"
        tok = BertTokenizerFast.from_pretrained(str(model_dir))
        tok.save_pretrained(d)
        cfg.vocab_size = tok.vocab_size
        BertForMaskedLM(cfg).save_pretrained(d)
        models.append(("BERT-base size (random)", str(d)))
    tagger = Tagger()
    tagger.tag(sentences)  # warm the tagger
    for label, path in models:
        times = {}
        for mode, fbs in (("per batch", 256), ("per mask", 1)):
            p = PERTURBERS.create("mlm", model=path, tagger=tagger, device=device, forward_batch_size=fbs)
            p.load()
            t = time.perf_counter()
            pairs = p.perturb(sentences)
            times[mode] = (time.perf_counter() - t, p.forward_calls, len(pairs))
        (tb, fb, nb), (tm, fm, nm) = times["per batch"], times["per mask"]
        assert nb == nm
        print(f"masked LM ({label}, {device}): {len(sentences)} sentences, {nb} perturbations; "
              f"one forward per batch: {fb} forwards {tb:.2f} s; one per mask: {fm} forwards {tm:.2f} s; "
              f"ratio {tm / tb:.1f}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--skip-pipeline", action="store_true")
    ap.add_argument("--skip-mlm", action="store_true")
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--base", action="store_true", help="also time a BERT-base-sized masked LM (random weights)")
    args = ap.parse_args()
    import os

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        if not args.skip_pipeline:
            pipeline(work)
        if not args.skip_mlm:
            mlm(work, args.device, args.base)


if __name__ == "__main__":
    main()
