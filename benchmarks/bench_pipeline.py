"""Benchmark of the offline pipeline (prints figures; no assertion).

Issue 13's figures, on 200 real news sentences of about 19 words (``sit/datasets/news.txt``),
Apertium en->es, the offline defaults (WordNet perturber and its quality stage, spaCy):

- a cold run (empty cache) with ``--jobs 1`` (the stages one after the other) and with the
  default ``--jobs`` (the machine's cores: translation beside the perturber), then a cached
  re-run, each the ``sit run`` command as a user types it, in a process of its own: the time of
  each stage (run.json) and their sum, the process's wall time from start to exit, and its peak
  memory (max RSS);
- the model stages alone on the very texts the cold run gave them (the English tagger on the
  sentences and re-tagged candidates, the sentence encoder on what it encoded, Apertium on every
  text translated, the Spanish parser on every translation), models loaded beforehand, in a
  process with the ``sit`` command's settings (``sit.cli.tune_process``), and the whole-run
  overhead: the cold run's process wall time / the model stages' sum.

Targets on the project's 2-core machine (issue 13): cold run at most 30 s, cached re-run at most
2 s, peak memory at most 1 GB, whole-run overhead at most 1.3x. Run it where ``scripts/setup.sh``
(without ``--dev``) set up: the test set-up adds sentence-transformers and so scikit-learn, which
NLTK imports whenever it is installed (the first line says which). Then the masked-LM stage on the
tiny BERT the tests build: one forward pass for all masks of a batch vs one per mask.

    python3 benchmarks/bench_pipeline.py [--input FILE] [--skip-pipeline] [--skip-mlm] [--device cpu|cuda]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NEWS = ROOT / "sit" / "datasets" / "news.txt"

# The model stages alone: record what the tagger and the encoder are given while perturbing
# (no cache), then time each model on those texts, and Apertium and the Spanish parser on the
# cold run's texts and translations.
MODELS = r"""
import json, sys, time
from sit.cli import tune_process
tune_process()  # the process settings of the sit command
from sit.perturb import PERTURBERS
from sit.translators import TRANSLATORS
from sit.parse import get_parser
sentences = [l.strip() for l in open(sys.argv[1], encoding="utf-8") if l.strip()]
rows = [json.loads(l) for l in open(sys.argv[2], encoding="utf-8")]
p = PERTURBERS.create("wordnet", progress=False)
tagged, encoded = [], []
tag, similarity = p.tagger.tag, p.quality.encoder.similarity
p.tagger.tag = lambda texts, entities=False: (tagged.append((list(texts), entities)), tag(texts, entities=entities))[1]
p.quality.encoder.similarity = lambda pairs: (encoded.append(list(dict.fromkeys(t for q in pairs for t in q))), similarity(pairs))[1]
p.perturb(sentences)
out = {}
t = time.perf_counter()
for texts, entities in tagged:
    tag(texts, entities=entities)
out["tagger"] = (time.perf_counter() - t, sum(len(x) for x, _ in tagged))
st = p.quality.encoder.load()
t = time.perf_counter()
for texts in encoded:
    st.encode(texts, p.quality.encoder.batch_size)
out["encoder"] = (time.perf_counter() - t, sum(len(x) for x in encoded))
texts = [r["text"] for r in rows]
apertium = TRANSLATORS.create("apertium", target_lang="es", cache=None, progress=False)
t = time.perf_counter()
translations = apertium.translate(texts)
out["translator"] = (time.perf_counter() - t, len(texts))
parser = get_parser("spacy", "es", cache=None, progress=False)
parser.parse(translations[:2])  # load
t = time.perf_counter()
parser.parse(list(dict.fromkeys(translations)))
out["parser"] = (time.perf_counter() - t, len(set(translations)))
print(json.dumps(out))
"""


def sit_run(args: list[str], out: Path) -> dict:
    """``sit run ARGS --out OUT`` as a user runs it, in a process of its own: its run.json, with the
    process's wall time (start to exit) and peak memory (max RSS, from wait4)."""
    t = time.perf_counter()
    with open(out.with_suffix(".log"), "wb") as log:
        proc = subprocess.Popen([sys.executable, "-m", "sit.cli", "run", *args, "--out", str(out)],
                                stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)
        _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(out.with_suffix(".log").read_text())
    res = json.loads((out / "run.json").read_text())
    res.update(process_wall=wall, maxrss_mb=usage.ru_maxrss / 1024)
    return res


