"""How sit's single-translation checks agree with professional annotators: segment-level precision
and recall of each check against the MQM error annotations of google/wmt-mqm-human-evaluation
(docs/precision.md, "Checks against MQM annotations").

    python3 benchmarks/bench_mqm.py MQM.tsv [MQM.tsv ...] [--source-lang en --target-lang de]
        [--half dev|test|all] [--examples 3] [--limit N] [--relation-option numbers.units=true]

The MQM files are not in this repository (their size; the licence is the data set's own, CC BY 4.0):
fetch https://github.com/google/wmt-mqm-human-evaluation and pass the paths, e.g.
``ted/ende/mqm_ted_ende.tsv``, ``ted/zhen/mqm_ted_zhen.tsv`` (``--source-lang zh --target-lang en``),
the newstest files (``newstest2020/ende/mqm_newstest2020_ende.tsv``, ``newstest2021/...``) or WMT23's
side-by-side files, unpacked (``tar xzf generalMT2023/ende/sxs_mqm_generalMT2023_ende.3ratingsPerSegment.tsv.tar.gz``;
a segment there is a paragraph; rows of severity ``HOTW-test``, the tool's attention checks, are
left out); put them anywhere, e.g. ``~/data/wmt-mqm/``, and pass the path.

Method. A segment is one system's translation of one source sentence (all raters' rows of it
together). Every segment goes through ``sit check`` with every check (:func:`sit.check.all_checks`,
the opt-in ones too; the source and the translation with the annotators' ``<v>`` marks taken out),
the checks with a software mode reading prose, not program messages (:data:`PROSE`:
``software=false``). A check *fires* on a segment when it has a finding there. The
annotators *mark* a segment for a check's category when:

- numbers (``--numbers-truth category``, :func:`number_error`): a marked error span (in the
  translation or, for omissions, the source) holds a digit and is of a ``Locale convention``
  category of numbers, currency, dates or times, or an omission, or another ``Accuracy`` error
  (not a gender mismatch) of at most 4 words, or, of any other category, the number itself
  (``18%``); ``--numbers-truth span``, the first reading: any span with a digit of at most 4 words;
- untranslated: an error of category ``Accuracy/Untranslated text`` (``Accuracy/Source language
  fragment`` in the WMT23 files) whose span holds a letter (``--untranslated-truth words``; one
  WMT23 rater marks digits, ``4`` in ``4 of the 5 new products``, as a source-language fragment);
  ``Non-translation!`` is not one (the data set's README: a segment too garbled to mark errors in);
- any other MQM category: an error of that category.

``--compare`` adds, per MQM category (:data:`CATEGORIES`: numbers, untranslated, spelling,
punctuation, omission, addition, grammar), segment-level precision, recall and F1 of sit's checks
that claim it and of translate-toolkit's pofilter tests that do (``StandardChecker`` on the same
source and translation; its ``spellcheck`` needs pyenchant, which sit does not install, so
pofilter's spelling is its capitalisation tests), beside the F1 of firing on every segment.

Precision is the share of segments a check fires on that the annotators marked; recall the share
of marked segments the check fires on. ``--half dev`` takes the talks/documents with an odd
``doc_id`` (where the checks were developed), ``--half test`` the even ones (reported), so that
nothing is tuned to the figures reported; files whose documents have names, not numbers (WMT23),
split by the parity of the name's CRC-32. Since stop 41 the split is by file (docs/precision.md):
TED en->de and WMT23 zh->en are development files, WMT23 en->de and TED zh->en held out; run
each with ``--half all``, and the held-out ones with ``--examples 0`` where their misses must stay
unread. Besides precision and recall, it says in how many agreeing segments a marked span holds
what the check names (the same error, not only the same segment).
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import sys
import tempfile
import zlib
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

MARK = re.compile(r"</?v>")
SPAN = re.compile(r"<v>(.*?)</v>")
#: sit's groups read as one check each
CHECKS = {"numbers": ("numbers.",), "untranslated": ("language.untranslated", "language.copied",
                                                     "language.wrong_language")}


@dataclass(frozen=True)
class Category:
    """One MQM category as the per-category table (``--compare``) reads it: which annotations
    mark it (their category starts with one of ``marks``, or a check's own truth), which sit
    groups and which of pofilter's tests (translate-toolkit's StandardChecker) stand for it."""

    name: str
    marks: tuple[str, ...]
    sit: tuple[str, ...]
    pofilter: tuple[str, ...]


#: the categories of the table: a check of sit or a test of pofilter that claims the category
#: (pofilter's ``spellcheck`` needs pyenchant, which sit does not install: it is left out, said so)
CATEGORIES = (
    Category("numbers", ("numbers",), ("numbers.",), ("numbers",)),
    Category("untranslated", ("untranslated",), CHECKS["untranslated"], ("unchanged", "untranslated")),
    Category("spelling", ("Fluency/Spelling",), ("spelling.spelling", "spelling.spacing"), ("startcaps", "simplecaps")),
    Category("punctuation", ("Fluency/Punctuation",), ("punctuation.", "typography."),
             ("endpunc", "startpunc", "puncspacing", "doublespacing", "endwhitespace", "startwhitespace",
              "doublequoting", "singlequoting", "brackets", "sentencecount")),
    Category("omission", ("Accuracy/Omission",), ("length.cut", "length.empty", "length.ratio"), ("short", "blank")),
    Category("addition", ("Accuracy/Addition",), ("length.loop", "length.ratio"), ("long",)),
    Category("grammar", ("Fluency/Grammar",), ("spelling.repeated", "concord.", "declension."), ("doublewords",)),
    # concord: Spanish targets; declension: German
)


@dataclass
class Segment:
    """One system's translation of one source sentence, with every category its raters marked."""

    doc: str
    source: str
    translation: str
    categories: set = field(default_factory=set)
    examples: dict = field(default_factory=dict)  # truth -> a marked span
    spans: dict = field(default_factory=dict)  # truth -> every marked span


