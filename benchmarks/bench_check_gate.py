"""The gate checks of ``sit check`` (issue 48: ``brackets``, ``whitespace``, ``repetition``, ``codes``,
``width``, ``consistency``) on real message catalogues: each check's findings per 1,000 messages,
the default settings' messages with a finding per 1,000, and faults injected into messages with no
finding, found per type (prints figures; no assertion). ``--sample FILE`` writes every finding of
the gate checks as JSON lines (check, kind, package, line, source, translation, evidence) for
labelling (docs/labels/check_gate/).

Catalogues: the ``.mo`` files installed under /usr/share/locale, ``msgunfmt``-ed
(:func:`bench_check_catalogues.catalogue`). Faults, each into a message with no finding (at most
``--per-type``, seed ``--seed``): ``bracket_broken`` (a closing bracket or quotation mark of a
translation that pairs them taken out), ``whitespace_broken`` (a translation's trailing line
break taken out, or a space added at its end where it has none), ``repeated_word`` (a word of the
translation's prose written twice), ``code_dropped`` and ``code_reordered`` (the message given
two inline codes, ``<b>``..``</b>`` and ``<x id="1"/>``, around and after words of both texts, then
one of the translation's taken out, or the two swapped).

    python3 benchmarks/bench_check_gate.py --lang es --packages bash,wget,tar,dpkg
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_check_catalogues import catalogue, run  # noqa: E402

from sit.check import CheckConfig, check, default_checks  # noqa: E402
from sit.textcheck.software import prose  # noqa: E402

#: the options that turn on every kind of the gate checks (the figures of each kind are taken with them)
ALL_ON = {"whitespace": {"edges": "all", "newlines": True, "spaces": True}, "consistency": {"target": True}}
GATE = ("brackets", "whitespace", "repetition", "codes", "width", "consistency")
#: fault -> the checks that find it (an inline code dropped from a text is ``passthrough.missing``'s)
EXPECTED = {"bracket_broken": ("brackets",), "newline_dropped": ("whitespace",), "space_added": ("whitespace",),
            "repeated_word": ("repetition",),
            "code_dropped": ("codes", "passthrough"), "code_reordered": ("codes",)}


def measure(po: Path, lang: str, work: Path, checks: tuple[str, ...], options=None):
    """``sit check`` of ``checks`` on a PO file: (messages, the findings)."""
    result = check(CheckConfig(str(po), target_lang=lang, out=str(work / f"po-{po.stem}-{len(checks)}"), force=True,
                               report_formats=(), checks=checks, relation_options=options or {}))
    return result.segments, result.issues


def fault(kind: str, source: str, translation: str, rng: random.Random):
    """``(source, translation)`` with the fault ``kind``, or None where the message cannot have it."""
    if kind == "bracket_broken":
        closing = [m.start() for m in re.finditer(r"[)\]}”»\"]", translation)]
        return (source, _cut(translation, rng.choice(closing))) if closing else None
    if kind == "newline_dropped":
        return (source, translation.rstrip("\n")) if translation.endswith("\n") else None
    if kind == "space_added":
        return (source, translation + " ") if not translation[-1:].isspace() else None
    if kind == "repeated_word":
        words = _prose_words(translation, 2)
        if not words:
            return None
        m = rng.choice(words)
        return source, translation[:m.end()] + " " + m.group() + translation[m.end():]
    src, tgt = _coded(source), _coded(translation)
    if src is None or tgt is None:
        return None
    if kind == "code_dropped":
        dropped = rng.choice(['<x id="1"/>', "</b>"])
        return src, tgt.replace(dropped, "", 1)
    return src, tgt.replace('<x id="1"/>', "\0").replace("<b>", '<x id="1"/>', 1).replace("\0", "<b>")


def _prose_words(text: str, least: int) -> list[re.Match]:
    # the words of ``text`` (matches in it) that its prose writes (sit.textcheck.software.prose)
    words = set(re.findall(rf"[^\W\d_]{{{least},}}", prose(text)))
    return [m for m in re.finditer(rf"[^\W\d_]{{{least},}}", text) if m.group() in words]


def _cut(text: str, at: int) -> str:
    return text[:at] + text[at + 1:]


def _coded(text: str):
    # the text with its first word of prose in <b>..</b> and <x id="1"/> after its last; None with under two words
    words = _prose_words(text, 3)
    if len(words) < 2:
        return None
    first, last = words[0], words[-1]
    return (text[:first.start()] + "<b>" + first.group() + "</b>" + text[first.end():last.end()] + ' <x id="1"/>'
            + text[last.end():])


def _run_all_on(pairs, lang: str, work: Path, name: str) -> dict[int, set[str]]:
    # line -> the checks with a finding there, every gate check and kind on
    path = work / f"{name}-all.jsonl"
    path.write_text("".join(json.dumps({"source": s, "translation": t}) + "\n" for s, t in pairs), encoding="utf-8")
    result = check(CheckConfig(str(path), target_lang=lang, out=str(work / f"{name}-all"), force=True,
                               report_formats=(), checks=tuple(dict.fromkeys(default_checks() + GATE)),
                               relation_options=ALL_ON))
    found: dict[int, set[str]] = {}
    for issue in result.issues:
        found.setdefault(issue.pair.source_id, set()).add(issue.relation)
    return found


def per_thousand(n: int, messages: int) -> str:
    return f"{1000 * n / max(1, messages):.1f}"


def report_catalogues(args, work: Path, rng: random.Random) -> list[tuple[str, str]]:
    """Print each package's figures; the clean pairs (no finding of any check measured)."""
    defaults, clean, sample = default_checks(), [], []
    allchecks = tuple(dict.fromkeys(defaults + GATE))
    totals: Counter = Counter()
    for package in args.packages.split(","):
        po, got = catalogue(args.lang, package, work)
        if not got:
            print(f"{args.lang}/{package}: not installed")
            continue
        messages, issues = measure(po, args.lang, work, allchecks, ALL_ON)
        groups = Counter(f"{i.relation}.{i.kind}" for i in issues if i.relation in GATE)
        default_lines = {i.pair.source_id for i in measure(po, args.lang, work, defaults)[1]}
        totals.update({"messages": messages, "default": len(default_lines), **groups})
        print(f"{args.lang}/{package}: {messages} messages; default ({', '.join(defaults)}): messages with a finding "
              f"{len(default_lines)} ({per_thousand(len(default_lines), messages)} per 1,000); gate findings: "
              + (", ".join(f"{g} {c}" for g, c in sorted(groups.items())) or "none"))
        flagged = {i.pair.original for i in issues}
        clean += [(s, t) for s, t in got.items() if s not in flagged]
        sample += [{"check": i.relation, "kind": i.kind, "package": package, "line": i.pair.source_id,
                    "source": i.pair.original, "translation": i.original_translation,
                    "evidence": {k: v for k, v in i.evidence.items() if k not in ("mqm", "mqm_severity")}}
                   for i in issues if i.relation in GATE]
    m = totals.pop("messages", 0)
    print(f"all: {m} messages; default settings: {per_thousand(totals.pop('default', 0), m)} messages with a "
          f"finding per 1,000; per gate check and kind, findings per 1,000: "
          + ", ".join(f"{g} {per_thousand(c, m)}" for g, c in sorted(totals.items())))
    if args.sample:
        with open(args.sample, "a", encoding="utf-8") as f:
            f.writelines(json.dumps({"lang": args.lang, **row}, ensure_ascii=False) + "\n" for row in sample)
    return clean


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lang", default="es")
    ap.add_argument("--packages", default="bash,wget,tar,dpkg")
    ap.add_argument("--per-type", type=int, default=60)
    ap.add_argument("--seed", type=int, default=48)
    ap.add_argument("--show", type=int, default=2, help="messages missed to print, a type")
    ap.add_argument("--sample", help="append every gate finding to this JSONL file")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        pairs = report_catalogues(args, work, rng)
        for kind, expected in EXPECTED.items():
            order = list(range(len(pairs)))
            rng.shuffle(order)
            faulted, chosen = [], []
            for i in order:
                if len(chosen) == args.per_type:
                    break
                new = fault(kind, pairs[i][0], pairs[i][1], rng)
                if new is not None and new[1] != pairs[i][1]:
                    faulted.append(new)
                    chosen.append(i)
            found = run(faulted, args.lang, work, kind, checks=default_checks())  # the default settings
            own = [n for n in range(len(faulted)) if set(expected) & found.get(n + 1, set())]
            every = _run_all_on(faulted, args.lang, work, kind)
            on = [n for n in range(len(faulted)) if set(expected) & every.get(n + 1, set())]
            print(f"{kind}: found by {' or '.join(expected)} {len(own)} of {len(faulted)} "
                  f"({100 * len(own) / max(1, len(faulted)):.0f}%); with every gate check and kind on "
                  f"{len(on)} ({100 * len(on) / max(1, len(faulted)):.0f}%)")
            for n in [n for n in range(len(faulted)) if n not in own][:args.show]:
                print(f"   missed: {faulted[n][0][:200]!r}\n        -> {faulted[n][1][:200]!r}")


if __name__ == "__main__":
    main()
