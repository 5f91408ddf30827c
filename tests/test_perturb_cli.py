"""`sit perturb`: a line-aligned perturbed file plus a JSONL record per line, feeding `sit eval`."""

from __future__ import annotations

import importlib.util
import json

import pytest

from sit.cli import main

LINES = [
    "The quick brown fox jumps over the lazy dog.",
    "",
    "a",
    "Zürich café serves naïve crêpes",
    "Rain fell all night. The river rose quickly.",
]


@pytest.fixture()
def src(tmp_path):
    p = tmp_path / "src.txt"
    p.write_text("\n".join(LINES) + "\n", encoding="utf-8")
    return p


def records(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize(
    "name,extra,expected",
    [
        ("character_swap", [], [
            "The qucik brown fox jumps over the lazy dog.", "", "a", "Zürich café serves naïve crpêes",
            "Rain fell all night. The river rose quiclky."]),
        ("homoglyph", ["--n", "2"], [  # two letters per line become Cyrillic look-alikes
            "The qu\u0456ck brown fo\u0445 jumps over the lazy dog.", "", "a",
            "Zürich café \u0455erves naïve crêpe\u0455", "Rain fell all night. The river r\u043ese \u051buickly."]),
        ("word_delete", ["--seed", "3"], [
            "The quick brown jumps over the lazy dog.", "", "a", "café serves naïve crêpes",
            "Rain fell all night. The river quickly."]),
        ("sentence_reorder", [], [
            LINES[0], "", "a", LINES[3], "The river rose quickly. Rain fell all night."]),
    ],
)
def test_perturb_writes_aligned_lines_and_records(tmp_path, src, capsys, name, extra, expected):
    out = tmp_path / "adv.txt"
    rc = main(["perturb", "--input", str(src), "--output", str(out), "--perturber", name, *extra])
    assert rc == 0
    got = out.read_text(encoding="utf-8").split("\n")
    assert got[-1] == "" and len(got) - 1 == len(LINES)
    recs = records(tmp_path / "adv.txt.edits.jsonl")
    assert [r["line"] for r in recs] == [1, 2, 3, 4, 5]
    assert got[:-1] == expected
    assert [r["applied"] for r in recs] == [e != line for e, line in zip(expected, LINES)]  # both kinds below
    for line, perturbed, r in zip(LINES, got, recs):
        assert r["original"] == line and r["perturbed"] == perturbed and r["perturbation"] == name
        if r["applied"]:
            assert perturbed != line and r["edits"] and r["reason"] == ""
            for e in r["edits"]:
                assert line[e["start"] : e["end"]] == e["before"]
                assert perturbed[e["new_start"] : e["new_end"]] == e["after"]
        else:
            assert perturbed == line and r["reason"] and r["edits"] == []
    assert recs[1]["reason"] == "empty text"
    err = capsys.readouterr().err
    assert "line(s) left unchanged: empty text" in err
    # the same command again gives the same bytes
    out2 = tmp_path / "adv2.txt"
    main(["perturb", "--input", str(src), "--output", str(out2), "--perturber", name, *extra])
    assert out2.read_bytes() == out.read_bytes()


def test_records_path_and_cannot_apply_reason(tmp_path, src):
    out, rec = tmp_path / "o.txt", tmp_path / "r.jsonl"
    assert main(["perturb", "--input", str(src), "--output", str(out), "--records", str(rec),
                 "--perturber", "document_reorder"]) == 0
    recs = records(rec)
    assert not any(r["applied"] for r in recs)
    assert recs[0]["reason"] == "a single document (no '|||||' separator between documents)"
    assert out.read_text(encoding="utf-8") == src.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "args,code,message",
    [
        (["--perturber", "nope"], 2, "unknown perturber 'nope'"),
        (["--perturber", "sentence_paraphrase"], 2, "needs a paraphrase model"),
        (["--perturber", "wordnet", "--n", "2"], 2, "the wordnet perturber has no option 'n'; its options: num_perturb, senses"),
        (["--perturber", "sentence_reorder", "--n", "2"], 2, "the sentence_reorder perturber has no option 'n'"),
        (["--perturber", "document_reorder", "--perturber-option", "protect=[\"EU\"]"], 2, "has no option 'protect'"),
        (["--perturber", "wordnet", "--paraphrase-model", "t5"], 2, "the wordnet perturber has no option 'model'"),
        (["--perturber", "character_swap", "--perturber-option", "rate"], 2, "--perturber-option takes KEY=VALUE"),
        (["--perturber", "character_swap", "--rate", "2"], 2, "rate must be a finite number above 0 and at most 1 (the fraction of eligible units), not 2.0"),
        (["--perturber", "character_swap", "--perturber-option", "bogus=1"], 2, "the character_swap perturber has no option 'bogus'"),
        (["--perturber", "character_swap", "--protect", "("], 2, "bad protect pattern"),
    ],
)
def test_errors_are_one_line_messages(tmp_path, src, capsys, args, code, message):
    rc = main(["perturb", "--input", str(src), "--output", str(tmp_path / "o.txt"), *args])
    assert rc == code
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_bad_input_files(tmp_path, capsys):
    bad = tmp_path / "latin1.txt"
    bad.write_bytes("caf\xe9\n".encode("latin-1"))
    assert main(["perturb", "--input", str(bad), "--output", str(tmp_path / "o"), "--perturber", "homoglyph"]) == 2
    assert "not valid UTF-8" in capsys.readouterr().err
    empty = tmp_path / "empty.txt"
    empty.write_text("\n\n", encoding="utf-8")
    assert main(["perturb", "--input", str(empty), "--output", str(tmp_path / "o"), "--perturber", "homoglyph"]) == 2
    assert "has no text" in capsys.readouterr().err
    assert main(["perturb", "--input", str(tmp_path / "missing"), "--output", str(tmp_path / "o"),
                 "--perturber", "homoglyph"]) == 2


