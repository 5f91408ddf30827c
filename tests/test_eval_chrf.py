"""chrF through fastchrf gives sacrebleu's ``sentence_chrf`` figures exactly, edge cases included,
and sacrebleu takes over where fastchrf is missing or cannot read a string.

Every expected value is one public sacrebleu call per pair: ``sentence_chrf(h, [r]).score / 100``.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
import sacrebleu

from sit.eval import fast

MT = Path(__file__).resolve().parent.parent / "examples" / "mt"


def sacrebleu_chrf(hyps, refs) -> list[float]:
    return [sacrebleu.sentence_chrf(h, [r]).score / 100 for h, r in zip(hyps, refs)]


LONG = " ".join(f"word{i % 97}" for i in range(4000))  # about 30,000 characters

EDGE = [  # (hypothesis, reference)
    ("", ""),
    ("", "a reference"),
    ("a hypothesis", ""),
    ("   ", "  "),
    ("\t \n", "x"),
    (" ", ""),
    ("same line", "same line"),
    ("  same   line ", "same line"),
    ("a", "a"),
    ("ab", "ba"),
    ("我们今天去北京。", "我们明天去北京。"),
    ("你好", "你好"),
    ("ذهبنا إلى السوق اليوم", "ذهبنا إلى السوق أمس"),
    ("Привет, мир", "привет мир"),
    ("🙂🙂 emoji 👍🏽", "🙂 emoji 👍"),
    ("👨\u200d👩\u200d👧 family", "👨 family"),
    ("e\u0301te\u0301", "été"),  # combining accents against precomposed letters
    ("a\u00a0b\u3000c\u2028d", "abcd"),  # no-break, ideographic and line-separator spaces
    ("a\u200bb", "ab"),  # zero-width space is not whitespace
    ("x\x1cy\x1dz\x1e\x1fw", "xyzw"),  # separators: whitespace to Python, not to Rust
    (LONG, LONG),
    (LONG, LONG[:-50] + " changed ending"),
    ("short", LONG),
]


def test_fastchrf_is_the_chrf_path_here():
    assert fast._fastchrf() is not None  # otherwise the comparisons below test sacrebleu against itself


@pytest.mark.parametrize("hyp,ref", EDGE, ids=[f"edge{i}" for i in range(len(EDGE))])
def test_edge_cases_equal_sentence_chrf(hyp, ref):
    assert fast.score_columns("chrf", [[hyp]], [ref]) == [sacrebleu_chrf([hyp], [ref])]


def test_all_edge_cases_in_one_batch_and_both_directions():
    hyps = [h for h, _ in EDGE] + [r for _, r in EDGE]
    refs = [r for _, r in EDGE] + [h for h, _ in EDGE]
    assert fast.score_columns("chrf", [hyps, refs], refs) == [sacrebleu_chrf(hyps, refs), sacrebleu_chrf(refs, refs)]


def _lines(name: str) -> list[str]:
    return [line.rstrip() for line in (MT / name).read_text(encoding="utf-8").splitlines()]


def test_real_lines_equal_sentence_chrf():
    src, adv, out, adv_out, ref = (_lines(n) for n in ("src.en", "adv.charswap.en", "out.es", "adv.charswap.es",
                                                        "ref.es"))
    assert len(src) > 200
    s_cols, t_cols = fast.score_groups("chrf", [([adv], src), ([out, adv_out], ref)])
    assert s_cols[0] == sacrebleu_chrf(adv, src)
    assert t_cols == [sacrebleu_chrf(out, ref), sacrebleu_chrf(adv_out, ref)]
    # the two translations against each other, as in sit run's s_tgt
    assert fast.score_columns("chrf", [adv_out], out)[0] == sacrebleu_chrf(adv_out, out)


def test_random_unicode_equals_sentence_chrf():
    rng = random.Random(13)
    pool = ("abcdefghij ÄÖÜäöüß çñ漢字かなカナ한국어ΑΒΓαβγабвгдابتثעבר\u0301\u0308 .,;!?'\"-()\t\n\u00a0\u2009\u3000"
            "\x1c\x1f\u200b\u200d🙂👍🏽🇪🇸")
    hyps = ["".join(rng.choice(pool) for _ in range(rng.randint(0, 60))) for _ in range(300)]
    refs = [h if i % 10 == 0 else "".join(rng.choice(pool) for _ in range(rng.randint(0, 60)))
            for i, h in enumerate(hyps)]
    assert fast.score_columns("chrf", [hyps], refs)[0] == sacrebleu_chrf(hyps, refs)


def test_a_string_fastchrf_cannot_take_is_scored_by_sacrebleu():
    hyps, refs = ["a\ud800b", "plain"], ["ab", "plain"]  # a lone surrogate cannot cross into Rust
    assert fast.score_columns("chrf", [hyps], refs)[0] == sacrebleu_chrf(hyps, refs)


def test_without_fastchrf_sacrebleu_gives_the_same_scores(monkeypatch):
    hyps = [h for h, _ in EDGE] + _lines("adv.charswap.en")[:50]
    refs = [r for _, r in EDGE] + _lines("src.en")[:50]
    with_fastchrf = fast.score_columns("chrf", [hyps], refs)[0]
    monkeypatch.setitem(sys.modules, "fastchrf", None)  # `import fastchrf` now raises ImportError
    monkeypatch.delitem(fast._state, "fastchrf", raising=False)  # checked again
    assert fast._fastchrf() is None
    for jobs in (1, 2):
        assert fast.score_columns("chrf", [hyps], refs, jobs=jobs)[0] == with_fastchrf == sacrebleu_chrf(hyps, refs)


def test_no_lines_give_no_scores():
    assert fast.score_groups("chrf", [([[], []], []), ([[]], [])]) == [[[], []], [[]]]


def test_scores_fastchrf_gave_before_its_check_failed_are_thrown_away(monkeypatch):
    # the first chrF of a process is scored by fastchrf while another thread imports sacrebleu and
    # checks fastchrf against it; here the check fails (fastchrf is given beta 3, sacrebleu's chrF
    # has beta 2), so those scores must give way to sacrebleu's
    hyps, refs = _lines("adv.charswap.en")[:40], _lines("src.en")[:40]
    monkeypatch.setitem(fast.FASTCHRF_SETTINGS, "beta", 3)
    import fastchrf

    beta3 = [row[0][0] / 100 for row in fastchrf.pairwise_chrf([["".join(h.split())] for h in hyps],
                                                               [["".join(r.split())] for r in refs],
                                                               **fast.FASTCHRF_SETTINGS)]
    assert beta3 != sacrebleu_chrf(hyps, refs)  # what using them would give
    monkeypatch.delitem(fast._state, "fastchrf", raising=False)  # the first call again
    assert fast.score_columns("chrf", [hyps], refs)[0] == sacrebleu_chrf(hyps, refs)
    assert fast._fastchrf() is None


def test_a_check_that_fails_beside_the_scoring_raises_in_the_callers_thread(monkeypatch):
    monkeypatch.setitem(sys.modules, "sacrebleu", None)  # `import sacrebleu` now raises ImportError
    monkeypatch.setitem(sys.modules, "sacrebleu.metrics", None)
    monkeypatch.delitem(fast._state, "fastchrf", raising=False)
    monkeypatch.delitem(fast._state, "chrf", raising=False)
    with pytest.raises(ImportError):
        fast.score_columns("chrf", [["a cat sat"]], ["a cat sits"])
    assert "fastchrf" not in fast._state  # nothing decided from a check that did not finish
