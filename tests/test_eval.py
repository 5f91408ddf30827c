"""sit.eval: TEAPOT's figures on the example sets, checked against per-line sacrebleu calls.

The expected figures below are TEAPOT's definitions computed independently of sit: one public
sacrebleu call per pair (``sentence_chrf(h, [r]).score / 100``, ``sentence_bleu(h, [r],
smooth_method="floor", smooth_value=0.01).score / 100``) and TEAPOT's statistics written out
here. The table holds the printed figures; each row is checked twice, against that independent
computation and against sit.
"""

from __future__ import annotations

import logging
import math
import random
from pathlib import Path

import pytest
import sacrebleu

from sit.errors import ConfigError, InputError
from sit.eval import (
    BLEU,
    ChrF,
    EvalResult,
    Scorer,
    ZeroOne,
    evaluate,
    evaluate_files,
    format_report,
    pair_scores,
    rd_score,
    read_lines,
    reference_less_scores,
    register_scorer,
    summarize,
)
from sit.eval import fast
from sit.eval.stats import looks_tokenized, reference_less_success, relative_decrease, with_reference_success

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
MT = {"src": "mt/src.en", "adv_src": "mt/adv.charswap.en", "out": "mt/out.es", "adv_out": "mt/adv.charswap.es",
      "ref": "mt/ref.es"}
SENT = {"src": "sentiment/src.txt", "adv_src": "sentiment/adv_src.txt", "out": "sentiment/out.txt",
        "adv_out": "sentiment/adv_out.txt", "ref": "sentiment/ref.txt"}


# -- the independent computation -----------------------------------------------------------------


def load(rel: str) -> list[str]:
    with open(EXAMPLES / rel, encoding="utf-8") as f:  # as TEAPOT reads: rstrip each line
        return [line.rstrip() for line in f]


def ref_chrf(h: str, r: str) -> float:
    return sacrebleu.sentence_chrf(h, [r]).score / 100


def ref_bleu(h: str, r: str) -> float:
    return sacrebleu.sentence_bleu(h, [r], smooth_method="floor", smooth_value=0.01).score / 100


def ref_zero_one(h: str, r: str) -> float:
    return float(h == r)


METRICS = {"chrf": ref_chrf, "bleu": ref_bleu, "zero_one": ref_zero_one}


def teapot_stats(values):
    n = len(values)
    x = sorted(values)
    mean = sum(x) / n
    std = math.sqrt(sum((v - mean) ** 2 for v in x) / max(n - 1, 0.1))
    return mean, std, x[int(n * 0.05)], x[int(n * 0.95)]


def independent(files: dict, s_src: str, s_tgt: str, threshold: float, with_ref: bool):
    src, adv, out, adv_out = (load(files[k]) for k in ("src", "adv_src", "out", "adv_out"))
    fs, ft = METRICS[s_src], METRICS[s_tgt]
    s = [fs(a, o) for a, o in zip(adv, src)]
    if with_ref:
        ref = load(files["ref"])
        t = []
        for o, a, r in zip(out, adv_out, ref):
            base, hyp = ft(o, r), ft(a, r)
            t.append(max(0, base - hyp) / base if base > 0 else 0)
        success = [x + d > threshold for x, d in zip(s, t)]
    else:
        t = [ft(a, o) for a, o in zip(adv_out, out)]
        success = [(x > 0) if y == 0 else (x / y > threshold) for x, y in zip(s, t)]
    return s, t, success


def printed(values):
    mean, std, p5, p95 = teapot_stats(values)
    return (f"{mean * 100:.3f}", f"{std * 100:.3f}", f"{p5 * 100:.3f}-{p95 * 100:.3f}")


# -- the table ---------------------------------------------------------------------------------

