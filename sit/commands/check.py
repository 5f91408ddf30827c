"""``sit check``: the single-translation checks on translations that already exist (docs/check.md)."""

from __future__ import annotations

import argparse
import sys

#: the exit status of ``--fail-on`` when more findings than allowed were found (as ``sit compare``'s)
EXIT_FINDINGS = 7

EXIT_STATUS = f"""exit status:
  0    the check was written (and --fail-on, where given, passed)
  2    bad input or options (a bad file: the message names its line)
  3    a missing dependency (translate-toolkit for PO, XLIFF and TMX)
  4    the run directory cannot be written
  {EXIT_FINDINGS}    --fail-on: more findings than allowed (the run directory is written first)"""


def configure(p: argparse.ArgumentParser) -> None:
    from ..check import all_checks, check_needs, default_checks
    from ..check.files import FORMATS, MAX_TEXT_CHARS
    from ..ignorefile import add_option

    checks = all_checks()
    needs = check_needs()
    p.epilog = EXIT_STATUS + "\n\nlanguage data: " + "; ".join(f"{name}: {needs[name]}" for name in checks)
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    p.add_argument("--source", required=True, metavar="FILE",
                   help="the source texts: a UTF-8 text file (one a line, with --translation), or a TSV, JSONL, PO, "
                        "XLIFF or TMX file that holds both texts")
    p.add_argument("--translation", metavar="FILE", help="the translations, line n of it that of line n of --source")
    p.add_argument("--format", default="auto", choices=FORMATS,
                   help="the format of --source (default: by its ending: .tsv, .jsonl, .po, .xlf/.xliff, .tmx; else text)")
    p.add_argument("--source-lang", default="en", help="source language (default en)")
    p.add_argument("--target-lang", required=True, help="target language, e.g. es, de, zh")
    defaults = default_checks()
    p.add_argument("--checks", default=",".join(defaults), metavar="NAMES",
                   help=f"comma-separated, of: {', '.join(checks)} (default {', '.join(defaults)})")
    p.add_argument("--relation-option", action="append", default=[], metavar="CHECK.KEY=VALUE",
                   help="an option of one check, e.g. language.confidence=0.95 (docs/relations.md)")
    p.add_argument("--fail-on", metavar="GROUPS[:N]",
                   help="exit 7 when more than N (default 0) findings are in GROUPS: any, a check (numbers), a group "
                        "(language.untranslated) or a severity (major: major and critical findings), comma-separated")
    p.add_argument("--glossary", metavar="FILE",
                   help="TSV or CSV, source term then the target term a translation must use (the terms check)")
    p.add_argument("--do-not-translate", metavar="FILE",
                   help="terms a translation keeps as written, one a line (the terms check; language.copied leaves them)")
    p.add_argument("--max-width", type=int, metavar="N",
                   help="at most N characters a translation, where its XLIFF unit gives no maxwidth (the width check)")
    add_option(p, "suppressions to leave out, as `sit mark --as not_bug` writes them")
    p.add_argument("--out", metavar="DIR", help="run directory (default runs/check-<source>-<time>)")
    p.add_argument("--force", action="store_true", help="write over a run directory that holds another run")
    p.add_argument("--cache-dir", help="the cache (language identification results)")
    p.add_argument("--report", default="text,html", metavar="FORMATS", help="reports to write (default text,html)")
    p.add_argument("--max-line-chars", type=int, default=MAX_TEXT_CHARS, metavar="N",
                   help=f"refuse a source text or translation longer than N characters (default {MAX_TEXT_CHARS:,})")


def gate_inputs(checks: tuple[str, ...], options: dict, args: argparse.Namespace) -> tuple[tuple[str, ...], dict]:
    """``--checks`` and the checks' options with what ``--glossary``, ``--do-not-translate`` and
    ``--max-width`` give (the ``terms`` and ``width`` checks, added where ``--checks`` leaves them out)."""
    from ..relations.gate import CHECK_INPUTS
    from ..validate import check_number

    check_number(args.max_width, "--max-width", integer=True, minimum=1)
    options = {name: dict(opts) for name, opts in options.items()}
    for dest, (name, key) in CHECK_INPUTS.items():
        value = getattr(args, dest)
        if value is not None:
            options.setdefault(name, {})[key] = value
            checks = checks if name in checks else checks + (name,)
    return checks, options


def run(args: argparse.Namespace) -> int:
    from ..check import CheckConfig, check, gate
    from ..validate import check_number, names_list
    from .run import parse_relation_options

    checks, options = gate_inputs(names_list(args.checks, "--checks"), parse_relation_options(args.relation_option),
                                  args)
    config = CheckConfig(source=args.source, translation=args.translation, source_lang=args.source_lang,
                         target_lang=args.target_lang, out=args.out, format=args.format, checks=checks,
                         relation_options=options, cache_dir=args.cache_dir,
                         force=args.force, report_formats=names_list(args.report, "--report"),
                         ignore_file=args.ignore_file or None,
                         max_line_chars=check_number(args.max_line_chars, "--max-line-chars", integer=True, minimum=1))
    if args.fail_on:
        gate([], args.fail_on)  # a bad --fail-on fails before any work
    result = check(config)
    for warning in result.warnings:
        print(f"sit: warning: {warning}", file=sys.stderr)
    groups = result.meta.counts.groups
    told = ", ".join(f"{g} {c.findings}" for g, c in groups.items()) or "none"
    print(f"checked {result.segments} translation(s): {len(result.issues)} finding(s) ({told}) on "
          f"{result.meta.counts.flagged_sentences} line(s)" + (f"; {result.ignored} suppressed" if result.ignored else ""))
    print(f"report: {result.run_dir / 'report.txt'}")
    why = gate(result.issues, args.fail_on) if args.fail_on else None
    if why:
        print(f"sit: {why}", file=sys.stderr)
        return EXIT_FINDINGS
    return 0