def read_mqm(paths: list[str], limit: int = 0, numbers: str = "category",
             untranslated: str = "words") -> list[Segment]:
    """The segments of MQM TSV files: the per-sentence files (system, doc, doc_id, seg_id, rater,
    source, target, category, severity[, comment]) and the side-by-side files of WMT23
    (``sxs_mqm_*``: system, doc, docSegId, globalSegId, rater, source, target, category, severity,
    metadata; a segment is a paragraph). csv's field limit is the process's: raised while the files
    are read, then put back, so that no other reader in the process (a test's) sees it raised."""
    old = csv.field_size_limit(10 ** 9)
    try:
        return _read_mqm(paths, limit, numbers, untranslated)
    finally:
        csv.field_size_limit(old)


def _read_mqm(paths: list[str], limit: int, numbers: str, untranslated: str) -> list[Segment]:
    segments: dict[tuple, Segment] = {}
    for path in paths:
        with open(path, encoding="utf-8", newline="") as fh:
            for row in csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE):
                if row.get("severity") == "HOTW-test":  # the tool's attention checks, not the system's errors
                    continue
                doc = row.get("doc_id") or _doc_number(row["doc"])
                key = (path, row["system"], row["doc"], row.get("seg_id") or row.get("docSegId"))
                seg = segments.get(key)
                if seg is None:
                    seg = segments[key] = Segment(doc, MARK.sub("", row["source"]),
                                                  MARK.sub("", row["target"]))
                spans = _spans(row)
                for truth in _truths(row, spans, numbers, untranslated):
                    seg.categories.add(truth)
                    seg.examples.setdefault(truth, (spans or [""])[0])
                    seg.spans.setdefault(truth, []).extend(spans)
                if limit and len(segments) >= limit:
                    return list(segments.values())
    return list(segments.values())


def _doc_number(doc: str) -> str:
    """A side-by-side file's document (``news_bbc.124285:en-de``) as a number whose parity splits
    the documents in two halves: CRC-32 of its name, the same on every machine."""
    return str(zlib.crc32(doc.encode("utf-8")))


def _spans(row: dict) -> list[str]:
    """The row's marked spans: ``<v>...</v>`` in the target or the source, else (side-by-side
    files) the metadata's ``marked_text``."""
    spans = SPAN.findall(row["target"]) + SPAN.findall(row["source"])
    if not spans and row.get("metadata", "").startswith("{"):
        marked = json.loads(row["metadata"]).get("marked_text", "").strip()
        spans = [marked] if marked else []
    return spans


#: MQM categories of a word or a stretch left in the source language (the WMT20-22 schema, and the
#: WMT23 side-by-side one)
UNTRANSLATED = ("Accuracy/Untranslated text", "Accuracy/Source language fragment")