# id, files, s_src, s_tgt, threshold, with reference, (s_src figures), (target figures), success %
TABLE = [
    ("mt-chrf-ref", MT, "chrf", "chrf", 1.0, True,
     ("88.609", "3.088", "81.653-92.154"), ("22.206", "9.391", "8.590-38.856"), "91.28"),
    ("mt-chrf-noref", MT, "chrf", "chrf", 1.0, False,
     ("88.609", "3.088", "81.653-92.154"), ("77.043", "8.641", "60.257-89.278"), "95.41"),
    ("mt-bleu-ref", MT, "bleu", "bleu", 1.0, True,
     ("68.115", "8.646", "52.664-80.706"), ("42.512", "23.208", "6.282-93.244"), "76.61"),
    ("mt-bleu-noref", MT, "bleu", "bleu", 1.0, False,
     ("68.115", "8.646", "52.664-80.706"), ("58.749", "15.794", "31.330-78.254"), "66.06"),
    ("mt-chrf-bleu-ref", MT, "chrf", "bleu", 1.0, True,
     ("88.609", "3.088", "81.653-92.154"), ("42.512", "23.208", "6.282-93.244"), "93.12"),
    ("sentiment-zero_one-1.8", SENT, "chrf", "zero_one", 1.8, True,
     ("79.041", "6.254", "69.565-90.642"), ("45.000", "50.383", "0.000-100.000"), "12.50"),
    ("sentiment-zero_one-1.8-noref", SENT, "chrf", "zero_one", 1.8, False,
     ("79.041", "6.254", "69.565-90.642"), ("55.000", "50.383", "0.000-100.000"), "45.00"),
]


def expected_report(row) -> str:
    _, _, s_src, s_tgt, _, with_ref, fig_s, fig_t, success = row
    names = {"chrf": "ChrF", "bleu": "BLEU", "zero_one": "accuracy"}
    t_title = (f"Target side degradation (relative decrease in {names[s_tgt]}):" if with_ref
               else f"Target side preservation ({names[s_tgt]}):")
    lines = [f"Source side preservation ({names[s_src]}):", f"Mean:\t{fig_s[0]}", f"Std:\t{fig_s[1]}",
             f"5%-95%:\t{fig_s[2]}", "-" * 80, t_title, f"Mean:\t{fig_t[0]}", f"Std:\t{fig_t[1]}",
             f"5%-95%:\t{fig_t[2]}", "-" * 80, f"Success percentage: {success} %"]
    return "\n".join(lines)


def test_example_sets_are_as_documented():
    assert len(load(MT["src"])) >= 200
    for files in (MT, SENT):
        lengths = {k: len(load(v)) for k, v in files.items()}
        assert len(set(lengths.values())) == 1, lengths
    assert load(MT["src"]) != load(MT["adv_src"])
    assert set(load(SENT["ref"])) == {"positive", "negative"}


@pytest.mark.parametrize("row", TABLE, ids=[r[0] for r in TABLE])
def test_table_matches_independent_sacrebleu_computation(row):
    _, files, s_src, s_tgt, threshold, with_ref, fig_s, fig_t, success = row
    s, t, ok = independent(files, s_src, s_tgt, threshold, with_ref)
    assert printed(s) == fig_s
    assert printed(t) == fig_t
    assert f"{sum(ok) / len(ok) * 100:.2f}" == success


@pytest.mark.parametrize("row", TABLE, ids=[r[0] for r in TABLE])
def test_sit_gives_the_table_figures_and_per_line_scores(row):
    _, files, s_src, s_tgt, threshold, with_ref, *_ = row
    paths = {k: str(EXAMPLES / v) for k, v in files.items() if with_ref or k != "ref"}
    result = evaluate_files(**paths, s_src=s_src, s_tgt=s_tgt, threshold=threshold)
    assert format_report(result) == expected_report(row)
    s, t, ok = independent(files, s_src, s_tgt, threshold, with_ref)
    assert list(result.source.scores) == pytest.approx(s, abs=1e-12)
    assert list(result.target.scores) == pytest.approx(t, abs=1e-12)
    assert list(result.success) == ok
    assert result.with_reference is with_ref
    assert (result.note is None) is with_ref


WORKER_RUN = """
import json, os, sys
from sit.eval import fast
real = fast._score_chunk
def recording(kind, groups):  # forked workers inherit this; each scored chunk names its process
    with open(sys.argv[1], "a") as fh:
        fh.write(f"{os.getpid()}\\n")
    return real(kind, groups)
fast._score_chunk = recording
from sit.cli import main
print(os.getpid())
sys.exit(main(sys.argv[2:]))
"""


