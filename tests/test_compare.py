"""``sit compare`` on real runs: Apertium on eight news sentences, three relations, every finding
kept (--top-k 0), against itself, a re-run with a fresh cache, and a translator that wraps
Apertium and injects known regressions into a known set of texts."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conftest import requires_apertium

pytestmark = requires_apertium

#: appended to the Apertium translation of every injected text: a clause that changes the structure
SUFFIX = ", pero el gobierno no dijo nada más sobre el asunto"
RELATIONS = ("sit", "rti", "patinv")


def _config(out: Path, cache: Path, translator: str = "apertium"):
    from sit.pipeline import RunConfig

    return RunConfig(dataset="news", limit=8, relations=RELATIONS, top_k=0, translator=translator,
                     cache_dir=str(cache), out=str(out), progress=False, command="test")


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _finding_keys(run_dir: Path) -> set[tuple]:
    """(relation, kind, original, perturbed) of every finding in the run's issues.jsonl."""
    return {(i["relation"], i["group"].partition(".")[2], i["original"], i["perturbed"])  # kind "" for the own finding
            for i in _lines(run_dir / "issues.jsonl")}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """base, a re-run of it with a fresh cache, and a run of the regressing translator."""
    from sit.pipeline import run
    from sit.translators import TRANSLATORS
    from sit.translators.apertium import ApertiumTranslator

    root = tmp_path_factory.mktemp("compare")
    base = run(_config(root / "base", root / "cache")).run_dir
    rerun = run(_config(root / "rerun", root / "cache2")).run_dir
    injected = _choose_injected(base)

    class RegressTranslator(ApertiumTranslator):
        """Apertium, but the translations of ``injected`` get SUFFIX (its own cache namespace)."""

        name = "regress"

        def model_id(self) -> str:
            return f"{self.pair}+regress{len(injected)}"

        def _translate_batch(self, texts: list[str]) -> list[str]:
            out = super()._translate_batch(texts)
            return [o + SUFFIX if t in injected else o for t, o in zip(texts, out)]

    TRANSLATORS.register("regress", RegressTranslator)
    regress = run(_config(root / "regress", root / "cache", "regress")).run_dir
    yield {"base": base, "rerun": rerun, "regress": regress, "injected": injected, "root": root}
    TRANSLATORS.unregister("regress")


def _choose_injected(base: Path) -> frozenset[str]:
    """One source sentence, the perturbed texts of four sit cases of other sentences that have no
    finding, one rti phrase and two patinv texts: texts whose new translation may or may not change
    a finding."""
    pairs = _lines(base / "pairs.jsonl")
    found = {(r, o, p) for r, _k, o, p in _finding_keys(base)}
    sentence = pairs[0]["original"]
    sit_texts = [p["perturbed"] for p in pairs if p["relation"] == "sit" and p["original"] != sentence
                 and ("sit", p["original"], p["perturbed"]) not in found]
    rti = [p["perturbed"] for p in pairs if p["relation"] == "rti" and p["original"] != sentence]
    patinv = [p["perturbed"] for p in pairs if p["relation"] == "patinv" and p["original"] != sentence]
    assert len(sit_texts) >= 4 and rti and len(patinv) >= 2
    return frozenset({sentence, *sit_texts[:4], rti[0], *patinv[:2]})


def _key(case) -> tuple:
    return (case.relation, case.kind, case.key.source, case.key.case)


def test_a_run_compared_with_itself_and_with_a_rerun_has_nothing_new_or_fixed(runs):
    from sit.compare import Comparison, compare_runs

    issues = _lines(runs["base"] / "issues.jsonl")
    pairs = {(p["relation"], p["original"], p["perturbed"]) for p in _lines(runs["base"] / "pairs.jsonl")}
    assert issues, "eight news sentences give findings to compare"
    for other in (runs["base"], runs["rerun"]):
        c = compare_runs(runs["base"], other, cache_dir=str(runs["root"] / "cache"))
        counts = c.status_counts()
        assert counts["new"] == counts["fixed"] == counts["changed"] == 0
        assert counts["persisting"] == len(issues)
        assert {(x.relation, x.key.source, x.key.case) for x in c.cases} == pairs
        assert c.only_base == c.only_new == 0
        assert all(g.delta_interval == (0.0, 0.0) for g in c.counts_by_group)
        assert Comparison.from_dict(json.loads(json.dumps(c.to_dict()))) == c


