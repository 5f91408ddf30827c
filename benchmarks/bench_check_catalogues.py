"""``sit check`` on real message catalogues (issue 48): findings per 1,000 messages with the default
settings, and faults injected into messages found, per fault type (prints figures; no assertion).

The catalogues are the ``.mo`` files installed under /usr/share/locale (``msgunfmt``); a fault is
injected into a message with no finding of its own, at most ``--per-type`` messages a type, chosen
with ``--seed``: ``placeholder_dropped`` (one format specifier of the translation taken out),
``placeholder_changed`` (one specifier's conversion changed, ``%s`` -> ``%d``, ``{0}`` -> ``{1}``),
``placeholder_added`` (a ``%s`` added at the end of a translation whose source has no format
specifier; issue 48), ``number_changed`` (a digit of a number the source and translation share), ``untranslated`` (the
translation replaced by the source; messages with a word of prose), ``other_language`` (the
translation replaced by the ``--other`` language's catalogue's for the same message; messages of
four words of prose or more). Found: a finding on that message (and, apart, one of the fault's checks).

The checks are ``sit check``'s defaults (:func:`sit.check.default_checks`: the five older checks and
the gate's default ones), as ``benchmarks/bench_check_gate.py`` runs them; ``--checks`` names others
(the five older checks alone: ``--checks numbers,passthrough,language,length,punctuation``).

    python3 benchmarks/bench_check_catalogues.py --lang es --other de --packages bash,wget,tar,dpkg
"""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sit.check import CheckConfig, check, default_checks  # noqa: E402
from sit.check.files import read_segments  # noqa: E402
from sit.textcheck.software import PLACEHOLDERS, prose, software_tokens  # noqa: E402

EXPECTED = {"placeholder_dropped": ("passthrough",), "placeholder_changed": ("passthrough",),
            "placeholder_added": ("passthrough",),
            "number_changed": ("numbers",), "untranslated": ("language",), "other_language": ("language",)}


def catalogue(lang: str, package: str, work: Path) -> tuple[Path, dict[str, str]]:
    """An installed catalogue as a PO file, and its msgid -> msgstr (none where not installed)."""
    mo = Path(f"/usr/share/locale/{lang}/LC_MESSAGES/{package}.mo")
    po = work / f"{lang}-{package}.po"
    if not mo.exists():
        return po, {}
    subprocess.run(["msgunfmt", str(mo), "-o", str(po)], check=True, stderr=subprocess.DEVNULL)
    return po, {s.source: s.translation for s in read_segments(str(po), None, "po")}


#: the five checks before the gate's (docs/check.md: spelling and typography, issue 45, do not read a
#: program's messages yet); the benchmark measures sit check's defaults unless --checks names others
CHECKS: tuple[str, ...] = ("numbers", "passthrough", "language", "length", "punctuation")


def check_po(po: Path, lang: str, work: Path, checks: tuple[str, ...] = CHECKS) -> tuple[int, dict[str, set[str]]]:
    """``sit check`` on the PO file: (messages, msgid -> checks with a finding)."""
    result = check(CheckConfig(str(po), target_lang=lang, out=str(work / f"po-{po.stem}"), force=True,
                               report_formats=(), checks=checks))
    found: dict[str, set[str]] = {}
    for issue in result.issues:
        found.setdefault(issue.pair.original, set()).add(issue.relation)
    return result.segments, found


def run(pairs: list[tuple[str, str]], lang: str, work: Path, name: str,
        checks: tuple[str, ...] = CHECKS) -> dict[int, set[str]]:
    """Line (1-based) -> the checks with a finding there, by ``sit check``."""
    path = work / f"{name}.jsonl"
    path.write_text("".join(json.dumps({"source": s, "translation": t}) + "\n" for s, t in pairs), encoding="utf-8")
    result = check(CheckConfig(str(path), target_lang=lang, out=str(work / name), force=True, report_formats=(),
                               checks=checks))
    found: dict[int, set[str]] = {}
    for issue in result.issues:
        found.setdefault(issue.pair.source_id, set()).add(issue.relation)
    return found


def pofilter(pairs: list[tuple[str, str]], lang: str, work: Path, name: str) -> dict[int, set[str]]:
    """Line (1-based) -> the pofilter tests that fail there (translate-toolkit's pofilter, all
    its default tests, on a PO file of ``pairs``, each unit's context its line)."""
    from translate.storage import pypo as pofile

    store = pofile.pofile()
    for n, (source, target) in enumerate(pairs, start=1):
        unit = store.addsourceunit(source)
        unit.target = target
        unit.setcontext(str(n))
    src, out = work / f"{name}-in.po", work / f"{name}-pofilter.po"
    src.write_bytes(bytes(store))
    subprocess.run([str(Path(sys.executable).parent / "pofilter"), "--progress=none", f"--language={lang}",
                    "-i", str(src), "-o", str(out)], check=True, stderr=subprocess.DEVNULL)
    found: dict[int, set[str]] = {}
    for unit in pofile.pofile(out.read_bytes()).units:
        if unit.isheader() or not unit.getcontext():
            continue
        tests = {note.split(":")[0].replace("(pofilter)", "").strip()
                 for note in unit.getnotes("translator").splitlines() if "(pofilter)" in note}
        found[int(unit.getcontext())] = tests
    return found


