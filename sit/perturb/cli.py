"""``sit perturb``: perturb a file line by line with any registered perturber.

Writes the perturbed file line-aligned with the input (ready for ``sit eval --adv-src``) and a
JSONL record per line: ``applied``, the ``reason`` when it could not apply, and each edit's
position, before, after and character offsets. Also home of the perturber options shared with
``sit summarize``.
"""

from __future__ import annotations

import argparse
import sys

NOISE_HELP = (
    "character_swap, character_delete, character_insert, character_replace, character_repeat, "
    "homoglyph, word_delete, word_synonym, word_homograph, word_reorder, sentence_reorder, "
    "document_reorder, sentence_paraphrase (needs --paraphrase-model), mlm, wordnet"
)


def add_perturber_options(p: argparse.ArgumentParser) -> None:
    from ..commands.flags import spelled

    spelled(p, "--perturber", "--perturbation", dest="perturbation", required=True, metavar="NAME", help=NOISE_HELP)
    p.add_argument("--seed", type=int, default=0, help="seed of random.Random driving the perturbation (default 0)")
    amount = p.add_mutually_exclusive_group()
    amount.add_argument("--n", type=int, help="edits per text (default 1)")
    amount.add_argument("--rate", type=float, help="instead of --n: the fraction of eligible units to edit")
    p.add_argument("--protect", action="append", default=[], metavar="REGEX",
                   help="never edit words overlapping a match of this regular expression (repeatable)")
    p.add_argument("--keep-stopwords", action="store_true", help="stop words are eligible too")
    p.add_argument("--keep-numbers", action="store_true", help="numbers are eligible too")
    p.add_argument("--skip-entities", action="store_true",
                   help="never edit named entities (tagged by the English spaCy pipeline)")
    p.add_argument("--paraphrase-model", metavar="MODEL",
                   help="seq2seq paraphrase model (directory or hub id) for sentence_paraphrase")
    p.add_argument("--device", help="torch device for the models (the masked LM, sentence encoder and paraphraser; "
                   "in sit summarize, the summarizer too): cpu, cuda, cuda:N or mps (default cuda where available, "
                   "else cpu)")
    spelled(p, "--perturber-option", "--option", dest="option", append=True, default=[], metavar="KEY=VALUE",
            help="any other perturber option, e.g. alphabet=xyz, separator='|||', target=random "
            "(VALUE is read as JSON where it parses; --option is the old spelling)")


def perturber_from_args(args: argparse.Namespace, cache=None):
    """Create the perturber named by ``--perturber`` with the options given (flags and
    ``--option``), validated by :func:`sit.perturb.options.perturber_options`; ``--device`` goes
    to a perturber that runs a model, and is checked first even for one that does not."""
    from ..models import checked_device
    from . import PERTURBERS
    from .options import parse_key_values, perturber_options

    device = checked_device(args.device)

    opts = parse_key_values(args.option, "--perturber-option")
    flags = {
        "n": args.n,
        "rate": args.rate,
        "protect": list(args.protect) or None,
        "skip_stopwords": False if args.keep_stopwords else None,
        "skip_numbers": False if args.keep_numbers else None,
        "skip_entities": True if args.skip_entities else None,
        "model": args.paraphrase_model,
    }
    for key, value in flags.items():
        if value is not None:
            opts.setdefault(key, value)
    options = perturber_options(args.perturbation, opts, {"device": device})
    return PERTURBERS.create(args.perturbation, cache=cache, **options)


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("--input", required=True, metavar="FILE", help="UTF-8 text, one sentence or document per line")
    p.add_argument("--output", required=True, metavar="FILE", help="perturbed text, line-aligned with the input")
    p.add_argument("--records", metavar="FILE", help="JSONL record per line of what changed (default OUTPUT.edits.jsonl)")
    add_perturber_options(p)
    p.add_argument("--cache-dir", help="cache for the mlm and wordnet perturbers "
                   "(default $SIT_CACHE_DIR, else ~/.cache/sit)")


def run(args: argparse.Namespace) -> int:
    from ..cache import Cache
    from ..rundir import check_writable
    from .files import perturb_file, records_path_for

    check_writable(args.output, "--output")
    check_writable(args.records or records_path_for(args.output), "--records")
    perturber = perturber_from_args(args, cache=Cache(args.cache_dir))
    res = perturb_file(args.input, args.output, perturber, seed=args.seed, records_path=args.records)
    err = sys.stderr
    print(f"sit: perturbed {res['applied']} of {res['lines']} line(s) with {perturber.name} (seed {args.seed}); "
          f"wrote {res['output']} and {res['records']}", file=err)
    for reason, count in sorted(res["reasons"].items(), key=lambda kv: -kv[1]):
        print(f"sit: {count} line(s) left unchanged: {reason}", file=err)
    return 0