def test_injected_regressions_are_new_and_fixed_the_other_way(runs):
    from sit.compare import compare_runs

    base, regress, injected = runs["base"], runs["regress"], runs["injected"]
    forward = compare_runs(base, regress, cache_dir=str(runs["root"] / "cache"))
    regressed = _finding_keys(regress) - _finding_keys(base)
    assert len(regressed) >= 3, "the injected clause changes findings"
    new = {_key(c) for c in forward.by_status("new")}
    assert new == regressed
    # nothing outside the injected texts is new or changed; every injected case without a finding
    # in BASE is changed or new
    for case in forward.cases:
        touched = case.key.source in injected or case.key.case in injected
        if not touched:
            assert case.status in ("unchanged", "persisting"), case
        elif case.base is None:
            assert case.status in ("changed", "new"), case
    assert any(c.status == "changed" for c in forward.cases)
    # s_tgt: chrF between BASE's and NEW's translation of the injected text, below 1; 1.0 elsewhere
    from sacrebleu.metrics import CHRF

    changed = forward.by_status("changed")[0]
    n = 1 if changed.key.case in injected else 0
    old, new_tr = changed.base_translations[n], changed.new_translations[n]
    assert new_tr == old + SUFFIX
    assert changed.s_tgt[n] == pytest.approx(CHRF().sentence_score(new_tr, [old]).score / 100)
    assert changed.s_tgt[n] < 1.0

    backward = compare_runs(regress, base, cache_dir=str(runs["root"] / "cache"))
    assert {_key(c) for c in backward.by_status("fixed")} == regressed
    assert {_key(c) for c in backward.by_status("new")} == {_key(c) for c in forward.by_status("fixed")}


def test_finding_counts_and_their_bootstrap_interval(runs):
    from sit.compare import compare_runs

    c = compare_runs(runs["base"], runs["regress"], cache_dir=str(runs["root"] / "cache"))
    by_group = {g.group: g for g in c.counts_by_group}
    for run_dir, side in ((runs["base"], "base"), (runs["regress"], "new")):
        for group, g in by_group.items():
            expected = sum(1 for i in _lines(run_dir / "issues.jsonl") if i["group"] == group)
            assert getattr(g, side) == expected
    sit = by_group["sit"]
    assert sit.new > sit.base
    assert sit.delta_interval[0] <= sit.delta <= sit.delta_interval[1] and sit.delta_interval[1] > 0
    assert sit.new_interval[0] <= sit.new <= sit.new_interval[1]


def test_references_give_corpus_score_deltas_with_sacrebleus_paired_bootstrap(runs, tmp_path):
    from sacrebleu.metrics import BLEU, CHRF

    from sit.compare import compare_runs

    # the base run's translations as references: BASE scores 100, NEW loses on the injected sentence
    originals = [t for t in _lines(runs["base"] / "translations.jsonl") if t["role"] == "original"]
    refs = tmp_path / "refs.txt"
    refs.write_text("".join(t["translation"] + "\n" for t in sorted(originals, key=lambda t: t["source_id"])),
                    encoding="utf-8")
    c = compare_runs(runs["base"], runs["regress"], references=refs, cache_dir=str(runs["root"] / "cache"), samples=200)
    scores = {s.metric: s for s in c.scores}
    new_hyps = {t["text"]: t["translation"] for t in _lines(runs["regress"] / "translations.jsonl")}
    hyps = [new_hyps[t["text"]] for t in sorted(originals, key=lambda t: t["source_id"])]
    ref_lines = [refs.read_text(encoding="utf-8").splitlines()]
    assert scores["BLEU"].base == pytest.approx(100.0)
    assert scores["BLEU"].new == pytest.approx(BLEU().corpus_score(hyps, ref_lines).score)
    assert scores["chrF2"].new == pytest.approx(CHRF().corpus_score(hyps, ref_lines).score)
    assert scores["BLEU"].delta < 0 and 0 <= scores["BLEU"].p_value <= 1
    assert "bs:200" in scores["BLEU"].signature and scores["BLEU"].sentences == 8
    short = tmp_path / "short.txt"
    short.write_text("una\n", encoding="utf-8")
    from sit.errors import InputError

    with pytest.raises(InputError, match="one reference per input line"):
        compare_runs(runs["base"], runs["regress"], references=short, cache_dir=str(runs["root"] / "cache"))