def test_sit_eval_jobs_2_scores_in_a_worker_process_with_identical_figures(tmp_path):
    """``sit eval --jobs 2`` in a fresh single-threaded interpreter (where forking is safe): one
    chunk is scored by a forked worker (another process id), and the figures are exactly the
    serial ones. BLEU takes the sacrebleu path (chrF goes through fastchrf's threads instead)."""
    import json
    import subprocess
    import sys

    pids = tmp_path / "pids"
    args = [f"--{k.replace('_', '-')}={EXAMPLES / v}" for k, v in MT.items()]
    proc = subprocess.run([sys.executable, "-c", WORKER_RUN, str(pids), "eval", *args, "--s-src", "bleu",
                           "--s-tgt", "bleu", "--jobs", "2", "--json"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    parent, body = proc.stdout.split("\n", 1)
    scored_in = pids.read_text().split()
    assert len(scored_in) == 2, "both scorings' lines split in two chunks, scored together"
    assert parent in scored_in and set(scored_in) - {parent}, "a worker process scored a chunk"
    data = json.loads(body)
    s, t, _ = independent(MT, "bleu", "bleu", 1.0, True)
    assert data["s_src"]["scores"] == s and data["d_tgt"]["scores"] == t  # exactly, not approximately


# -- the fast metrics are sacrebleu's, bit for bit ------------------------------------------------


def _random_lines(rng: random.Random, n: int) -> list[str]:
    alphabet = "abcdefgh ijk  lmn\tOPQ.,;'!?éüßΩ漢字\u00a0-"
    words = ["the", "a", "house", "casa", "dog", "perro", ".", ",", "it's", "don't", "(x)", "3.5"]
    out = []
    for _ in range(n):
        if rng.random() < 0.5:
            out.append("".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30))))
        else:
            out.append(" ".join(rng.choice(words) for _ in range(rng.randint(0, 12))))
    return out


@pytest.mark.parametrize("kind,public", [("chrf", ref_chrf), ("bleu", ref_bleu)])
@pytest.mark.parametrize("jobs", [1, 2])
def test_fast_scores_equal_public_sacrebleu_calls(kind, public, jobs):
    rng = random.Random(7)
    hyps, bases, refs = (_random_lines(rng, 400) for _ in range(3))
    edge = ["", "", "a", "  ", "ab", "x y", "same line", "Ω"]
    edge_refs = ["", "a", "", " ", "ab", "x  y", "same line", "ω"]
    hyps, bases, refs = hyps + edge, bases + edge_refs, refs + edge_refs
    got_bases, got_hyps = fast.score_columns(kind, [bases, hyps], refs, jobs=jobs)
    assert got_hyps == [public(h, r) for h, r in zip(hyps, refs)]
    assert got_bases == [public(b, r) for b, r in zip(bases, refs)]


def test_signatures_are_sacrebleus():
    assert ChrF().signature() == f"nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:{sacrebleu.__version__}"
    assert BLEU().signature() == (
        f"nrefs:1|case:mixed|eff:yes|tok:13a|smooth:floor[0.01]|version:{sacrebleu.__version__}"
    )
    assert ZeroOne().signature() is None


# -- statistics and criteria --------------------------------------------------------------------


@pytest.mark.parametrize(
    "values,mean,std,p5,p95",
    [
        ([0.5], 0.5, 0.0, 0.5, 0.5),  # N=1: TEAPOT divides by max(N-1, 0.1)
        ([0.2, 0.4], 0.3, math.sqrt(0.02), 0.2, 0.4),  # N-1 in the denominator
        ([i / 19 for i in range(20)], 0.5, math.sqrt(sum((i / 19 - 0.5) ** 2 for i in range(20)) / 19), 1 / 19, 1.0),
        ([0.9, 0.1, 0.5, 0.3, 0.7], 0.5, math.sqrt(0.1), 0.1, 0.9),  # sorted before the 5%/95% points
    ],
)
def test_summary_statistics(values, mean, std, p5, p95):
    s = summarize(values)
    assert (s.n, s.mean, s.std, s.p5, s.p95) == (len(values), pytest.approx(mean), pytest.approx(std), p5, p95)


def test_summary_of_nothing_is_an_error():
    with pytest.raises(ValueError):
        summarize([])


@pytest.mark.parametrize("base,value,expected", [(0.8, 0.4, 0.5), (0.5, 0.9, 0.0), (0.0, 0.3, 0.0), (1.0, 0.0, 1.0)])
def test_relative_decrease(base, value, expected):
    assert relative_decrease(base, value) == pytest.approx(expected)