def _truths(row: dict, spans: list[str], numbers: str = "category", untranslated: str = "words") -> list[str]:
    """What a row marks: its category, and the checks' own truths (numbers, untranslated: with
    ``untranslated="words"`` an untranslated span of digits alone, ``4`` for ``4 of the 5 new
    products``, is no word left in the source language and does not count)."""
    category = row["category"].strip()
    if category in ("No-error", "no-error", "", "Found", "Missed"):
        return []
    out = [category]
    if (number_error if numbers == "category" else _digit_span)(category, spans):
        out.append("numbers")
    if category in UNTRANSLATED and (untranslated == "category" or not spans
                                     or any(re.search(r"[^\W\d_]", s) for s in spans)):
        out.append("untranslated")
    return out


def _digit_span(category: str, spans: list[str]) -> bool:
    # the first reading (stop 33): any short span with a digit, whatever its category
    return any(re.search(r"\d", s) and (len(s.split()) <= 4 or category.startswith("Locale convention"))
               for s in spans) or category.startswith(("Locale convention/Number", "Locale convention/Currency"))


#: a span that is a number as written: digits with their separators, signs, symbols and at most a
#: two-letter abbreviation ("18%", "40000", "£44m", "12:15", "5.25%-5.75%")
NUMBER_ITSELF = re.compile(r"[^\w]*\d[\d\W_]*(?:[^\W\d_]{1,2}\.?)?[\d\W_]*")
#: Locale convention categories about how a number, an amount, a date or a time is written (not
#: the order of a name or an address: "40 Wall Street" -> "Wall Street 40")
NUMBER_LOCALE = ("Locale convention/Number", "Locale convention/Currency", "Locale convention/Date",
                 "Locale convention/Time", "Locale convention/Measurement")


def number_error(category: str, spans: list[str]) -> bool:
    """Whether an MQM error is about a number (the default reading, ``--numbers-truth category``):
    a span with a digit that is of a Locale convention category about numbers, amounts, dates and
    times; an omission (the number went with it, however long the span); another Accuracy error
    of at most four words (a changed number; not a Gender Mismatch, which is about the word's
    gender: "einen 14-Jährigen"); or, of any other category (Punctuation, Spelling, Style), a span
    that is the number itself (``18%`` for German ``18 %``, ``40000`` for ``40,000``)."""
    spans = [s.strip() for s in spans if re.search(r"\d", s)]
    if not spans or category.startswith("Source"):
        return False
    if category.startswith(NUMBER_LOCALE) or category.startswith("Accuracy/Omission"):
        return True
    if category.startswith("Accuracy/") and category != "Accuracy/Gender Mismatch":
        return any(len(s.split()) <= 4 for s in spans)
    return any(NUMBER_ITSELF.fullmatch(s) for s in spans)


#: the options the segments are checked with before ``--relation-option``'s (a later one wins): they
#: are news prose, not a program's messages, so the checks with a software mode read them as ``sit
#: run`` does, not as ``sit check`` reads a catalogue (where "Seven" counts for 7 only right before the
#: source's next word, and a word left in the source language may be a name of the program's)
PROSE = [f"{check}.software=false" for check in ("numbers", "passthrough", "language", "punctuation")] + [
    "typography.straight=true"]  # opt-in kinds too: every check is measured


def fired(segments: list[Segment], source_lang: str, target_lang: str, options=None) -> list[dict[str, list]]:
    """Per segment: sit group -> its findings' evidence (``sit check`` over a TSV of them all)."""
    from sit.check import CheckConfig, all_checks, check

    with tempfile.TemporaryDirectory() as tmp:
        tsv = Path(tmp) / "segments.tsv"
        with open(tsv, "w", encoding="utf-8") as fh:
            fh.write("source\ttranslation\n")
            for s in segments:
                fh.write(f"{_cell(s.source)}\t{_cell(s.translation)}\n")
        result = check(CheckConfig(source=str(tsv), source_lang=source_lang, target_lang=target_lang, checks=all_checks(),
                                   out=str(Path(tmp) / "run"), cache_dir=str(Path(tmp) / "cache"),
                                   report_formats=(), relation_options=options or {}))
    out: list[dict[str, list]] = [defaultdict(list) for _ in segments]
    for issue in result.issues:
        out[issue.pair.source_id - 2][issue.group].append(issue.evidence)  # line 1 is the header
    return out


