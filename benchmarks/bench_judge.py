"""How often a judge (``sit judge``) says the worse translation is the worse one.

Two measures, on data kept out of the repository (Apache-2.0, google/wmt-mqm-human-evaluation:
``generalMT2023/ende/sxs_mqm_generalMT2023_ende.3ratingsPerSegment.tsv.tar.gz`` and
``generalMT2023/zhen/sxs_...``, side-by-side MQM: each rater annotated every system's translation
of a segment on one screen):

1. **WMT23 side by side**: pairs of systems on the same segment where one is clearly better. A
   translation's MQM penalty is 25 per non-translation, 5 per major, 1 per minor error (0.1 for
   minor punctuation), as WMT scores it; the "HOTW" attention checks are left out. A pair is
   clearly decided where the mean penalty of the raters who rated both differs by at least
   ``--margin`` (default 5: one major error) and no rater preferred the other translation.
   Printed for each: coverage (the share of pairs the judge decides, a or b, rather than a tie),
   agreement on the decided pairs, and agreement counting ties as wrong; at margins 5, 10 and 25.
   ``--split dev`` / ``held-out`` measures one half of the documents (alternate documents in
   sorted order): choose options on dev, report held-out.
2. **Perturbations** of real translations: for each segment, the translation its raters
   penalised least, cut into sentences where source and translation have as many, is changed
   one way at a time: ``omission`` (a fifth of the words dropped), ``addition`` (words of another
   segment's translation inserted), ``number`` (a number changed), ``negation`` (a negation
   added by a small table per target language), ``named_entity`` (a capitalised name the
   translation shares with its source swapped for another segment's), ``loop`` (three words of
   it repeated four times more where they stand, as a looping model does), ``untranslated`` (the
   last 40% replaced by the source's last 40%). The perturbed translation is put at a or b at
   random; accuracy is the share judged worse; for ``untranslated`` the share judged *better*
   (wrong) is printed too, since a tie there is an abstention, not an error.

Prints the time of the judging (the encoder's load included) and the machine's load
(``os.getloadavg``). Nothing is cached (``cache=None``).

    python3 benchmarks/bench_judge.py --sxs /tmp/sxs_ende.tsv.tar.gz --pair en-de
    python3 benchmarks/bench_judge.py --sxs /tmp/sxs_zhen.tsv.tar.gz --pair zh-en --limit 1000
"""

from __future__ import annotations

import argparse
import csv
import io
import itertools
import os
import random
import re
import sys
import tarfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sit.judge import get_judge  # noqa: E402
from sit.judge.encoder import sentences  # noqa: E402

KINDS = ("omission", "addition", "number", "negation", "named_entity", "loop", "untranslated")
#: where a negation goes, per target language: after (de, en) or before (es) the first of these verbs
NEGATION = {
    "de": ("after", "nicht", ("ist", "sind", "war", "waren", "wird", "werden", "hat", "haben", "kann", "können",
                               "soll", "sollen", "muss", "müssen")),
    "en": ("after", "not", ("is", "are", "was", "were", "will", "has", "have", "had", "can", "could", "would",
                             "should", "must")),
    "es": ("before", "no", ("es", "son", "está", "están", "fue", "era", "ha", "han", "había", "tiene", "tienen",
                             "puede", "pueden", "será", "hay")),
}


@dataclass
class Segment:
    source: str
    doc: str = ""
    targets: dict[str, str] = field(default_factory=dict)  # system -> translation
    penalties: dict[str, dict[str, float]] = field(default_factory=dict)  # system -> rater -> penalty


def read_tsv(path: str) -> str:
    """The TSV's text, from the file itself or from the first member of a .tar.gz."""
    if path.endswith((".tar.gz", ".tgz")):
        with tarfile.open(path) as tar:
            member = next(m for m in tar.getmembers() if m.isfile())
            return tar.extractfile(member).read().decode("utf-8")
    return Path(path).read_text(encoding="utf-8")


def penalty(category: str, severity: str) -> float:
    if severity == "Major":
        return 25.0 if category.startswith("Non-translation") else 5.0
    if severity == "Minor":
        return 0.1 if category == "Fluency/Punctuation" else 1.0
    return 0.0


def load_segments(path: str) -> list[Segment]:
    old = csv.field_size_limit(1 << 30)  # the process's limit: put back once the file is read
    try:
        return _load_segments(path)
    finally:
        csv.field_size_limit(old)


def _load_segments(path: str) -> list[Segment]:
    segments: dict[str, Segment] = {}
    rows = csv.reader(io.StringIO(read_tsv(path)), delimiter="\t", quoting=csv.QUOTE_NONE)
    next(rows)
    for system, doc, _docseg, gid, rater, source, target, category, severity, *_ in rows:
        if severity == "HOTW-test":  # the raters' attention checks: an error injected on purpose
            continue
        seg = segments.setdefault(gid, Segment(source, doc))
        seg.targets.setdefault(system, re.sub(r"</?v>", "", target))
        raters = seg.penalties.setdefault(system, defaultdict(float))
        raters[rater] += penalty(category, severity)
    return list(segments.values())