def test_options_reach_the_perturber(tmp_path, src):
    out = tmp_path / "o.txt"
    assert main(["perturb", "--input", str(src), "--output", str(out), "--perturber", "character_insert",
                 "--perturber-option", "alphabet=\"z\\u00e9\"", "--rate", "1.0", "--keep-stopwords"]) == 0
    first = records(tmp_path / "o.txt.edits.jsonl")[0]
    assert len(first["edits"]) == 9  # every word, stop words included
    assert all(set(e["after"]) - set(e["before"]) <= {"z", "é", "Z", "É"} for e in first["edits"])


def test_wordnet_perturber_through_sit_perturb(tmp_path):
    # the fox sentence's one WordNet candidate ("the lazy head") breaks a pair the n-gram model
    # knows ("lazy dog"), so the perturber leaves it as it is; the council's has natural ones
    src = tmp_path / "src.txt"
    src.write_text("The city council approved the new budget on Tuesday.\n\n" + LINES[0] + "\n", encoding="utf-8")
    out = tmp_path / "o.txt"
    assert main(["perturb", "--input", str(src), "--output", str(out), "--perturber", "wordnet",
                 "--cache-dir", str(tmp_path / "cache")]) == 0
    recs = records(tmp_path / "o.txt.edits.jsonl")
    assert recs[0]["applied"] and recs[0]["edits"][0]["before"] in ("city", "council", "new", "budget")
    assert recs[1]["reason"] == "empty text"
    assert not recs[2]["applied"]


def _sacrebleu_chrf(hyp: str, ref: str) -> float:
    from sacrebleu.metrics import CHRF

    return CHRF().sentence_score(hyp, [ref]).score


def test_perturbed_file_feeds_sit_eval(tmp_path, src, capsys):
    """`sit perturb` output is line-aligned with its input, so TEAPOT scores it line by line."""
    adv = tmp_path / "adv.txt"
    assert main(["perturb", "--input", str(src), "--output", str(adv), "--perturber", "character_swap"]) == 0
    a = src.read_text(encoding="utf-8").splitlines()
    b = adv.read_text(encoding="utf-8").splitlines()
    assert len(a) == len(b)
    scores = [_sacrebleu_chrf(y, x) for x, y in zip(a, b) if x]
    assert all(0 < s <= 100 for s in scores) and min(scores) < 100
    if importlib.util.find_spec("sit.eval") is None or importlib.util.find_spec("sit.eval.cli") is None:
        pytest.skip("sit eval is not in this checkout yet (sit/eval/ is written in parallel)")
    capsys.readouterr()
    rc = main(["eval", "--src", str(src), "--adv-src", str(adv)])
    assert rc == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    assert out.startswith("Source side preservation (ChrF):") and "Mean:" in out and "5%-95%:" in out


def test_one_validator_for_run_and_perturb_options():
    """`sit run --perturber-option` and `sit perturb --option` share one validator: run-wide
    defaults reach a perturber only where it takes them; what the user gives must be taken."""
    from sit.errors import ConfigError
    from sit.perturb.options import perturber_options

    assert perturber_options("sentence_reorder", {"separator": "@@"}, {"num_perturb": 4, "device": "cpu"}) == {
        "num_perturb": 4, "separator": "@@"}
    assert perturber_options("mlm", {}, {"num_perturb": 2, "device": "cpu", "model": "m"}) == {
        "num_perturb": 2, "device": "cpu", "model": "m"}
    with pytest.raises(ConfigError, match="the sentence_reorder perturber has no option 'rate'; its options: separator, num_perturb"):
        perturber_options("sentence_reorder", {"rate": 0.5})


def test_old_flag_spellings_still_work_and_say_so(tmp_path, capsys):
    """Issue 26: one spelling of each flag across subcommands (sit run's); the old ones are aliases
    that print a one-line note."""
    src = tmp_path / "in.txt"
    src.write_text("The cat sat on the mat today.\n", encoding="utf-8")
    new, old = tmp_path / "new.txt", tmp_path / "old.txt"
    assert main(["perturb", "--input", str(src), "--output", str(new), "--perturber", "character_swap",
                 "--perturber-option", "min_word_length=3"]) == 0
    assert "old spelling" not in capsys.readouterr().err
    assert main(["perturb", "--input", str(src), "--output", str(old), "--perturbation", "character_swap",
                 "--option", "min_word_length=3"]) == 0
    err = capsys.readouterr().err
    assert "sit: note: --perturbation is the old spelling of --perturber" in err
    assert "sit: note: --option is the old spelling of --perturber-option" in err
    assert new.read_text(encoding="utf-8") == old.read_text(encoding="utf-8")