def _cell(text: str) -> str:
    return text.replace("\t", " ").replace("\n", " ") or " "


def table(segments, found, examples: int) -> None:
    """Precision and recall per check and per sit group, against the checks' truths and every
    MQM category, with examples of each kind of disagreement."""
    groups = sorted({g for f in found for g in f})
    categories = sorted({c for s in segments for c in s.categories})
    print(f"{len(segments)} segments; marked: " + ", ".join(
        f"{c} {sum(c in s.categories for s in segments)}" for c in ("numbers", "untranslated")))
    for check, prefixes in CHECKS.items():
        fires = [any(g.startswith(p) for g in f for p in prefixes) for f in found]
        _line(check, check, segments, fires)
        _overlap(check, segments, found, fires, prefixes)
        _disagreements(check, segments, found, fires, prefixes, examples)
    print("\nper sit group and MQM category (precision / recall, segments fired):")
    for group in groups:
        fires = [group in f for f in found]
        best = sorted(categories, key=lambda c: -sum(f and c in s.categories for f, s in zip(fires, segments)))[:4]
        for c in best:
            _line(group, c, segments, fires)


def pofilter_fired(segments: list[Segment], target_lang: str) -> list[set[str]]:
    """Per segment: the pofilter tests (translate-toolkit's StandardChecker, the tests
    :data:`CATEGORIES` names) that fail on its source and translation."""
    from translate.filters import checks

    checker = checks.StandardChecker(checks.CheckerConfig(targetlanguage=target_lang))
    tests = sorted({t for c in CATEGORIES for t in c.pofilter})
    out = []
    for seg in segments:
        failed = set()
        for test in tests:
            try:
                getattr(checker, test)(seg.source, seg.translation)
            except checks.FilterFailure:  # SeriousFilterFailure is one too
                failed.add(test)
        out.append(failed)
    return out


def marked(segment: Segment, category: Category) -> bool:
    return any(c == m or c.startswith(m) for c in segment.categories for m in category.marks)


def compare(segments: list[Segment], found, pofilter) -> None:
    """Per MQM category, segment-level precision, recall and F1 of sit's checks and of pofilter's
    tests that claim it; "-" where a tool has no check for the category. ``every``: the F1 of
    firing on every segment (what a check that tells nothing scores where most segments are marked)."""
    print("\nper MQM category, segment level (sit check vs pofilter on the same segments):")
    print(f"  {'category':13} {'marked':>6}  {'sit P / R / F1 (fired)':>30}  {'pofilter P / R / F1 (fired)':>30}"
          f"  {'every':>5}")
    for cat in CATEGORIES:
        truth = [marked(s, cat) for s in segments]
        sit = [any(g.startswith(p) for g in f for p in cat.sit) for f in found] if cat.sit else None
        po = [bool(f & set(cat.pofilter)) for f in pofilter]
        every = prf(truth, [True] * len(truth))[2]
        print(f"  {cat.name:13} {sum(truth):6}  {_prf(truth, sit):>30}  {_prf(truth, po):>30}  {every:5.2f}")


def prf(truth: list[bool], fires: list[bool]) -> tuple[float, float, float, int]:
    """(precision, recall, F1, segments fired) of ``fires`` against ``truth``."""
    tp = sum(f and t for f, t in zip(fires, truth))
    fired_n, marked_n = sum(fires), sum(truth)
    p = tp / fired_n if fired_n else 0.0
    r = tp / marked_n if marked_n else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0), fired_n


def _prf(truth, fires) -> str:
    if fires is None:
        return "-"
    p, r, f1, n = prf(truth, fires)
    return f"{p:.2f} / {r:.2f} / {f1:.2f} ({n})"


def _line(name: str, truth: str, segments, fires) -> None:
    tp = sum(f and truth in s.categories for f, s in zip(fires, segments))
    fp = sum(f and truth not in s.categories for f, s in zip(fires, segments))
    fn = sum(not f and truth in s.categories for f, s in zip(fires, segments))
    p = tp / (tp + fp) if tp + fp else float("nan")
    r = tp / (tp + fn) if tp + fn else float("nan")
    print(f"  {name:28} vs {truth:42} P {p:.2f} ({tp}/{tp + fp})  R {r:.2f} ({tp}/{tp + fn})")