def child(code: str, *args: str) -> dict:
    t = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT)
    if proc.returncode != 0:
        raise SystemExit(proc.stderr)
    res = json.loads(proc.stdout.strip().splitlines()[-1])
    res["process_wall"] = time.perf_counter() - t
    return res


def pipeline(work: Path, source: Path) -> None:
    stages = ["setup", "perturb", "translate", "check", "write", "report"]
    import importlib.util

    sklearn = importlib.util.find_spec("sklearn") is not None
    print(f"{source.name}: cores {os.cpu_count()}, load average {os.getloadavg()[0]:.1f} at the start; "
          f"scikit-learn {'installed (NLTK imports it: about 1.2 s and 145 MB more than scripts/setup.sh gives)' if sklearn else 'not installed, as scripts/setup.sh gives'}")
    print(f"{'run':<16} {'sent':>5} {'pert':>6} {'transl':>6} {'calls':>5} {'hits':>6} "
          + " ".join(f"{s[:9]:>9}" for s in stages) + f" {'stages s':>7} {'process s':>9} {'peak MB':>8}")
    cold = {}
    for n, (label, jobs, cache) in enumerate((("cold, --jobs 1", ["--jobs", "1"], "c1"), ("cold, default", [], "c2"),
                                              ("cached re-run", [], "c2"))):
        out = work / f"run-{n}"
        r = sit_run(["--input", str(source), "--translator", "apertium", "--cache-dir", str(work / cache),
                     "--no-progress", *jobs], out)
        if label.startswith("cold"):
            cold[label] = (r, out)
        c, t = r["counts"], r["timings"]
        print(f"{label:<16} {c['sentences']:>5} {c['perturbations']:>6} {c['translations']:>6} "
              f"{c['translator_calls']:>5} {c['cache_hits']:>6} "
              + " ".join(f"{t.get(s, 0):>9.2f}" for s in stages)
              + f" {sum(t.values()):>7.2f} {r['process_wall']:>9.2f} {r['maxrss_mb']:>8.0f}")
    run_dir = cold["cold, default"][1]
    models = child(MODELS, str(source), str(Path(run_dir) / "translations.jsonl"))
    models.pop("process_wall")
    total = sum(sec for sec, _ in models.values())
    print("model stages alone on the same texts (models loaded beforehand): "
          + ", ".join(f"{name} {sec:.2f} s ({n} texts)" for name, (sec, n) in models.items()) + f"; sum {total:.2f} s")
    for label, (r, _) in cold.items():
        print(f"whole-run overhead, {label}: process wall {r['process_wall']:.2f} s / model stages {total:.2f} s "
              f"= {r['process_wall'] / total:.2f}x")
    print("targets (issue 13, 2 cores): cold <= 30 s, cached re-run <= 2 s, peak <= 1024 MB, overhead <= 1.3x")


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
    ap.add_argument("--input", type=Path, default=NEWS, help="one sentence per line (default: the 200 news sentences)")
    ap.add_argument("--skip-pipeline", action="store_true")
    ap.add_argument("--skip-mlm", action="store_true")
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--base", action="store_true", help="also time a BERT-base-sized masked LM (random weights)")
    args = ap.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        if not args.skip_pipeline:
            pipeline(work, args.input)
        if not args.skip_mlm:
            mlm(work, args.device, args.base)


if __name__ == "__main__":
    main()