def split(segments: list[Segment], half: str) -> list[Segment]:
    """The segments of one half of the documents: ``dev`` (the 1st, 3rd, 5th ... document in sorted
    order), ``held-out`` (the 2nd, 4th ...) or ``all``. A document's segments stay in one half, so
    nothing fitted or chosen on dev has seen a held-out document."""
    if half == "all":
        return segments
    docs = sorted({seg.doc for seg in segments})
    keep = set(docs[0 if half == "dev" else 1::2])
    return [seg for seg in segments if seg.doc in keep]


def clear_pairs(segments: list[Segment], margin: float) -> list[tuple[str, str, str, str]]:
    """(source, a, b, worse) where one system is clearly better (see the module)."""
    out = []
    for seg in segments:
        for x, y in itertools.combinations(sorted(seg.targets), 2):
            a, b = seg.targets[x], seg.targets[y]
            raters = set(seg.penalties[x]) & set(seg.penalties[y])
            if a == b or not raters:
                continue
            diffs = [seg.penalties[x][r] - seg.penalties[y][r] for r in raters]
            mean = sum(diffs) / len(diffs)
            if abs(mean) >= margin and (all(d >= 0 for d in diffs) or all(d <= 0 for d in diffs)):
                out.append((seg.source, a, b, "a" if mean > 0 else "b"))
    return out


def best_translations(segments: list[Segment]) -> list[tuple[str, str]]:
    """(source, translation) of each segment's least penalised system, cut into sentence pairs
    where source and translation have as many sentences."""
    out = []
    for seg in segments:
        system = min(seg.targets, key=lambda s: sum(seg.penalties[s].values()) / max(1, len(seg.penalties[s])))
        src, tgt = seg.source, seg.targets[system]
        ss, ts = sentences(src), sentences(tgt)
        out += list(zip(ss, ts)) if len(ss) == len(ts) else [(src, tgt)]
    return [(s, t) for s, t in out if len(t.split()) >= 4]


def perturb(kind: str, source: str, text: str, rng: random.Random, pool: list[str], lang: str) -> str | None:
    """``text`` changed one way (None where that kind does not apply to it)."""
    words = text.split()
    if kind == "omission":
        if len(words) < 6:
            return None
        k = max(2, round(len(words) / 5))
        at = rng.randrange(1, len(words) - k)
        return " ".join(words[:at] + words[at + k:])
    if kind == "addition":
        donor = rng.choice(pool).split()
        k = min(len(donor), max(3, round(len(words) / 5)))
        at, start = rng.randrange(1, len(words)), rng.randrange(0, len(donor) - k + 1)
        return " ".join(words[:at] + donor[start:start + k] + words[at:])
    if kind == "number":
        numbers = list(re.finditer(r"\d+", text))
        if not numbers:
            return None
        m = rng.choice(numbers)
        return text[:m.start()] + str(int(m.group()) + rng.randint(1, 9)) + text[m.end():]
    if kind == "negation":
        return negate(words, lang)
    if kind == "named_entity":
        return swap_name(source, text, rng, pool)
    if kind == "loop":
        at = rng.randrange(0, len(words) - 2)
        return " ".join(words[:at + 3] + words[at:at + 3] * 4 + words[at + 3:])
    if kind == "untranslated":
        return untranslate(source, text)
    raise ValueError(kind)


def negate(words: list[str], lang: str) -> str | None:
    where, neg, verbs = NEGATION[lang]
    for i, w in enumerate(words):
        if w.lower() in verbs:
            return " ".join(words[:i + 1] + [neg] + words[i + 1:] if where == "after" else words[:i] + [neg] + words[i:])
    return None


def names(source: str, text: str) -> list[str]:
    """Capitalised words of ``text`` (not its first) that its source has verbatim, or, where the source
    is not in Latin script, every such word."""
    latin = bool(re.search(r"[A-Za-z]", source))
    found = [w for w in re.findall(r"(?<=\s)[A-Z][a-z]{2,}\b", text) if not latin or re.search(rf"\b{w}\b", source)]
    return list(dict.fromkeys(found))


def swap_name(source: str, text: str, rng: random.Random, pool: list[str]) -> str | None:
    mine = names(source, text)
    others = [w for t in pool for w in re.findall(r"(?<=\s)[A-Z][a-z]{2,}\b", t) if w not in mine]
    if not mine or not others:
        return None
    name = rng.choice(mine)
    return re.sub(rf"\b{name}\b", rng.choice(others), text)