def _overlap(check, segments, found, fires, prefixes) -> None:
    """Of the segments a check fires on that the annotators marked, those where a marked span holds
    what the check names (a number, a copied word, a date as written): the agreement is then on the
    same error, not only on the same segment."""
    agreed = [(s, f) for s, f, x in zip(segments, found, fires) if x and check in s.categories]
    same = sum(any(_named(e) & _named_in(s.spans.get(check, ())) for g, es in f.items()
                   if any(g.startswith(p) for p in prefixes) for e in es) for s, f in agreed)
    if agreed:
        print(f"    of the {len(agreed)} agreeing segments, {same} have a marked span holding what the check names")


#: a run of digits or of letters: Chinese text glues numbers to words (据法新社2月10日报道)
_TOKEN = re.compile(r"\d+|[^\W\d_]+")


def _named(evidence: dict) -> set:
    # the words and digits a finding names: its numbers, copied words, runs, calendar and place names
    out = set()
    for key in ("numbers", "words", "runs", "script", "calendar", "places"):
        for item in evidence.get(key, ()):
            text = item.get("number", "") if isinstance(item, dict) else str(item)
            out.update(t.casefold() for t in _TOKEN.findall(text))
    return out


def _named_in(spans) -> set:
    return {t.casefold() for span in spans for t in _TOKEN.findall(span)}


def _disagreements(check, segments, found, fires, prefixes, examples: int) -> None:
    fp = [(s, f) for s, f, x in zip(segments, found, fires) if x and check not in s.categories]
    fn = [s for s, x in zip(segments, fires) if not x and check in s.categories]
    for s, f in fp[:examples]:
        said = {g: e for g, e in f.items() if any(g.startswith(p) for p in prefixes)}
        print(f"    fired, not marked: {s.source[:90]!r}\n      -> {s.translation[:90]!r}\n      {_short(said)}")
    for s in fn[:examples]:
        print(f"    marked, not fired: {s.source[:90]!r}\n      -> {s.translation[:90]!r}\n"
              f"      marked span {s.examples.get(check, '')[:60]!r} ({', '.join(sorted(s.categories - set(CHECKS)))})")


def _short(said: dict) -> str:
    return "; ".join(f"{g}: {[{k: v for k, v in e.items() if k != 'variants'} for e in es]}"[:160]
                     for g, es in said.items())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+", help="MQM TSV files of google/wmt-mqm-human-evaluation")
    ap.add_argument("--source-lang", default="en")
    ap.add_argument("--target-lang", default="de")
    ap.add_argument("--half", choices=("dev", "test", "all"), default="test",
                    help="dev: odd doc_id (developed on), test: even doc_id (reported, default), all")
    ap.add_argument("--examples", type=int, default=3, help="examples of each kind of disagreement")
    ap.add_argument("--limit", type=int, default=0, help="only the first N segments")
    ap.add_argument("--relation-option", action="append", default=[], metavar="CHECK.KEY=VALUE",
                    help="an option of one check, e.g. numbers.units=true")
    ap.add_argument("--numbers-truth", choices=("category", "span"), default="category",
                    help="category: an MQM error about a number (number_error, default); span: any short "
                         "error span with a digit (the first reading)")
    ap.add_argument("--untranslated-truth", choices=("words", "category"), default="words",
                    help="words: an untranslated-text error whose span has a letter (default); category: "
                         "every such error, also a span of digits alone (the reading before stop 41)")
    ap.add_argument("--compare", action="store_true",
                    help="also pofilter (translate-toolkit) on the same segments: P/R/F1 per MQM category")
    args = ap.parse_args()
    for path in args.files:
        if not Path(path).is_file():
            sys.exit(f"bench_mqm: {path} is not a file; fetch github.com/google/wmt-mqm-human-evaluation and pass "
                     "the path of an MQM TSV file (see this script's docstring)")
    segments = read_mqm(args.files, args.limit, args.numbers_truth, args.untranslated_truth)
    if args.half != "all":
        odd = 1 if args.half == "dev" else 0
        segments = [s for s in segments if s.doc.isdigit() and int(s.doc) % 2 == odd]
    from sit.commands.run import parse_relation_options

    found = fired(segments, args.source_lang, args.target_lang,
                  parse_relation_options(PROSE + args.relation_option))
    print(f"{', '.join(args.files)} ({args.half}), {args.source_lang}->{args.target_lang}")
    table(segments, found, args.examples)
    if args.compare:
        compare(segments, found, pofilter_fired(segments, args.target_lang))


if __name__ == "__main__":
    main()
