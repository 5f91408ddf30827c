"""``sit summarize``: lead-bias robustness of a summarizer under a perturbation (Robustsumm).

Summarizes the documents and their perturbations, then reports the lead-sentence inclusion rate
before and after, ROUGE against reference summaries where given, and TEAPOT's s_src / d_tgt.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def configure(p: argparse.ArgumentParser) -> None:
    from ..commands.flags import spelled

    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--input", metavar="FILE",
                     help="JSONL documents ({\"document\": ..., \"summary\": optional reference}); "
                     "'lead_docs' is the bundled set of 26 short news documents")
    spelled(src, "--hub-dataset", "--dataset", dest="dataset", metavar="NAME",
            help="a Hugging Face dataset, e.g. alexfabbri/multi_news (needs `pip install datasets` and the hub); "
                 "--dataset is the old spelling (in sit run, --dataset names a bundled corpus)")
    p.add_argument("--split", default="test", help="dataset split (default test)")
    p.add_argument("--size", type=int, help="use only the first N documents")
    p.add_argument("--text-field", help="field holding the document (default: document, article, text ...)")
    p.add_argument("--summary-field", help="field holding the reference summary (default: summary, highlights ...)")
    p.add_argument("--summarizer", default="lead-3", help="lead-3 (offline baseline, default) or seq2seq")
    p.add_argument("--model", help="seq2seq model: a directory or hub id (default facebook/bart-large-cnn)")
    p.add_argument("--num-beams", type=int, help="beam size (default: the model's generation config)")
    p.add_argument("--max-new-tokens", type=int, help="summary length limit (default: the model's)")
    p.add_argument("--batch-size", type=int, help="documents per model call")
    from ..perturb.cli import add_perturber_options

    add_perturber_options(p)
    p.add_argument("--scope", default="auto", choices=("auto", "lead", "document"),
                   help="perturb the lead sentence or the whole document (default auto: the lead, "
                   "except for sentence_reorder/document_reorder)")
    p.add_argument("--lead-threshold", type=float, default=50.0,
                   help="chrF a summary sentence needs against the first sentence to count as including it (default 50)")
    p.add_argument("--output", metavar="FILE", help="JSONL: one record per document (summaries, scores, edits)")
    p.add_argument("--report", metavar="FILE", help="JSON: the aggregate report")
    p.add_argument("--cache-dir", help="summary cache (default $SIT_CACHE_DIR, else ~/.cache/sit)")
    p.add_argument("--no-cache", action="store_true", help="do not read or write the summary cache")
    p.add_argument("--no-progress", action="store_true", help="no progress bars")


def run(args: argparse.Namespace) -> int:
    from ..commands.flags import progress_bars

    progress = progress_bars(args.no_progress)  # before any model library is imported
    from ..cache import Cache
    from ..errors import ConfigError
    from ..perturb.cli import perturber_from_args
    from . import SUMMARIZERS
    from .data import BUNDLED, bundled_path, load_hub, read_jsonl
    from ..rundir import check_writable
    from .robustness import lead_bias

    for option, path in (("--output", args.output), ("--report", args.report)):
        if path:
            check_writable(path, option)
    if args.input is not None:
        path = bundled_path(args.input) if args.input in BUNDLED else args.input
        docs = read_jsonl(path, text_field=args.text_field, summary_field=args.summary_field, size=args.size)
    else:
        docs = load_hub(args.dataset, split=args.split, size=args.size, text_field=args.text_field,
                        summary_field=args.summary_field)
    cache = None if args.no_cache else Cache(args.cache_dir)
    opts = {"cache": cache, "progress": progress, "batch_size": args.batch_size}
    seq2seq = SUMMARIZERS.entry(args.summarizer).target.endswith(":Seq2SeqSummarizer")
    model_opts = {"model": args.model, "num_beams": args.num_beams, "max_new_tokens": args.max_new_tokens}
    if seq2seq:
        opts.update(model_opts, device=args.device)
    elif any(v is not None for v in model_opts.values()):
        raise ConfigError(f"--model, --num-beams and --max-new-tokens apply to seq2seq, not {args.summarizer!r}")
    perturber = perturber_from_args(args, cache=cache)  # checks --device first
    summarizer = SUMMARIZERS.create(args.summarizer, **opts)
    report = lead_bias(docs, summarizer, perturber, seed=args.seed, scope=args.scope, threshold=args.lead_threshold)
    from ..rundir import write_json_atomic, write_jsonl_atomic  # sit's one writer: devices and links written through

    if args.output:
        write_jsonl_atomic(Path(args.output), (d.to_dict() for d in report.documents))
    if args.report:
        write_json_atomic(Path(args.report), report.to_dict())
    print(report.format())
    if summarizer.cache_hits:
        print(f"sit: {summarizer.cache_hits} summaries came from the cache", file=sys.stderr)
    return 0