@pytest.mark.parametrize(
    "s_src,d_or_t,threshold,with_ref,expected",
    [
        (0.9, 0.2, 1.0, True, True),
        (0.9, 0.1, 1.0, True, False),  # 1.0 is not > 1.0
        (0.85, 1.0, 1.8, True, True),  # zero_one: a flipped label with s_src > 0.8
        (0.75, 1.0, 1.8, True, False),
        (0.9, 0.8, 1.0, False, True),  # reference-less: s_src / s_tgt > 1
        (0.7, 0.8, 1.0, False, False),
        (0.4, 0.0, 1.0, False, True),  # s_tgt = 0 (TEAPOT divides by zero): success when s_src > 0
        (0.0, 0.0, 1.0, False, False),
    ],
)
def test_success_criteria(s_src, d_or_t, threshold, with_ref, expected):
    rule = with_reference_success if with_ref else reference_less_success
    assert rule(s_src, d_or_t, threshold) is expected


def test_reference_less_criterion_equals_teapots_at_threshold_one():
    rng = random.Random(3)
    for _ in range(1000):
        s, t = rng.random(), rng.random()
        assert reference_less_success(s, t) == (s + 1 - t > 1) or abs(s - t) < 1e-12


# -- Python API -----------------------------------------------------------------------------------


def test_chrf_score_and_rd_score_api():
    hyps, refs = ["The cat sat on the mat.", "Hello wrold"], ["The cat sat on a mat.", "Hello world"]
    assert ChrF().score(hyps, refs) == [ref_chrf(h, r) for h, r in zip(hyps, refs)]
    bases = ["The cat sat on a mat.", "Hello"]
    expected = []
    for h, b, r in zip(hyps, bases, refs):
        base, hyp = ref_chrf(b, r), ref_chrf(h, r)
        expected.append(max(0, base - hyp) / base if base > 0 else 0)
    assert rd_score(hyps, bases, refs) == pytest.approx(expected)
    assert ChrF().rd_score(hyps, bases, refs) == pytest.approx(expected)


def test_scorer_length_mismatch_is_an_input_error():
    with pytest.raises(InputError, match="2 hypotheses but 1 references"):
        ChrF().score(["a", "b"], ["a"])


def test_reference_less_scores_for_the_pipeline():
    src, adv = load(MT["src"])[:30], load(MT["adv_src"])[:30]
    out, adv_out = load(MT["out"])[:30], load(MT["adv_out"])[:30]
    got = reference_less_scores(src, adv, out, adv_out)
    assert got["s_src"] == [ref_chrf(a, s) for a, s in zip(adv, src)]
    assert got["s_tgt"] == [ref_chrf(a, o) for a, o in zip(adv_out, out)]
    expected_success = [(s > 0) if t == 0 else s / t > 1 for s, t in zip(got["s_src"], got["s_tgt"])]
    assert got["success"] == expected_success
    summary = got["summary"]
    assert summary["n"] == 30 and summary["threshold"] == 1.0
    assert summary["success_rate"] == pytest.approx(sum(expected_success) / 30)
    mean, std, p5, p95 = teapot_stats(got["s_tgt"])
    assert summary["s_tgt"] == {"mean": mean, "std": std, "p5": p5, "p95": p95}
    assert summary["signature"]["chrf"].startswith("nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:")


def test_reference_less_scores_of_nothing_and_of_mismatched_lists():
    empty = reference_less_scores([], [], [], [])
    assert empty["s_src"] == [] and empty["summary"]["success_rate"] is None and empty["summary"]["s_src"] is None
    with pytest.raises(InputError, match="has 2 lines but .* has 1"):
        reference_less_scores(["a", "b"], ["a"], ["x", "y"], ["x", "y"])