def fault(kind: str, source: str, translation: str, other: str, rng: random.Random):
    """``translation`` with the fault ``kind``, or None where the message cannot have it."""
    if kind == "placeholder_added":
        if any(t.kind in PLACEHOLDERS for t in software_tokens(source)) or "%" in translation:
            return None
        end = len(translation.rstrip())
        return translation[:end] + " %s" + translation[end:]
    if kind in ("placeholder_dropped", "placeholder_changed"):
        tokens = [t for t in software_tokens(translation)
                  if t.kind in PLACEHOLDERS and t.kind != "icu" and t.text != "%%"]  # %%: a percent sign, no argument
        if not tokens:
            return None
        tok = rng.choice(tokens)
        if kind == "placeholder_dropped":
            return translation[:tok.start] + translation[tok.end:]
        swap = {"s": "d", "d": "s", "u": "s", "c": "s", "i": "s", "f": "s", "x": "s", "ld": "s", "lu": "s", "zu": "s"}
        m = re.search(r"(\d+)(?=\}$)|(lu|ld|zu|[sducifx])$", tok.text)
        if not m:
            return None
        new = tok.text[:m.start()] + (str(int(m.group(1)) + 1) if m.group(1) else swap[m.group(2)]) + tok.text[m.end():]
        return translation[:tok.start] + new + translation[tok.end:]
    if kind == "number_changed":
        shared = [m for m in re.finditer(r"(?<![\w%$.-])\d+(?![\w$])", translation) if m.group() in source]
        if not shared:
            return None
        m = rng.choice(shared)
        digit = rng.randrange(len(m.group()))
        new = m.group()[:digit] + str((int(m.group()[digit]) + rng.randint(1, 8)) % 10) + m.group()[digit + 1:]
        return translation[:m.start()] + new + translation[m.end():]
    words = re.findall(r"[A-Za-z]{3,}", prose(source))
    if kind == "untranslated":
        return source if words and translation != source else None
    theirs = re.findall(r"[A-Za-z]{3,}", prose(other))
    return other if other and other != translation and len(words) >= 4 and theirs != words else None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lang", default="es")
    ap.add_argument("--other", default="de", help="the language of the other_language fault's lines")
    ap.add_argument("--packages", default="bash,wget,tar,dpkg")
    ap.add_argument("--per-type", type=int, default=60)
    ap.add_argument("--seed", type=int, default=48)
    ap.add_argument("--show", type=int, default=3, help="messages missed to print, a type")
    ap.add_argument("--pofilter", action="store_true", help="run translate-toolkit's pofilter on the same files")
    ap.add_argument("--checks", default="", help="comma-separated checks (default: sit check's defaults)")
    args = ap.parse_args()
    checks = tuple(args.checks.split(",")) if args.checks else default_checks()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        pairs, others = [], {}
        for package in args.packages.split(","):
            po, got = catalogue(args.lang, package, work)
            if not got:
                print(f"{args.lang}/{package}: not installed")
                continue
            messages, findings = check_po(po, args.lang, work, checks)
            flagged = sum(1 for s in got if s in findings)
            print(f"{args.lang}/{package}: {messages} messages, findings on {flagged}: "
                  f"{1000 * flagged / max(1, messages):.1f} per 1,000")
            if args.pofilter:
                theirs = pofilter(list(got.items()), args.lang, work, f"clean-{package}")
                print(f"   pofilter: {sum(map(len, theirs.values()))} failures on {len(theirs)} messages: "
                      f"{1000 * len(theirs) / max(1, len(got)):.1f} per 1,000")
            pairs += [(s, t) for s, t in got.items() if s not in findings]
            others.update(catalogue(args.other, package, work)[1])
        clean: dict[int, set[str]] = {}
        for kind, expected in EXPECTED.items():
            order = list(range(len(pairs)))
            rng.shuffle(order)
            faulted, chosen = list(pairs), []
            for i in order:
                if len(chosen) == args.per_type:
                    break
                new = fault(kind, pairs[i][0], pairs[i][1], others.get(pairs[i][0], ""), rng)
                if new is not None and new != pairs[i][1]:
                    faulted[i] = (pairs[i][0], new)
                    chosen.append(i)
            found = run(faulted, args.lang, work, kind, checks)
            hit = [i for i in chosen if found.get(i + 1)]
            own = [i for i in hit if found[i + 1] & set(expected)]
            print(f"{kind}: found {len(hit)} of {len(chosen)} ({100 * len(hit) / max(1, len(chosen)):.0f}%; "
                  f"{len(own)} by {', '.join(expected)})")
            if args.pofilter:
                theirs = pofilter(faulted, args.lang, work, kind)
                clean = pofilter(pairs, args.lang, work, f"{kind}-clean") if kind == "placeholder_dropped" else clean
                new = [i for i in chosen if theirs.get(i + 1, set()) - clean.get(i + 1, set())]
                print(f"   pofilter: a new failure on {len(new)} of {len(chosen)} "
                      f"({100 * len(new) / max(1, len(chosen)):.0f}%)")
            for i in [i for i in chosen if i not in hit][:args.show]:
                print(f"   missed: {pairs[i][0][:300]!r}\n        -> {faulted[i][1][:300]!r}")


if __name__ == "__main__":
    main()
