"""Command line: argument parsing and error-to-exit-code mapping only.

Each sub-command lives in a module that exposes ``configure(parser)`` (add its options) and
``run(args) -> int`` (call one library function). Modules are light: importing them must not
import torch, transformers, spaCy or stanza, so ``sit --help`` stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from typing import Callable, Optional, Sequence

from . import __version__
from .errors import SitError

# name -> (module, one-line help)
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "run": ("sit.commands.run", "structure-invariant testing of a translator, end to end"),
    "report": ("sit.report.cli", "re-render a run directory (html, text, jsonl, markdown)"),
    "precision": ("sit.report.precision_cli", "top-k precision of a run from triage labels"),
    "eval": ("sit.eval.cli", "TEAPOT: evaluate adversarial perturbations (s_src, d_tgt, success)"),
    "perturb": ("sit.perturb.cli", "perturb a file line by line (noise catalogue, masked LM, WordNet)"),
    "summarize": ("sit.summarize.cli", "lead-bias robustness of summarizers under perturbation"),
    "list": ("sit.commands.listing", "list datasets, translators, perturbers and parsers"),
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sit",
        description="Find translation bugs without references (structure-invariant testing) and "
        "measure what adversarial perturbations really break (TEAPOT).",
    )
    parser.add_argument("--version", action="version", version=f"sit {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging and tracebacks")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in SUBCOMMANDS.items():
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:  # a sub-command still being written
            if not exc.name or not module_name.startswith(exc.name):
                raise
            continue
        p = sub.add_parser(name, help=help_text, description=help_text)
        module.configure(p)
        p.set_defaults(_run=module.run)
    return parser


def _setup_logging(verbose: bool) -> None:
    logging.basicConfig(
        level=logging.DEBUG if verbose else logging.WARNING,
        format="sit: %(levelname)s: %(message)s" if not verbose else "%(name)s: %(levelname)s: %(message)s",
        stream=sys.stderr,
    )
    if not verbose:
        logging.getLogger("sit").setLevel(logging.INFO)
        for noisy in ("transformers", "urllib3", "stanza", "jieba", "filelock", "huggingface_hub", "ray"):
            logging.getLogger(noisy).setLevel(logging.ERROR)


def run_command(run: Callable[[argparse.Namespace], Optional[int]], args: argparse.Namespace, prog: str = "sit") -> int:
    """Run one command's function; turn sit's errors into a one-line message and an exit code."""
    _setup_logging(args.verbose)
    try:
        return int(run(args) or 0)
    except SitError as exc:
        if args.verbose:
            raise
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print(f"{prog}: interrupted; what was finished is kept in the cache", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as exc:  # a file that failed while being read or written (a full disk ...)
        if args.verbose:
            raise
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"{prog}: error: {where}{exc.strerror or exc}; check the path, free space and permissions, "
              "then run the same command again", file=sys.stderr)
        return 4


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "_run", None):
        parser.print_help()
        return 2
    return run_command(args._run, args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