def test_reference_less_scores_are_cached_so_a_rerun_only_reads(tmp_path, monkeypatch):
    from sit.cache import Cache

    src, adv = load(MT["src"])[:40], load(MT["adv_src"])[:40]
    out, adv_out = load(MT["out"])[:40], load(MT["adv_out"])[:40]
    scored: list[int] = []  # pairs that reached the scorer, per call
    real = fast.score_groups

    def counting(kind, groups, jobs=None):
        scored.append(sum(len(refs) * len(columns) for columns, refs in groups))
        return real(kind, groups, jobs=jobs)

    monkeypatch.setattr(fast, "score_groups", counting)
    first = reference_less_scores(src, adv, out, adv_out, cache=Cache(tmp_path))
    assert scored == [80]
    assert first == reference_less_scores(src, adv, out, adv_out)  # the same figures as without a cache
    assert first["s_src"] == [ref_chrf(a, s) for a, s in zip(adv, src)]
    scored.clear()
    again = reference_less_scores(src, adv, out, adv_out, cache=Cache(tmp_path))  # a re-run: a new Cache object
    assert scored == [] and again == first
    from sit.cache.ops import stats

    scores = [s for s in stats(Cache(tmp_path)).stores if s.kind == "scores"]
    assert [(s.label, s.entries) for s in scores] == [("chrf", 80)]  # one entry a pair
    # one new pair: only it is scored
    reference_less_scores(src + ["A new line."], adv + ["A new lnie."], out + ["x"], adv_out + ["x"], cache=Cache(tmp_path))
    assert scored == [2]


def test_pair_scores_of_repeated_pairs_and_of_bleu(tmp_path):
    from sit.cache import Cache

    hyps, refs = ["a b c d", "a b c d", "", "x y"], ["a b c e", "a b c e", "z", "x y"]
    assert pair_scores("chrf", hyps, refs) == [ref_chrf(h, r) for h, r in zip(hyps, refs)]
    cache = Cache(tmp_path)
    assert pair_scores("bleu", hyps, refs, cache=cache) == [ref_bleu(h, r) for h, r in zip(hyps, refs)]
    assert len(cache.store("scores", {"name": "bleu", "signature": BLEU().signature()})) == 3  # the repeat once
    assert pair_scores("bleu", hyps, refs, cache=Cache(tmp_path)) == [ref_bleu(h, r) for h, r in zip(hyps, refs)]
    with pytest.raises(InputError, match="2 hypotheses but 1 references"):
        pair_scores("chrf", ["a", "b"], ["a"])


def test_evaluate_needs_a_side_and_whole_pairs():
    with pytest.raises(ConfigError, match="nothing to evaluate"):
        evaluate()
    with pytest.raises(ConfigError, match="--src needs --adv-src"):
        evaluate(src=["a"])
    with pytest.raises(ConfigError, match="--ref needs --out"):
        evaluate(src=["a"], adv_src=["b"], ref=["c"])
    with pytest.raises(InputError, match="src has 2 lines but out has 1"):
        evaluate(src=["a", "b"], adv_src=["a", "c"], out=["x"], adv_out=["y"])


def test_source_only_and_target_only_results():
    only_src = evaluate(src=["a b c", "d e"], adv_src=["a b x", "d e"])
    assert only_src.target is None and only_src.success is None and only_src.note is None
    assert format_report(only_src).splitlines()[0] == "Source side preservation (ChrF):"
    assert "Success" not in format_report(only_src)
    only_tgt = evaluate(out=["x y z"], adv_out=["x y"], ref=["x y z"])
    assert only_tgt.source is None and only_tgt.target.measure == "d_tgt"
    assert format_report(only_tgt).splitlines()[0] == "Target side degradation (relative decrease in ChrF):"


def test_unknown_scorer_lists_the_valid_names():
    with pytest.raises(ConfigError, match="unknown scorer 'rouge'; choose one of: bleu, chrf, exact_match, meteor"):
        evaluate(src=["a"], adv_src=["b"], s_src="rouge")


def test_register_scorer_rules():
    with pytest.raises(ConfigError, match="must subclass"):
        register_scorer("not_a_scorer", "X")(object)
    with pytest.raises(ConfigError, match="'chrf' already exists"):
        @register_scorer("chrf", "My chrF")
        class MyChrF(Scorer):
            def score_sentence(self, hyp, ref, lang=None):
                return 0.0


def test_a_scorer_object_can_be_passed_directly():
    class Length(Scorer):
        _name = "length ratio"

        def score_sentence(self, hyp, ref, lang=None):
            return min(len(hyp), len(ref)) / max(len(hyp), len(ref), 1)

    result = evaluate(src=["abcd", "ab"], adv_src=["abc", "ab"], s_src=Length())
    assert list(result.source.scores) == [0.75, 1.0]
    assert result.source.name == "length ratio"


# -- reading files ----------------------------------------------------------------------------------


