"""Command line: argument parsing, error-to-exit-code mapping and the settings of the process.

Each sub-command lives in a module that exposes ``configure(parser)`` (add its options) and
``run(args) -> int`` (call one library function). Modules are light: importing them must not
import torch, transformers, spaCy or stanza, so ``sit --help`` stays fast.

:func:`main` is what tests and programs call; :func:`console` (the ``sit`` command and
``python -m sit.cli``) runs it in a process of its own, which it tunes (:func:`tune_process`)
and leaves without tearing down.
"""

from __future__ import annotations

import argparse
import atexit
import gc
import importlib
import logging
import os
import sys
import threading
from typing import Callable, Optional, Sequence

from . import __version__
from .errors import SitError

# name -> (module, one-line help)
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "run": ("sit.commands.run", "structure-invariant testing of a translator, end to end"),
    "check": ("sit.commands.check", "check existing translations (text, TSV, JSONL, PO, XLIFF, TMX): numbers, tokens, language, loops"),
    "report": ("sit.report.cli", "re-render a run directory (html, text, jsonl, markdown)"),
    "export": ("sit.commands.export", "write a run's failing test cases (a regression suite for `sit run --cases`)"),
    "mark": ("sit.commands.mark", "triage by root cause: mark clusters of a run bug or not a bug"),
    "compare": ("sit.compare.cli", "compare two runs test case by test case: new, fixed, persisting, changed"),
    "judge": ("sit.judge.cli", "which of two translations of each line is worse (offline encoder or an LLM)"),
    "precision": ("sit.report.precision_cli", "top-k precision of a run from triage labels"),
    "eval": ("sit.eval.cli", "TEAPOT: evaluate adversarial perturbations (s_src, d_tgt, success)"),
    "perturb": ("sit.perturb.cli", "perturb a file line by line (noise catalogue, masked LM, WordNet)"),
    "summarize": ("sit.summarize.cli", "lead-bias robustness of summarizers under perturbation"),
    "cache": ("sit.commands.cache", "look after the cache: stats, verify, export, import, prune"),
    "list": ("sit.commands.listing", "list datasets, translators, relations, perturbers, parsers, engines, judges, scorers and formats"),
    "download": ("sit.commands.download", "fetch the models a `sit run` command line needs, for offline runs later"),
}


