"""False alarms and detection of the per-batch order check (sit/translators/answers.py).

Clean answers: Apertium eng-spa's translations of the bundled datasets (news, business,
politics), 400 sentences, in batches of 50 (DeepL's request size) and 10, drawn in 20 random orders. A false alarm is a clean batch called
suspect (it costs one request per text, nothing wrong is cached either way). Detection: the same
batches with their answers reversed (the fakes' ``misorder``), and with two neighbouring answers
swapped (the smallest shuffle). A provider that reorders every batch (reversed, rotated by one,
neighbours swapped) on sit's own batches (a sentence beside its variants, in batches of 4, 8 and
50, in 20 orders of the sentences): the batches the check alone passes, and the wrong answers a
run caches (those before its first doubted batch: after it every batch is one request per text).
The whole of it, second look included (``--runs``): the real DeepL adapter against the fake
DeepL on 127.0.0.1 (tests/fakes), answering with those Apertium translations, clean or with every
request of more than one text reordered, over sit's own batches in a few random orders of the
sentences: the wrong translations a run caches, and the requests a clean provider pays over one
per batch (the extra call share). Prints the figures docs/cloud.md quotes.

    python3 benchmarks/bench_order_check.py [--runs N]
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sit.translators.answers import suspect_order, unplaced  # noqa: E402

SEEDS = 20
ROOT = Path(__file__).resolve().parents[1] / "datasets"


def apertium(lines: list[str]) -> list[str]:
    out = subprocess.run(["apertium", "-u", "eng-spa"], input="\n".join(lines) + "\n", capture_output=True,
                         text=True, check=True, timeout=600).stdout.split("\n")
    return [o.strip() for o in out[: len(lines)]]


#: words put in place of one word of a sentence: sit's own batches are a sentence and its
#: perturbations, near-duplicates side by side
SUBSTITUTES = ("company", "minister", "river", "report", "city", "market")


def variants(line: str) -> list[str]:
    """``line`` and copies with one of its longer words replaced, as a substitution perturber makes."""
    words = line.split()
    slots = [i for i, w in enumerate(words) if len(w) > 5 and w.isalpha()][:4]
    return [line] + [" ".join(words[:i] + [s] + words[i + 1:]) for i in slots for s in SUBSTITUTES[:2]]


def clean_batches(answers: dict[str, str], size: int, *, keep_order: bool = False) -> list:
    """Batches of ``size`` (texts, their clean answers): in ``SEEDS`` random orders, or in the
    order given (a sentence beside its variants)."""
    batches = []
    for seed in range(1 if keep_order else SEEDS):  # another random order each time: other neighbours
        order = list(answers) if keep_order else sorted(
            answers, key=lambda line: hashlib.sha256(f"{seed}:{line}".encode()).digest())
        batches += [(order[i:i + size], [answers[t] for t in order[i:i + size]]) for i in range(0, len(order), size)]
    return [b for b in batches if len(b[0]) >= 2]


def slipped(batches: list, permute) -> tuple[int, int, int]:
    """What a provider that answers every batch reordered by ``permute`` gets past the check: the
    batches the check alone lets pass, the wrong answers in them, and the wrong answers a run
    caches: those in the batches before the first one doubted (the texts asked alone then show
    the answers moved, and from then on every batch is sent one text at a time) that the check
    can place (:func:`unplaced` answers are asked again in other company, never cached as they came)."""
    missed = wrong = cached = 0
    caught = False
    for texts, answers in batches:
        moved = permute(answers)
        bad = [k for k, (m, a) in enumerate(zip(moved, answers)) if m != a]
        if bad and not suspect_order(texts, moved):
            missed += 1
            wrong += len(bad)
            held = {i for pair in unplaced(texts, moved) for i in pair}
            cached += 0 if caught else sum(k not in held for k in bad)
        caught = caught or bool(bad and suspect_order(texts, moved))
    return missed, wrong, cached


PERMUTATIONS = {"reversed": lambda a: a[::-1], "rotated by one": lambda a: a[1:] + a[:1],
                "neighbours swapped": lambda a: [a[k ^ 1] if (k ^ 1) < len(a) else a[k] for k in range(len(a))]}


def consistent(near: dict[str, str]) -> None:
    """A provider that answers every batch reordered, on sit's own batches (a sentence beside its
    variants), in 20 random orders of the sentences: the batches the check alone misses, and the
    wrong answers a run would cache."""
    groups = [list(g) for g in _groups(near)]
    for size in (4, 8, 50):
        for name, permute in PERMUTATIONS.items():
            figures = [slipped(clean_batches(dict((t, near[t]) for g in order for t in g), size, keep_order=True), permute)
                       for order in _orders(groups)]
            batches = len(clean_batches(near, size, keep_order=True))
            print(f"every batch of {size} {name}: the check alone passes {sum(f[0] for f in figures)} of "
                  f"{batches * len(figures)} batches ({sum(f[1] for f in figures)} wrong answers); cached wrong in "
                  f"{len(figures)} runs of {len(near)} texts: {sum(f[2] for f in figures)}")


def _groups(near: dict[str, str]) -> list[list[str]]:
    """The texts in groups of a sentence and its variants (each group opens with its sentence)."""
    groups: list[list[str]] = []
    for text in near:
        if not groups or text not in variants(groups[-1][0]):
            groups.append([])
        groups[-1].append(text)
    return groups


def _orders(groups: list[list[str]]) -> list[list[list[str]]]:
    return [sorted(groups, key=lambda g: hashlib.sha256(f"{seed}:{g[0]}".encode()).digest()) for seed in range(SEEDS)]


def whole(near: dict[str, str], runs: int) -> None:
    """The adapter, order check and second look together, against the fake DeepL (module doc)."""
    import random
    import tempfile

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from fakes.llm import FakeDeepL

    from sit.cache import Cache
    from sit.translators import get_translator

    groups = [list(g) for g in _groups(near)]
    behaviours = {"clean": lambda a: a, **PERMUTATIONS}
    for size in (4, 8, 50):
        for name, permute in behaviours.items():
            wrong = calls = first = 0
            for order in _orders(groups)[:runs]:
                texts = [t for g in order for t in g]
                fake = FakeDeepL(translate=lambda ts, s, t: permute([near[x] for x in ts]) if len(ts) > 1 else
                                 [near[x] for x in ts]).start()
                with tempfile.TemporaryDirectory(prefix="sit-bench-order-") as tmp:
                    tr = get_translator("deepl", source_lang="en", target_lang="es", env=fake.env(), batch_size=size,
                                        cache=Cache(tmp), rng=random.Random(0), sleep=lambda s: None)
                    out = tr.translate(texts)
                    wrong += sum(o != near[t] for t, o in zip(texts, out))
                fake.stop()
                calls += len(fake.calls)
                first += -(-len(texts) // size)
            extra = f"; extra requests {calls - first} over {first} ({100 * (calls - first) / first:.1f}%)" if name == "clean" else ""
            print(f"the whole adapter, batches of {size}, {name}: {runs} runs of {len(near)} texts, wrong translations "
                  f"cached {wrong}; requests {calls}{extra}", flush=True)


def main() -> None:
    lines = [line.strip() for name in ("news.txt", "business.txt", "politics.txt")
             for line in (ROOT / name).read_text(encoding="utf-8").splitlines() if line.strip()]
    answers = dict(zip(lines, apertium(lines)))
    texts = list(dict.fromkeys(v for line in lines for v in variants(line)))
    near = dict(zip(texts, apertium(texts)))
    if "--runs" in sys.argv:
        whole(near, int(sys.argv[sys.argv.index("--runs") + 1]))
        return
    consistent(near)
    for size in (50, 10):
        batches = clean_batches(answers, size)
        alarms = sum(bool(suspect_order(t, a)) for t, a in batches)
        sit_batches = clean_batches(near, size, keep_order=True)
        near_alarms = sum(bool(suspect_order(t, a)) for t, a in sit_batches)
        print(f"batches of {size}, a sentence beside its variants (sit's own batches): {len(sit_batches)} clean "
              f"batches of {len(near)} texts, false alarms {near_alarms} ({100 * near_alarms / len(sit_batches):.1f}%)")
        alarms = sum(bool(suspect_order(t, a)) for t, a in batches)
        reversed_found = sum(bool(suspect_order(t, a[::-1])) for t, a in batches)
        swaps = [(t, a[:k] + [a[k + 1], a[k]] + a[k + 2:]) for t, a in batches[:len(batches) // SEEDS]
                 for k in range(0, len(t) - 1)]
        swap_found = sum(bool(suspect_order(t, a)) for t, a in swaps)
        print(f"batches of {size}: {len(batches)} clean batches ({len(lines)} sentences), false alarms "
              f"{alarms} ({100 * alarms / len(batches):.1f}%); reversed batches detected {reversed_found}/"
              f"{len(batches)}; one neighbouring swap detected {swap_found}/{len(swaps)} "
              f"({100 * swap_found / len(swaps):.1f}%)")


if __name__ == "__main__":
    main()