def untranslate(source: str, text: str) -> str | None:
    """The translation's last 40% replaced by the source's last 40% (words, or characters where the
    source has no spaces)."""
    words = text.split()
    keep = max(1, round(len(words) * 0.6))
    if " " in source.strip():
        src = source.split()
        tail = " ".join(src[round(len(src) * 0.6):])
    else:
        tail = source[round(len(source) * 0.6):]
    return " ".join(words[:keep]) + " " + tail if tail else None


def judge_all(name: str, triples: list[tuple[str, str, str]], pair: tuple[str, str], **options):
    """The verdicts, and the seconds they took (wall clock; the process's CPU time, all threads, is
    printed too: on a busy machine it says what two free cores would take)."""
    start, cpu = time.perf_counter(), time.process_time()
    with get_judge(name, source_lang=pair[0], target_lang=pair[1], cache=None, **options) as judge:
        verdicts = judge.judge(triples)
    seconds = time.perf_counter() - start
    print(f"  ({len(triples)} pair(s): {seconds:.1f} s wall, {time.process_time() - cpu:.1f} s CPU)")
    return verdicts, seconds


def bench_wmt(segments: list[Segment], args, pair) -> None:
    for margin in sorted({args.margin, 10.0, 25.0}):
        pairs = clear_pairs(segments, margin)[: args.limit]
        verdicts, seconds = judge_all(args.judge, [p[:3] for p in pairs], pair, **args.options)
        agree = sum(v.worse == p[3] for v, p in zip(verdicts, pairs))
        decided = sum(v.worse != "tie" for v in verdicts)
        print(f"WMT23 sxs {'-'.join(pair)} {args.split} margin {margin:g}: {len(pairs)} pairs; decided {decided} "
              f"(coverage {decided / max(1, len(pairs)):.1%}), agreement on decided {agree}/{decided} "
              f"({agree / max(1, decided):.1%}), counting ties as wrong {agree / max(1, len(pairs)):.1%}; "
              f"{seconds:.1f} s")


def bench_perturbations(segments: list[Segment], args, pair) -> None:
    rng = random.Random(args.seed)
    items = best_translations(segments)
    pool = [t for _, t in items]
    triples, truth, kinds = [], [], []
    for kind in KINDS:
        done = 0
        for source, text in items:
            changed = perturb(kind, source, text, rng, pool, pair[1])
            if changed is None or changed == text or done >= args.per_kind:
                continue
            side = rng.choice("ab")
            triples.append((source, changed, text) if side == "a" else (source, text, changed))
            truth.append(side)
            kinds.append(kind)
            done += 1
    verdicts, seconds = judge_all(args.judge, triples, pair, **args.options)
    load = os.getloadavg()
    print(f"perturbations of {len(items)} real translations ({'-'.join(pair)}), {len(triples)} pair(s) judged in "
          f"{seconds:.1f} s ({len(triples) / seconds:.0f} pairs/s; load average {load[0]:.2f} {load[1]:.2f}, "
          f"{os.cpu_count()} CPUs)")
    for kind in KINDS:
        rows = [(v, t) for v, t, k in zip(verdicts, truth, kinds) if k == kind]
        right = sum(v.worse == t for v, t in rows)
        wrong = sum(v.worse not in (t, "tie") for v, t in rows)
        ties = len(rows) - right - wrong
        print(f"  {kind:<13} {right}/{len(rows)} right ({right / max(1, len(rows)):.1%}), {wrong} wrong "
              f"({wrong / max(1, len(rows)):.1%}), {ties} tie(s)")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sxs", required=True, help="the side-by-side MQM TSV, or its .tar.gz as published")
    p.add_argument("--pair", default="en-de", help="source-target language codes (default en-de)")
    p.add_argument("--judge", default="use")
    p.add_argument("--judge-option", action="append", default=[], metavar="KEY=VALUE", help="an option of the judge")
    p.add_argument("--split", choices=("all", "dev", "held-out"), default="all",
                   help="the documents measured: dev (odd ones in sorted order), held-out (even ones) or all")
    p.add_argument("--margin", type=float, default=5.0, help="MQM points that make a pair clearly decided")
    p.add_argument("--limit", type=int, default=None, help="at most this many WMT pairs per margin")
    p.add_argument("--per-kind", type=int, default=200, help="perturbed pairs per kind")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--only", choices=("wmt", "perturbations"), help="run one of the two measures")
    args = p.parse_args(argv)
    pair = tuple(args.pair.split("-"))
    segments = split(load_segments(args.sxs), args.split)
    args.options = dict(o.split("=", 1) for o in args.judge_option)
    if args.only != "perturbations":
        bench_wmt(segments, args, pair)
    if args.only != "wmt":
        bench_perturbations(segments, args, pair)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