def build_parser(command: Optional[str] = None) -> argparse.ArgumentParser:
    """The ``sit`` parser. Each sub-command's module is imported and its options added, or, given
    ``command`` (the one a command line names), only that one's: the others keep their one-line
    help (``sit --help`` lists them), and ``sit eval`` does not import what ``sit run`` needs."""
    parser = argparse.ArgumentParser(
        prog="sit",
        description="Find translation bugs without references (structure-invariant testing) and "
        "measure what adversarial perturbations really break (TEAPOT).",
    )
    parser.add_argument("--version", action="version", version=f"sit {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging and tracebacks")
    # the global flags are taken after the sub-command too (`sit run ... -v`); SUPPRESS keeps the
    # sub-command from writing its default over one given before it
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("-v", "--verbose", action="store_true", default=argparse.SUPPRESS,
                        help="debug logging and tracebacks (as before the sub-command)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in SUBCOMMANDS.items():
        if command is not None and name != command:
            sub.add_parser(name, help=help_text, description=help_text)
            continue
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:  # a sub-command still being written
            if not exc.name or not module_name.startswith(exc.name):
                raise
            continue
        p = sub.add_parser(name, help=help_text, description=help_text, parents=[common])
        module.configure(p)
        p.set_defaults(command_run=module.run)
    return parser


def _indented(message: str) -> str:
    """A message as printed: on one line, except where sit lists items on lines of their own
    indented by two spaces (what a command needs and lacks); any other newline (a path or text
    quoted in the message) is written ``\\x0a``, so nothing quoted can pass for a line of its own."""
    first, *rest = message.split("\n")
    out = [first]
    for line in rest:
        if line.startswith("  "):
            out.append("\n" + line)
        else:
            out.append("\\x0a" + line)
    return "".join(out)


def _setup_logging(verbose: bool, redactor=None) -> None:
    logging.basicConfig(
        level=logging.DEBUG if verbose else logging.WARNING,
        format="sit: %(levelname)s: %(message)s" if not verbose else "%(name)s: %(levelname)s: %(message)s",
        stream=sys.stderr,
    )
    if redactor is not None:  # every handler, a library's (urllib3's debug lines) included
        from .redact import RedactingFilter

        for handler in logging.getLogger().handlers:
            mine = [f for f in handler.filters if isinstance(f, RedactingFilter)]
            for f in mine:  # an earlier command's, in this process
                f.redactor = redactor
            if not mine:
                handler.addFilter(RedactingFilter(redactor))
    for noisy in ("transformers", "urllib3", "stanza", "jieba", "filelock", "huggingface_hub", "ray"):
        logging.getLogger(noisy).setLevel(logging.NOTSET if verbose else logging.ERROR)
    if not verbose:
        logging.getLogger("sit").setLevel(logging.INFO)


#: the characters of an error message the CLI prints at most
MAX_MESSAGE = 2000


def run_command(run: Callable[[argparse.Namespace], Optional[int]], args: argparse.Namespace, prog: str = "sit") -> int:
    """Run one command's function; turn sit's errors into a one-line message and an exit code.
    Every message, log line and file of the command goes through the redactor of the
    environment's secrets (:mod:`sit.redact`); with ``-v`` a traceback (redacted) comes before
    the message, and the exit code stays the documented one."""
    from .redact import from_environment, scope
    from .text import printable

    redactor = from_environment()
    _setup_logging(args.verbose, redactor)

    def fail(message: str, code: int) -> int:
        if args.verbose:
            import traceback

            print(redactor(traceback.format_exc()).rstrip(), file=sys.stderr)
        if len(message) > MAX_MESSAGE:  # a message quoting a huge input is cut, never megabytes on stderr
            message = f"{message[:MAX_MESSAGE]}... (cut at {MAX_MESSAGE} of {len(message):,} characters)"
        print(redactor(f"{prog}: error: {_indented(printable(message))}"), file=sys.stderr)
        return code

    with scope(redactor):
        try:
            return int(run(args) or 0)
        except SitError as exc:
            return fail(str(exc), exc.exit_code)
        except KeyboardInterrupt:
            print(f"{prog}: interrupted; what was finished is kept in the cache", file=sys.stderr)
            return 130
        except BrokenPipeError:
            return 0
        except OSError as exc:  # a file that failed while being read or written (a full disk ...)
            where = f"{exc.filename}: " if exc.filename else ""
            return fail(f"{where}{exc.strerror or exc}; check the path, free space and permissions, "
                        "then run the same command again", 4)


def chosen_command(argv: Sequence[str]) -> Optional[str]:
    """The sub-command a command line names (its first word that is not an option), or None."""
    word = next((a for a in argv if not a.startswith("-")), None)
    return word if word in SUBCOMMANDS else None


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser(chosen_command(sys.argv[1:] if argv is None else argv))
    args = parser.parse_args(argv)
    if not getattr(args, "command_run", None):
        parser.print_help()
        return 2
    return run_command(args.command_run, args)


def tune_process() -> None:
    """Settings for a process that runs one sit command, made before any model library loads.

    - OpenMP threads (torch's, on CPU) sleep when they run out of work instead of spinning
      (``OMP_WAIT_POLICY=PASSIVE``, unless the environment sets it): a run's background stage
      (translation, parsing) needs the core they would spin on. Alone, the encoder is about 2%
      slower; a whole run is about 0.6 s faster (benchmarks/bench_pipeline.py).
    - Fewer full garbage collections (``gc.set_threshold``'s third value 10 -> 100): loading
      WordNet, spaCy and the encoder builds about a million objects that live to the end, and each
      full pass walks them all; by default a cold news run makes 11 such passes (1.3 s), now 2.
    """
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, 100)


def console() -> None:
    """The ``sit`` command: :func:`main` in a process tuned by :func:`tune_process`, left at once
    when the command is done. Python's own teardown would free every object the models built one
    by one (about 1.3 s after a cold run), for a process that is ending anyway: once the command
    has returned, exit functions run (``atexit``: logging, Ray) and the standard streams are
    flushed, the process ends with the command's code (``os._exit``). Where a thread that is not a
    daemon still runs, or the command raised, Python ends the process its own way."""
    tune_process()
    code = main()
    if any(t is not threading.main_thread() and not t.daemon for t in threading.enumerate()):
        sys.exit(code)
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a reader that went away, a closed stream
            pass
    os._exit(code)


if __name__ == "__main__":  # pragma: no cover
    console()