def test_read_lines_like_teapot(tmp_path):
    p = tmp_path / "f.txt"
    p.write_bytes("\ufeffone  \r\ntwo\rthree\n\n  four\n".encode("utf-8"))
    assert read_lines(p) == ["one", "two", "three", "", "  four"]


def test_empty_lines_score_as_teapot_scores_them(tmp_path):
    files = {}
    for name, lines in {"src": ["A line.", "", "Third."], "adv": ["A lnie.", "", "Thrid."],
                        "out": ["Una línea.", "", "Tercera."], "adv_out": ["Una lnie.", "x", "Thrid."],
                        "ref": ["Una línea.", "", "Tercero."]}.items():
        files[name] = tmp_path / name
        files[name].write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = evaluate_files(src=str(files["src"]), adv_src=str(files["adv"]), out=str(files["out"]),
                            adv_out=str(files["adv_out"]), ref=str(files["ref"]))
    assert result.n == 3
    assert result.source.scores[1] == ref_chrf("", "") == 0.0
    assert result.target.scores[1] == 0.0  # the base scores 0 against an empty reference: d_tgt is 0


def test_mismatched_files_name_both_lengths(tmp_path):
    a, b = tmp_path / "a.en", tmp_path / "b.en"
    a.write_text("one\ntwo\nthree\n", encoding="utf-8")
    b.write_text("one\ntwo\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        evaluate_files(src=str(a), adv_src=str(b))
    assert f"{a} (--src) has 3 lines but {b} (--adv-src) has 2" in str(err.value)


def test_non_utf8_input_names_the_file_and_line(tmp_path):
    p = tmp_path / "latin1.txt"
    p.write_bytes("fine\ncaf\u00e9\n".encode("latin-1"))
    with pytest.raises(InputError, match=rf"{p}: line 2 is not valid UTF-8"):
        read_lines(p, "--src")


def test_missing_and_empty_files(tmp_path):
    with pytest.raises(InputError, match="does not exist"):
        read_lines(tmp_path / "nope.txt")
    (tmp_path / "empty.txt").write_bytes(b"")
    with pytest.raises(InputError, match="is empty"):
        read_lines(tmp_path / "empty.txt")


def test_tokenized_input_is_a_warning_not_an_error(caplog):
    lines = ["This is tokenized .", "So is this , indeed .", "And this ."]
    assert looks_tokenized(lines)
    assert not looks_tokenized(["Normal text.", "Another one ."])  # one line in two is not enough...
    assert looks_tokenized(["x ."] * 100 + ["y"] * 1000)  # ...but 100 lines is, as in TEAPOT
    with caplog.at_level(logging.WARNING, logger="sit.eval"):
        result = evaluate(src=lines, adv_src=lines)
    assert isinstance(result, EvalResult)
    assert any("looks tokenized" in r.getMessage() and "src" in r.getMessage() for r in caplog.records)


TEAPOT_STYLE = '''
import sys
import teapot
import teapot.scorers
from teapot import Scorer, register_scorer
from teapot.scorers import get_scorer_class
SEEN = "teapot" in sys.modules


@register_scorer("teapot_style_len", "Length ratio")
class LengthRatio(teapot.Scorer):
    def score(self, hyp, ref):
        return min(len(hyp), len(ref)) / max(len(hyp), len(ref), 1)
'''


@pytest.fixture
def _scorer_unregistered():
    """The scorer a test registers is gone after it (`sit list` in a later test of the same
    process must not show it)."""
    from sit.eval.scorers import SCORERS

    yield
    SCORERS.unregister("teapot_style_len")


def test_a_teapot_file_loads_without_touching_sys_modules(tmp_path, _scorer_unregistered):
    """`import teapot` inside a custom scorer file gives sit's modules, redirected for that file
    alone: no `teapot` entry appears in sys.modules, not even while the file runs."""
    import sys

    from sit.eval import Scorer
    from sit.eval.scorers import get_scorer_class, load_scorers_source

    path = tmp_path / "teapot_style.py"
    path.write_text(TEAPOT_STYLE, encoding="utf-8")
    module = load_scorers_source(path)
    assert module.SEEN is False and "teapot" not in sys.modules and "teapot.scorers" not in sys.modules
    assert module.Scorer is Scorer and module.get_scorer_class is get_scorer_class
    assert issubclass(get_scorer_class("teapot_style_len"), Scorer)