def test_runs_of_other_inputs_or_relations_are_refused_in_one_line(runs, tmp_path, capsys):
    from sit.cli import main

    other_input = tmp_path / "other-input"
    shutil.copytree(runs["base"], other_input)
    rows = _lines(other_input / "translations.jsonl")
    rows[2]["text"] = "A sentence the base run never tested."
    (other_input / "translations.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    assert main(["compare", str(runs["base"]), str(other_input)]) == 2
    err = capsys.readouterr().err.strip()
    assert "different inputs" in err and f"line {rows[2]['source_id']}" in err and "\n" not in err

    other_rel = tmp_path / "other-relations"
    shutil.copytree(runs["base"], other_rel)
    meta = json.loads((other_rel / "run.json").read_text())
    del meta["signature"]["relations"]["rti"]
    (other_rel / "run.json").write_text(json.dumps(meta), encoding="utf-8")
    assert main(["compare", str(runs["base"]), str(other_rel)]) == 2
    err = capsys.readouterr().err.strip()
    assert "different relations sit+rti+patinv and sit+patinv" in err and "\n" not in err


def test_a_run_written_before_the_signature_blocks_compares_with_one_of_today(runs, tmp_path, capsys):
    """A run.json of an older sit (fixed ``num_perturb`` and ``distance`` fields beside the same
    values in the perturber's and sit relation's options) is the configuration of today's run."""
    from sit.cli import main
    from sit.compare import compare_runs

    old = tmp_path / "old"
    shutil.copytree(runs["rerun"], old)
    meta = json.loads((old / "run.json").read_text())
    sig = meta["signature"]
    assert "num_perturb" not in sig and "distance" not in sig
    sig.update(num_perturb=sig["perturber_options"]["num_perturb"], distance=sig["relations"]["sit"]["distance"])
    (old / "run.json").write_text(json.dumps(meta), encoding="utf-8")
    c = compare_runs(old, runs["base"], cache_dir=str(runs["root"] / "cache"))
    assert c.status_counts()["new"] == c.status_counts()["fixed"] == 0 and c.only_base == c.only_new == 0
    fewer = tmp_path / "fewer"
    shutil.copytree(old, fewer)
    sig["perturber_options"]["num_perturb"] = sig["num_perturb"] = 3
    (fewer / "run.json").write_text(json.dumps(meta), encoding="utf-8")
    assert main(["compare", str(runs["base"]), str(fewer)]) == 2
    err = capsys.readouterr().err
    assert "not comparable" in err and "perturber_options" in err and "'num_perturb': 3" in err


def test_fail_on_new_exit_codes(runs, capsys):
    from sit.cli import main
    from sit.compare.cli import EXIT_NEW_FINDINGS

    base, regress = str(runs["base"]), str(runs["regress"])
    new = len(_finding_keys(runs["regress"]) - _finding_keys(runs["base"]))
    assert EXIT_NEW_FINDINGS == 7
    assert main(["compare", base, regress]) == 0
    assert main(["compare", base, regress, "--fail-on", "new"]) == 7
    assert main(["compare", base, regress, "--fail-on", f"new:{new - 1}"]) == 7
    assert main(["compare", base, regress, "--fail-on", f"new:{new}"]) == 0
    assert main(["compare", base, base, "--fail-on", "new"]) == 0
    assert main(["compare", regress, base, "--fail-on", "new"]) == 0  # the other way round: fixed, not new
    capsys.readouterr()
    assert main(["compare", base, regress, "--fail-on", "old:3"]) == 2
    assert "--fail-on takes new or new:N" in capsys.readouterr().err


def test_junit_xml_parses_and_new_cases_fail(runs, tmp_path):
    from junitparser import JUnitXml

    from sit.cli import main
    from sit.compare import compare_runs

    out = tmp_path / "compare.xml"
    assert main(["compare", str(runs["base"]), str(runs["regress"]), "-f", "junit", "-o", str(out)]) == 0
    xml = JUnitXml.fromfile(str(out))
    cases = [case for suite in xml for case in suite]
    c = compare_runs(runs["base"], runs["regress"], cache_dir=str(runs["root"] / "cache"))
    assert len(cases) == len(c.cases) == xml.tests
    failing = [case for case in cases if not case.is_passed]
    new = _finding_keys(runs["regress"]) - _finding_keys(runs["base"])
    assert len(failing) == len(new) == xml.failures
    assert {f.result[0].type for f in failing} == {"new"}
    assert {case.name.split(": ", 1)[1] for case in failing} == {p for _r, _k, _o, p in new}


def test_jsonl_has_one_record_per_test_case(runs, capsys):
    from sit.cli import main

    assert main(["compare", str(runs["base"]), str(runs["regress"]), "-f", "jsonl", "-o", "-"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    pairs = _lines(runs["base"] / "pairs.jsonl")
    assert {(r["relation"], r["source"], r["case"]) for r in records} == {
        (p["relation"], p["original"], p["perturbed"]) for p in pairs}
    new = [r for r in records if r["status"] == "new"]
    assert len(new) == len(_finding_keys(runs["regress"]) - _finding_keys(runs["base"]))
    for r in new:
        assert r["new"] is not None and r["base"] is None
        assert r["new_translations"][1] == r["new"]["perturbed_translation"]
    translations = {t["text"]: t["translation"] for t in _lines(runs["regress"] / "translations.jsonl")}
    assert all(r["new_translations"] == [translations[r["source"]], translations[r["case"]]] for r in records)


def test_markdown_renders_with_its_tables_and_cases(runs, capsys):
    from markdown_it import MarkdownIt

    from sit.cli import main

    assert main(["compare", str(runs["base"]), str(runs["regress"]), "-f", "markdown"]) == 0
    text = capsys.readouterr().out
    html = MarkdownIt("commonmark").enable("table").render(text)
    new = _finding_keys(runs["regress"]) - _finding_keys(runs["base"])
    assert html.count("<table>") >= 3  # statuses per group, findings, signatures
    assert f"<h2>sit compare: {len(new)} new," in html
    assert "<th>BASE</th>" in html and "<td>regress</td>" in html  # the signatures side by side, where they differ
    assert "<details open><summary><b>new</b>" in html
    for _r, _k, _o, perturbed in new:
        assert perturbed in html


def test_html_page_uses_the_reports_stylesheet_and_escapes(runs, tmp_path):
    from sit.cli import main
    from sit.report.html import static_text

    out = tmp_path / "compare.html"
    assert main(["compare", str(runs["base"]), str(runs["regress"]), "-f", "html", "-o", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert static_text("report.css") in page and "Content-Security-Policy" in page and "<script" not in page
    new = _finding_keys(runs["regress"]) - _finding_keys(runs["base"])
    new_section = page.split('<section id="new">')[1].split("</section>")[0]
    assert new_section.count('<details class="sent">') == len(new)
    assert f"sit compare: {len(new)} new" in page
    assert '<mark class="ins">' in page  # NEW's added words marked


def test_sit_run_baseline_and_several_translators(runs, tmp_path, capsys):
    from sit.cli import main
    from sit.compare import compare_runs

    cache = str(runs["root"] / "cache")
    out = tmp_path / "against-base"
    assert main(["run", "--baseline", str(runs["base"]), "--translator", "regress", "--out", str(out),
                 "--cache-dir", cache, "--no-progress"]) == 0
    assert "compare with" in capsys.readouterr().err
    meta = json.loads((out / "run.json").read_text())
    assert meta["config"]["relations"] == list(RELATIONS) and meta["config"]["limit"] == 8
    assert meta["counts"]["translator_calls"] == 0  # the regress run above translated all of these
    text = (out / "compare.txt").read_text(encoding="utf-8")
    expected = compare_runs(runs["base"], out, cache_dir=cache).status_counts()
    assert expected["new"] > 0 and f"{expected['new']} new, {expected['fixed']} fixed" in text
    assert (out / "compare.html").is_file()

    assert main(["run", "--baseline", str(runs["base"]), "--relation", "sit"]) == 2
    assert "leave out --relation" in capsys.readouterr().err

    both, fresh = tmp_path / "both", str(tmp_path / "fresh-cache")
    assert main(["run", "--dataset", "news", "--limit", "8", "--relation", ",".join(RELATIONS), "--top-k", "0",
                 "--translator", "apertium,regress", "--out", str(both), "--cache-dir", fresh, "--no-progress"]) == 0
    assert not (both / "apertium" / "compare.txt").exists()
    first = json.loads((both / "apertium" / "run.json").read_text())["counts"]
    second = json.loads((both / "regress" / "run.json").read_text())["counts"]
    # the second system reads the first one's perturbations and English parses from the cache
    assert first["perturbation_cache_hits"] == 0 < second["perturbation_cache_hits"]
    assert second["perturbations"] == first["perturbations"]
    assert (both / "regress" / "issues.jsonl").read_text() == (runs["regress"] / "issues.jsonl").read_text()
    text = (both / "regress" / "compare.txt").read_text(encoding="utf-8")
    assert f"{expected['new']} new, {expected['fixed']} fixed" in text
