"""`sit summarize` with the offline lead-3 baseline on the bundled document set."""

from __future__ import annotations

import json

import pytest

from sit.cli import main
from sit.errors import ConfigError, InputError
from sit.perturb import PERTURBERS
from sit.perturb.text import sentences
from sit.summarize import SUMMARIZERS
from sit.summarize.data import bundled_path, load_hub, read_jsonl
from sit.summarize.robustness import lead_bias, lead_span
from sit.summarize.scores import lead_match, relative_decrease, teapot


@pytest.fixture(scope="module")
def docs():
    return read_jsonl(bundled_path("lead_docs"))


def test_bundled_set_is_small_news_with_references(docs):
    assert len(docs) == 26
    for d in docs:
        assert 5 <= len(sentences(d.text)) <= 7 and d.reference


# perturbation, options -> inclusion before, after, perturbed documents, ROUGE-L after (lead-3, seed 0)
LEAD3 = [
    ("sentence_reorder", {}, 1.0, 0.538462, 26, 0.293264),
    ("homoglyph", {}, 1.0, 1.0, 26, 0.343718),
    ("word_homograph", {"rate": 1.0}, 1.0, 1.0, 26, 0.19833),
    ("character_swap", {}, 1.0, 1.0, 26, 0.343024),
    ("word_delete", {}, 1.0, 1.0, 26, 0.349638),
    ("document_reorder", {}, 1.0, 1.0, 0, 0.36086),
]


@pytest.mark.parametrize("name,options,before,after,perturbed,rouge_l", LEAD3)
def test_lead3_lead_bias(docs, name, options, before, after, perturbed, rouge_l):
    report = lead_bias(docs, SUMMARIZERS.create("lead-3"), PERTURBERS.create(name, **options), seed=0)
    s = report.summary()
    assert (s["lead_inclusion_before"], s["lead_inclusion_after"], s["perturbed_documents"]) == (before, after, perturbed)
    assert s["rouge_before"]["rougeL"] == 0.36086
    assert s["rouge_after"]["rougeL"] == rouge_l
    assert "chrF >= 50" in s["lead_judge"]
    if perturbed:
        assert 0 < s["s_src"] <= 1 and s["d_tgt"] is not None
    else:
        assert s["s_src"] is None and "could not be perturbed" in report.format()
        assert {d.reason for d in report.documents} == {"a single document (no '|||||' separator between documents)"}


def test_reorder_moves_the_lead_out_of_lead_1(docs):
    report = lead_bias(docs, SUMMARIZERS.create("lead-3", k=1), PERTURBERS.create("sentence_reorder"), seed=0)
    for d in report.documents:
        assert d.included_perturbed == d.perturbed.startswith(d.lead)
    assert report.summary()["lead_inclusion_after"] == 0.346154


def test_lead_scope_edits_only_the_first_sentence(docs):
    report = lead_bias(docs[:5], SUMMARIZERS.create("lead-3"), PERTURBERS.create("character_swap", n=3), seed=1)
    assert report.scope == "lead"
    for d in report.documents:
        s, e = lead_span(d.document)
        assert d.perturbed[e:] == d.document[e:]
        assert all(c["end"] <= e for c in d.edits)
        assert d.document[d.edits[0]["start"] : d.edits[0]["end"]] == d.edits[0]["before"]


def test_scope_document_and_bad_scope(docs):
    r = lead_bias(docs[:3], SUMMARIZERS.create("lead-3"), PERTURBERS.create("homoglyph", n=2), scope="document")
    assert r.scope == "document"
    with pytest.raises(ConfigError):
        lead_bias(docs[:3], SUMMARIZERS.create("lead-3"), PERTURBERS.create("sentence_reorder"), scope="lead")
    with pytest.raises(ConfigError):
        lead_bias(docs[:3], SUMMARIZERS.create("lead-3"), PERTURBERS.create("homoglyph"), scope="middle")


@pytest.mark.parametrize(
    "summary,lead,score",
    [
        ("Rain fell. The cat sat on the mat.", "The cat sat on the mat.", 100.0),
        ("Th\u0435 \u0441at sat on the mat.", "The cat sat on the mat.", 100.0),  # homoglyphs folded
        ("", "The cat sat on the mat.", 0.0),
        ("Dogs bark loudly at night.", "", 0.0),
    ],
)
def test_lead_match(summary, lead, score):
    assert lead_match(summary, lead) == score


def test_teapot_scores():
    t = teapot("the cat sat", "the cat sat", "a b", "a b", None)
    assert t == {"s_src": 1.0, "s_tgt": 100.0, "s_tgt_perturbed": 100.0, "d_tgt": 0.0, "success": False}
    assert relative_decrease(0.0, 10.0) == 0.0 and relative_decrease(50.0, 25.0) == 0.5


