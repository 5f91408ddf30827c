"""``sit eval`` and the ``teapot`` console script: TEAPOT's command line, same options, same output.

A scorer's own options (``add_args``), including those of scorers in a
``--custom-scores-source`` file, join the command line: the parser looks at the arguments for
``--custom-scores-source``, ``--s-src`` and ``--s-tgt`` before it parses them, loads the files and
adds the options of the chosen scorers (so ``--help`` shows them too).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Optional, Sequence

DESCRIPTION = (
    "TEAPOT: evaluate adversarial perturbations. s_src: how much of the input the perturbation kept; "
    "d_tgt: how much the output's score against the reference dropped (relative decrease); without "
    "--ref, s_tgt: how much of the output was kept. An attack succeeds on a pair when it destroys the "
    "output more than the input. Files are UTF-8, one sentence per line, paired by position."
)


class ScorerNames:
    """The scorers' names, plugins' included, as a help text prints them: read when the help is
    printed, not when the parser is built (the plugins' are every installed package's entry points,
    10-15 ms of a ``sit eval`` that needs none of them)."""

    def __str__(self) -> str:
        from .scorers import scorer_names

        return ", ".join(scorer_names())


def configure(parser: argparse.ArgumentParser) -> None:
    from .scorers import METEOR

    parser.description = DESCRIPTION
    parser.conflict_handler = "resolve"  # as TEAPOT: a custom scorer may redefine an option
    files = parser.add_argument_group("files (paired by line)")
    files.add_argument("--src", metavar="FILE", help="original inputs")
    files.add_argument("--adv-src", metavar="FILE", help="adversarial (perturbed) inputs")
    files.add_argument("--out", metavar="FILE", help="model outputs on the original inputs")
    files.add_argument("--adv-out", metavar="FILE", help="model outputs on the adversarial inputs")
    files.add_argument("--ref", metavar="FILE",
                       help="reference outputs; without it the reference-less criterion is used")
    for option, side in (("--s-src", "inputs"), ("--s-tgt", "outputs")):
        action = parser.add_argument(option, default="chrf", metavar="NAME", help=f"similarity of the {side} "
                                     "(default chrf; choose from: %(scorers)s, or a custom scorer)")
        action.scorers = ScorerNames()  # argparse fills %(name)s from the action's attributes
    parser.add_argument(
        "--success-threshold", type=float, default=1.0, metavar="T",
        help="an attack succeeds on a pair when s_src + d_tgt > T (default 1). Use a higher value when "
        "s_tgt is more 'optimistic' than s_src, e.g. 1.8 with --s-tgt zero_one, so that s_src must be "
        "at least 0.8. Without --ref: success when s_src / s_tgt > T; when the two outputs share "
        "nothing (s_tgt = 0, where TEAPOT divides by zero) the pair counts as a success if s_src > 0",
    )
    parser.add_argument("--src-lang", metavar="LANG", help="language of the inputs (METEOR needs it)")
    parser.add_argument("--tgt-lang", metavar="LANG", help="language of the outputs (METEOR needs it)")
    parser.add_argument("--scale", type=float, default=100.0, help="scale of the printed scores (default 100)")
    parser.add_argument("--custom-scores-source", nargs="*", action="extend", default=[], metavar="FILE.py",
                        help="Python files that register scorers (subclasses of sit.eval.Scorer or teapot.Scorer "
                        "registered with register_scorer(keys, name)); their options appear below when chosen")
    parser.add_argument("--jobs", type=int, default=None, metavar="N",
                        help="worker processes for BLEU (and chrF where fastchrf is not installed); default 1: "
                        "this process. fastchrf scores chrF on its own threads")
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--terse", action="store_true",
                        help="print only the means and the success percentage, one per line (for scripts)")
    output.add_argument("--json", action="store_true",
                        help="print the figures, the per-line scores and the sacrebleu signatures as JSON")
    METEOR.add_args(parser)
    _install_scorer_options(parser)


def _install_scorer_options(parser: argparse.ArgumentParser) -> None:
    """Make ``parser`` add the chosen custom scorers' options before it parses."""
    original = parser.parse_known_args
    added: set = set()

    def parse_known_args(args=None, namespace=None):
        argv = list(sys.argv[1:] if args is None else args)
        failed = _add_scorer_options(parser, argv, added)
        ns, extras = original(args, namespace)
        if failed:  # run() raises the real error (a missing file, an unknown scorer...)
            extras = []
        return ns, extras

    parser.parse_known_args = parse_known_args  # type: ignore[method-assign]


def _add_scorer_options(parser: argparse.ArgumentParser, argv: list[str], added: set) -> bool:
    from ..errors import SitError
    from .scorers import BUILTIN_KEYS, get_scorer_class, load_scorers_source

    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--custom-scores-source", nargs="*", action="extend", default=[])
    pre.add_argument("--s-src", default="chrf")
    pre.add_argument("--s-tgt", default="chrf")
    try:
        known, _ = pre.parse_known_args(argv)
    except SystemExit:  # a malformed line: the real parser says what is wrong
        return False
    failed = False
    for path in known.custom_scores_source:
        try:
            load_scorers_source(path)
        except SitError:
            failed = True
    for key in (known.s_src, known.s_tgt):
        if key in BUILTIN_KEYS:
            continue
        try:
            cls = get_scorer_class(key)
        except SitError:
            failed = True
            continue
        if cls not in added:
            cls.add_args(parser)
            added.add(cls)
    return failed


def _scorer_from_args(key: str, args: argparse.Namespace):
    from ..errors import ConfigError
    from .scorers import get_scorer_class

    cls = get_scorer_class(key)
    try:
        return cls.from_args(args)
    except AttributeError as exc:  # the scorer reads an option its add_args did not declare here
        raise ConfigError(f"scorer {key!r} could not read its options: {exc}") from exc


def run(args: argparse.Namespace) -> int:
    from ..validate import check_number
    from .core import evaluate_files, format_report, format_terse
    from .scorers import load_scorers_source

    scale = check_number(args.scale, "--scale", above=0)

    for path in getattr(args, "custom_scores_source", None) or []:
        load_scorers_source(path)
    source_side = args.src is not None or args.adv_src is not None
    target_side = args.out is not None or args.adv_out is not None
    s_src = _scorer_from_args(args.s_src, args) if source_side else args.s_src
    s_tgt = _scorer_from_args(args.s_tgt, args) if target_side else args.s_tgt
    result = evaluate_files(
        src=args.src, adv_src=args.adv_src, out=args.out, adv_out=args.adv_out, ref=args.ref,
        s_src=s_src, s_tgt=s_tgt, threshold=args.success_threshold, src_lang=args.src_lang,
        tgt_lang=args.tgt_lang, jobs=args.jobs,
    )
    if args.json:
        print(json.dumps(result.to_dict(scale), indent=1, ensure_ascii=False))
    elif args.terse:
        if result.note:
            print(result.note, file=sys.stderr)
        print(format_terse(result, scale))
    else:
        if result.note:
            print(result.note)
        print(format_report(result, scale))
    return 0


def teapot_main(argv: Optional[Sequence[str]] = None) -> int:
    """The ``teapot`` console script: TEAPOT's command, the same options and output as ``sit eval``."""
    from ..cli import run_command

    parser = argparse.ArgumentParser(prog="teapot", description=DESCRIPTION)
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging and tracebacks")
    configure(parser)
    return run_command(run, parser.parse_args(argv), prog="teapot")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(teapot_main())
