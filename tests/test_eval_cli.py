"""`sit eval` and the `teapot` console script, run as real processes on the example sets."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import sacrebleu

from sit.eval import parse_meteor_output
from test_eval import EXAMPLES, MT, SENT, TABLE, expected_report, independent, load, printed, ref_chrf

BIN = Path(sys.executable).parent
ENTRY = {"sit": ("sit.cli", "main"), "teapot": ("sit.eval.cli", "teapot_main")}


def cli(prog: str, *args: str) -> subprocess.CompletedProcess:
    """Run the installed console script (or its entry point through this Python)."""
    exe = BIN / prog
    if exe.exists():
        cmd = [str(exe)]
    else:  # pragma: no cover - an environment without the scripts on the interpreter's bin
        module, func = ENTRY[prog]
        cmd = [sys.executable, "-c", f"import sys; from {module} import {func}; sys.exit({func}())"]
    if prog == "sit":
        cmd.append("eval")
    return subprocess.run(cmd + list(args), capture_output=True, text=True, timeout=120)


def file_args(files: dict, with_ref: bool = True) -> list[str]:
    args = []
    for key, rel in files.items():
        if key == "ref" and not with_ref:
            continue
        args += ["--" + key.replace("_", "-"), str(EXAMPLES / rel)]
    return args


CUSTOM = str(EXAMPLES / "custom_scorers.py")
SAME_OUTPUT_CASES = {
    "chrf-ref": file_args(MT),
    "chrf-noref": file_args(MT, with_ref=False),
    "bleu-ref": file_args(MT) + ["--s-src", "bleu", "--s-tgt", "bleu"],
    "zero_one-1.8": file_args(SENT) + ["--s-tgt", "zero_one", "--success-threshold", "1.8"],
    "source-only": ["--src", str(EXAMPLES / MT["src"]), "--adv-src", str(EXAMPLES / MT["adv_src"])],
    "target-only": ["--out", str(EXAMPLES / MT["out"]), "--adv-out", str(EXAMPLES / MT["adv_out"]),
                    "--ref", str(EXAMPLES / MT["ref"])],
    "terse": file_args(MT) + ["--terse"],
    "json": file_args(MT, with_ref=False) + ["--json"],
    "custom-f1": file_args(MT) + ["--custom-scores-source", CUSTOM, "--s-tgt", "f1"],
    "custom-constant": file_args(MT) + ["--custom-scores-source", CUSTOM, "--s-src", "constant", "--value", "0.3"],
}


@pytest.mark.parametrize("args", list(SAME_OUTPUT_CASES.values()), ids=list(SAME_OUTPUT_CASES))
def test_teapot_and_sit_eval_print_identical_output(args):
    sit, teapot = cli("sit", *args), cli("teapot", *args)
    assert sit.returncode == teapot.returncode == 0, sit.stderr + teapot.stderr
    assert sit.stdout == teapot.stdout
    assert sit.stdout.strip()


@pytest.mark.parametrize("row", [r for r in TABLE if r[0] in ("mt-chrf-ref", "mt-bleu-ref", "sentiment-zero_one-1.8")],
                         ids=lambda r: r[0])
def test_printed_report_is_teapots_layout_with_the_table_figures(row):
    _, files, s_src, s_tgt, threshold, with_ref, *_ = row
    proc = cli("teapot", *file_args(files, with_ref), "--s-src", s_src, "--s-tgt", s_tgt,
               "--success-threshold", str(threshold))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == expected_report(row) + "\n"


def test_reference_less_run_prints_the_note_first():
    row = next(r for r in TABLE if r[0] == "mt-chrf-noref")
    proc = cli("sit", *file_args(MT, with_ref=False))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "Note: No reference file provided. Will use the reference-less criterion."
    assert "\n".join(lines[1:]) == expected_report(row)


def test_terse_prints_the_means_and_the_success_percentage():
    proc = cli("sit", *file_args(MT), "--terse")
    assert proc.stdout.splitlines() == ["88.609", "22.206", "91.284"]


def test_json_holds_the_figures_per_line_scores_and_signatures():
    proc = cli("sit", *file_args(MT, with_ref=False), "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    s, t, ok = independent(MT, "chrf", "chrf", 1.0, False)
    assert data["n"] == len(s) == 218 and data["with_reference"] is False
    assert data["note"].startswith("Note: No reference file provided")
    assert data["s_src"]["scores"] == pytest.approx(s, abs=1e-12)
    assert data["s_tgt"]["scores"] == pytest.approx(t, abs=1e-12)
    assert "d_tgt" not in data
    assert (data["s_src"]["printed"]["mean"], data["s_src"]["printed"]["std"],
            data["s_src"]["printed"]["5%-95%"]) == printed(s)
    assert data["success"]["per_line"] == ok and data["success"]["printed"] == "95.41"
    signature = f"nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:{sacrebleu.__version__}"
    assert data["s_src"]["signature"] == data["s_tgt"]["signature"] == signature
    assert data["criterion"].startswith("s_src / s_tgt > threshold")


# -- custom scorers ---------------------------------------------------------------------------------


def word_f1(hyp: str, ref: str) -> float:
    h, r = hyp.split(), ref.split()
    if not h or not r:
        return float(h == r)
    p = sum(w in set(r) for w in h) / len(h)
    q = sum(w in set(h) for w in r) / len(r)
    return 0.0 if p + q == 0 else 2 * p * q / (p + q)


def test_custom_f1_scorer_from_the_examples():
    proc = cli("sit", *SAME_OUTPUT_CASES["custom-f1"])
    assert proc.returncode == 0, proc.stderr
    out, adv_out, ref = load(MT["out"]), load(MT["adv_out"]), load(MT["ref"])
    d = []
    for o, a, r in zip(out, adv_out, ref):
        base, hyp = word_f1(o, r), word_f1(a, r)
        d.append(max(0, base - hyp) / base if base > 0 else 0)
    mean, std, p5_95 = printed(d)
    lines = proc.stdout.splitlines()
    assert lines[5:9] == ["Target side degradation (relative decrease in F-1):", f"Mean:\t{mean}", f"Std:\t{std}",
                          f"5%-95%:\t{p5_95}"]


def test_custom_constant_scorer_takes_its_option():
    proc = cli("sit", *SAME_OUTPUT_CASES["custom-constant"])
    assert proc.stdout.splitlines()[:4] == ["Source side preservation (Constant):", "Mean:\t30.000", "Std:\t0.000",
                                            "5%-95%:\t30.000-30.000"]
    helped = cli("sit", "--custom-scores-source", CUSTOM, "--s-src", "constant", "--help")
    assert "--value VALUE" in helped.stdout and "the score of every pair" in helped.stdout


def test_a_scorer_file_written_for_teapot_loads_unchanged(tmp_path):
    source = tmp_path / "teapot_style.py"
    source.write_text(textwrap.dedent('''
        import teapot

        @teapot.register_scorer("first_char", "First character")
        class FirstChar(teapot.Scorer):
            def score_sentence(self, hyp, ref, lang=None):
                return float(hyp[:1] == ref[:1])
    '''), encoding="utf-8")
    args = ["--src", str(EXAMPLES / MT["src"]), "--adv-src", str(EXAMPLES / MT["adv_src"]),
            "--custom-scores-source", str(source), "--s-src", "first_char"]
    sit, teapot = cli("sit", *args), cli("teapot", *args)
    assert sit.returncode == 0, sit.stderr
    assert sit.stdout == teapot.stdout
    assert sit.stdout.splitlines()[:2] == ["Source side preservation (First character):", "Mean:\t100.000"]


# -- errors ------------------------------------------------------------------------------------------


def test_errors_are_one_line_messages_with_exit_codes(tmp_path):
    short = tmp_path / "short.en"
    short.write_text("one line\n", encoding="utf-8")
    latin = tmp_path / "latin.en"
    latin.write_bytes(b"ok\nna\xefve\n")
    cases = [
        (["--src", str(EXAMPLES / MT["src"]), "--adv-src", str(short)], 2,
         f"(--src) has 218 lines but {short} (--adv-src) has 1"),
        (["--src", str(latin), "--adv-src", str(latin)], 2, f"{latin}: line 2 is not valid UTF-8"),
        (["--src", str(short), "--adv-src", str(short), "--s-src", "rouge"], 2,
         "unknown scorer 'rouge'; choose one of: bleu, chrf, exact_match, meteor, zero_one"),
        (["--src", str(short), "--adv-src", str(short), "--custom-scores-source", str(tmp_path / "nope.py"),
          "--s-src", "constant", "--value", "2"], 2, "nope.py does not exist"),
        ([], 2, "nothing to evaluate"),
    ]
    for args, code, message in cases:
        for prog in ("sit", "teapot"):
            proc = cli(prog, *args)
            assert proc.returncode == code, (args, proc.stderr)
            assert message in proc.stderr
            assert proc.stderr.startswith(f"{prog}: error: ") and "Traceback" not in proc.stderr


def test_tokenized_input_warns_and_still_scores(tmp_path):
    tok = tmp_path / "tok.en"
    tok.write_text("A tokenized line .\nAnother one , here .\n", encoding="utf-8")
    proc = cli("sit", "--src", str(tok), "--adv-src", str(tok))
    assert proc.returncode == 0
    assert "looks tokenized" in proc.stderr and str(tok) in proc.stderr
    assert proc.stdout.splitlines()[1] == "Mean:\t100.000"


# -- METEOR ----------------------------------------------------------------------------------------

FAKE_METEOR = '''
import json, sys
jar, hyp_file, ref_file = sys.argv[1:4]
hyps = open(hyp_file, encoding="utf-8").read().splitlines()
refs = open(ref_file, encoding="utf-8").read().splitlines()
json.dump({"argv": sys.argv[1:], "hyps": hyps, "refs": refs}, open(jar + ".log.json", "w"))
print("Meteor version: 1.5 (fake, for tests)")
print("")
for i, (h, r) in enumerate(zip(hyps, refs), start=1):
    print(f"Segment {i} score:\\t{1.0 if h == r else 0.25}")
print("")
print("Final score:\\t\\t0.5")
'''


def test_meteor_command_and_output_parsing_with_a_fake_jar(tmp_path):
    """Checks how sit calls METEOR and reads its output; this is not a real METEOR run."""
    fake = tmp_path / "fake_meteor.py"
    fake.write_text(FAKE_METEOR, encoding="utf-8")
    jar = tmp_path / "meteor-1.5.jar"
    jar.write_bytes(b"not a real jar")
    src, adv = tmp_path / "src.en", tmp_path / "adv.en"
    src.write_text("same line\nthe cat\n", encoding="utf-8")
    adv.write_text("same line\nthe cta\n", encoding="utf-8")
    proc = cli("sit", "--src", str(src), "--adv-src", str(adv), "--s-src", "meteor", "--src-lang", "en",
               "--meteor-jar", str(jar), "--java-command", f"{sys.executable} {fake}")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[:3] == ["Source side preservation (METEOR):", "Mean:\t62.500", "Std:\t53.033"]
    log = json.loads((tmp_path / "meteor-1.5.jar.log.json").read_text())
    assert log["argv"][0] == str(jar) and log["argv"][3:] == ["-norm", "-l", "en"]
    assert log["hyps"] == ["same line", "the cta"] and log["refs"] == ["same line", "the cat"]


def test_meteor_without_jar_java_or_language_says_what_to_do(tmp_path):
    src = tmp_path / "src.en"
    src.write_text("a line\n", encoding="utf-8")
    base = ["--src", str(src), "--adv-src", str(src), "--s-src", "meteor"]
    no_lang = cli("sit", *base)
    assert no_lang.returncode == 2 and "pass --src-lang" in no_lang.stderr
    no_jar = cli("sit", *base, "--src-lang", "en")
    assert no_jar.returncode == 3 and "METEOR needs its jar" in no_jar.stderr and "--meteor-jar" in no_jar.stderr
    missing_jar = cli("sit", *base, "--src-lang", "en", "--meteor-jar", str(tmp_path / "meteor-1.5.jar"))
    assert missing_jar.returncode == 3 and "meteor-1.5.jar does not exist" in missing_jar.stderr
    (tmp_path / "meteor-1.5.jar").write_bytes(b"x")
    no_java = cli("sit", *base, "--src-lang", "en", "--meteor-jar", str(tmp_path / "meteor-1.5.jar"),
                  "--java-command", "no-such-java -jar")
    assert no_java.returncode == 3 and "METEOR needs Java" in no_java.stderr


@pytest.mark.parametrize(
    "output,expected",
    [
        ("Segment 1 score:\t0.5\nSegment 2 score:\t0.25\nFinal score:\t\t0.375\n", [0.5, 0.25]),
        ("Meteor version: 1.5\n\nSegment 1 score: 1.0\r\n", [1.0]),
        ("Error: Invalid or corrupt jarfile x.jar\n", []),
    ],
)
def test_parse_meteor_output(output, expected):
    assert parse_meteor_output(output) == expected


# -- light imports --------------------------------------------------------------------------------


def test_the_subcommand_module_imports_no_metric_or_model_library():
    code = ("import argparse, sys; import sit.eval.cli as c; p = argparse.ArgumentParser(); c.configure(p); "
            "print(sorted(m for m in ('sacrebleu', 'torch', 'spacy', 'transformers') if m in sys.modules))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.stdout.strip() == "[]", proc.stderr


def test_reference_less_scores_match_the_cli_json():
    from sit.eval import reference_less_scores

    src, adv, out, adv_out = (load(MT[k]) for k in ("src", "adv_src", "out", "adv_out"))
    got = reference_less_scores(src, adv, out, adv_out)
    data = json.loads(cli("sit", *file_args(MT, with_ref=False), "--json").stdout)
    assert got["s_src"] == data["s_src"]["scores"] and got["s_tgt"] == data["s_tgt"]["scores"]
    assert got["summary"]["success_rate"] == data["success"]["rate"]
    assert got["s_src"][0] == ref_chrf(adv[0], src[0])