def test_a_perturbed_summary_closer_to_the_reference_is_no_degradation_as_in_sit_eval():
    """TEAPOT clips the relative decrease at 0: an output that got better degrades nothing."""
    from sit.eval import evaluate

    doc, summary, better, ref = "the cat sat on the mat", "a dog", "the cat sat on a mat", "the cat sat on the mat"
    t = teapot(doc, doc, summary, better, ref)
    assert t["s_tgt_perturbed"] > t["s_tgt"]  # the perturbed summary is the better one
    assert t["d_tgt"] == 0.0
    res = evaluate(out=[summary], adv_out=[better], ref=[ref], check_tok=False)
    assert res.target.scores == (0.0,)


def test_summaries_are_cached(tmp_path, docs):
    from sit.cache import Cache

    s = SUMMARIZERS.create("lead-3", cache=Cache(tmp_path))
    first = s.summarize([d.text for d in docs[:4]] + [""])
    assert s.computed == 4 and first[-1] == ""
    again = SUMMARIZERS.create("lead-3", cache=Cache(tmp_path))
    assert again.summarize([d.text for d in docs[:4]]) == first[:4]
    assert again.cache_hits == 4 and again.computed == 0
    from sit.cache.ops import stats

    assert [(st.kind, st.label, st.entries) for st in stats(Cache(tmp_path)).stores] == [("summaries", "lead-3-lead-3", 4)]  # its name and model


def test_multi_document_lead3_and_reorder():
    text = "Alpha one. Alpha two. ||||| Beta one. Beta two."
    assert SUMMARIZERS.create("lead-3").summarize([text]) == ["Alpha one. Alpha two. Beta one."]
    assert lead_span(text) == (0, 10)


@pytest.mark.parametrize(
    "content,message",
    [
        ('{"document": "x"}\nnot json\n', "not valid JSON"),
        ('{"body": "x"}\n', "no text field"),
        ("", "no documents"),
        ('{"document": 3}\n', "is not a string"),
    ],
)
def test_bad_jsonl(tmp_path, content, message):
    p = tmp_path / "d.jsonl"
    p.write_text(content, encoding="utf-8")
    with pytest.raises(InputError, match=message):
        read_jsonl(p)


def test_custom_fields_and_size(tmp_path):
    p = tmp_path / "d.jsonl"
    p.write_text('{"article": "A b. C d.", "highlights": "A."}\n{"article": "E f."}\n', encoding="utf-8")
    got = read_jsonl(p)
    assert [(d.id, d.text, d.reference) for d in got] == [("1", "A b. C d.", "A."), ("2", "E f.", None)]
    assert len(read_jsonl(p, size=1)) == 1


def test_hub_dataset_fails_clearly_offline(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises((InputError, ConfigError), match="datasets|hub"):
        load_hub("alexfabbri/multi_news", split="test", size=100)


def test_sit_summarize_cli(tmp_path, capsys):
    out, rep = tmp_path / "docs.jsonl", tmp_path / "report.json"
    rc = main(["summarize", "--input", "lead_docs", "--perturber", "sentence_reorder", "--cache-dir",
               str(tmp_path / "cache"), "--output", str(out), "--report", str(rep), "--no-progress"])
    assert rc == 0
    text = capsys.readouterr().out
    assert "lead-sentence inclusion: before 100.0%, after 53.8%" in text
    assert "ROUGE F1 vs 26 reference(s)" in text and "s_src" in text and "d_tgt" in text
    report = json.loads(rep.read_text(encoding="utf-8"))
    assert report["lead_inclusion_after"] == 0.538462 and report["documents"] == 26
    rows = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 26 and {"summary", "perturbed_summary", "lead_score", "teapot"} <= set(rows[0])
    # the second run answers from the summary cache
    main(["summarize", "--input", "lead_docs", "--perturber", "sentence_reorder", "--cache-dir",
          str(tmp_path / "cache"), "--no-progress"])
    assert "summaries came from the cache" in capsys.readouterr().err


@pytest.mark.parametrize(
    "args,message",
    [
        (["--input", "lead_docs", "--perturber", "homoglyph", "--model", "x"], "apply to seq2seq"),
        (["--input", "lead_docs", "--perturber", "homoglyph", "--summarizer", "nope"], "unknown summarizer"),
        (["--input", "missing.jsonl", "--perturber", "homoglyph"], "cannot read"),
        (["--input", "lead_docs", "--perturber", "sentence_paraphrase"], "needs a paraphrase model"),
    ],
)
def test_sit_summarize_errors(tmp_path, capsys, args, message):
    assert main(["summarize", *args, "--no-cache", "--no-progress"]) != 0
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
