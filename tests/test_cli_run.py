"""`sit run` end to end through the real command: Apertium, WordNet, spaCy, real files."""

import json
import os
import subprocess
import sys

import pytest
from conftest import requires_apertium, requires_torch

from sit.errors import ConfigError


def sit(*args, env=None, check=True):
    proc = subprocess.run(
        [sys.executable, "-m", "sit.cli", *args], capture_output=True, text=True,
        env={**os.environ, **(env or {})}, timeout=600,
    )
    if check:
        assert proc.returncode == 0, proc.stderr
    return proc


#: six sentences give few natural substitutes; without the n-gram check they give issues of both kinds
PAPERS_WORDS = ("--perturber-option", "lm=none", "--relation", "sit")  # sit's own findings, as the paper


@requires_apertium
def test_run_writes_a_ranked_report_and_reruns_from_the_cache(tmp_path):
    out = tmp_path / "run1"
    p = sit("run", "--dataset", "politics", "--translator", "apertium", "--limit", "6", *PAPERS_WORDS, "--out", str(out))
    assert "wordnet" in p.stderr and "masked LM is unavailable" in p.stderr  # says which perturber and why
    meta = json.loads((out / "run.json").read_text())
    sig = meta["signature"]
    assert (sig["translator"], sig["translator_model"], sig["target_lang"], sig["parser"]) == ("apertium", "eng-spa", "es", "spacy")
    assert sig["perturber"] == "wordnet" and sig["seed"] == 0 and "spacy" in sig["versions"]
    c = meta["counts"]
    assert c["sentences"] == 6 and c["perturbations"] > 10 and c["translator_calls"] >= 1 and c["cache_hits"] == 0
    assert set(meta["timings"]) >= {"perturb", "cases", "translate", "check"}

    issues = [json.loads(line) for line in (out / "issues.jsonl").read_text().splitlines()]
    assert issues and len(issues) == c["issues"]
    by_source = {}
    for issue in issues:
        assert issue["distance"] > 0 and issue["relation"] == "sit"
        assert issue["edit"]["before"] in issue["original"] and issue["edit"]["after"] in issue["perturbed"]
        if issue["kind"] == "untranslated_substitute":  # the substitute stands verbatim in its translation
            assert issue["evidence"]["word"] == issue["edit"]["after"] in issue["perturbed_translation"]
        elif issue["kind"] == "untranslated":  # the input's word stands verbatim in the original's translation
            assert issue["evidence"]["word"] == issue["edit"]["before"] in issue["original_translation"]
        else:
            assert issue["kind"] == "structure" and issue["group"] == "sit"  # sit's own finding, named
            assert issue["distance"] == sum(abs(a - b) for a, b in issue["relation_diff"].values())
        by_source.setdefault((issue["kind"], issue["source_id"]), []).append(issue)
    for group in by_source.values():
        assert len(group) <= 3
        assert [i["rank"] for i in group] == list(range(1, len(group) + 1))
        assert [i["distance"] for i in group] == sorted((i["distance"] for i in group), reverse=True)

    # TEAPOT's reference-less scores on every issue, computed independently with sacrebleu
    from sacrebleu.metrics import CHRF

    chrf = CHRF()
    for issue in issues:
        assert issue["scores"]["s_src"] == pytest.approx(chrf.sentence_score(issue["perturbed"], [issue["original"]]).score / 100)
        assert issue["scores"]["s_tgt"] == pytest.approx(
            chrf.sentence_score(issue["perturbed_translation"], [issue["original_translation"]]).score / 100)
    teapot = meta["teapot"]
    assert teapot["n"] == c["compared"] and 0 <= teapot["success_rate"] <= 1
    assert set(teapot["s_src"]) >= {"mean", "std", "p5", "p95"}

    report = (out / "report.txt").read_text()
    assert "TEAPOT (reference-less, chrF scores on a 0-1 scale):" in report and "success rate: " in report
    assert f"s_tgt (chrF, 0-1): mean {teapot['s_tgt']['mean']:.3f}" in report  # run.json's scale
    first = issues[0]
    assert first["original"] in report and first["perturbed"] in report and first["perturbed_translation"] in report
    assert f"[{first['source_id']}] source:" in report

    again = sit("run", "--dataset", "politics", "--translator", "apertium", "--limit", "6", *PAPERS_WORDS, "--out", str(tmp_path / "run2"))
    meta2 = json.loads((tmp_path / "run2" / "run.json").read_text())
    assert meta2["counts"]["translator_calls"] == 0 and meta2["counts"]["cache_hits"] == c["translations"]
    assert f"{c['translations']} texts to translate: 0 by the translator in 0 calls" in again.stderr
    assert (tmp_path / "run2" / "issues.jsonl").read_text() == (out / "issues.jsonl").read_text()


@requires_apertium
def test_run_on_an_input_file_with_mlm_and_marian(tmp_path, tiny_bert, tiny_marian):
    f = tmp_path / "in.txt"
    f.write_text("The angry senators rejected the new budget proposal.\n\nThe bank raised interest rates.\n")
    out = tmp_path / "run"
    p = sit("run", "--input", str(f), "--translator", "marian", "--model", str(tiny_marian), "--target-lang", "es",
            "--perturber", "mlm", "--mlm-model", str(tiny_bert), "--out", str(out))
    meta = json.loads((out / "run.json").read_text())
    assert meta["signature"]["perturber"] == "mlm" and meta["signature"]["perturber_model"] == str(tiny_bert)
    assert meta["counts"]["sentences"] == 2 and "skipped 1 empty line" in p.stderr
    rows = [json.loads(line) for line in (out / "translations.jsonl").read_text().splitlines()]
    assert {r["source_id"] for r in rows if r["role"] == "original"} == {1, 3}
    assert next(r for r in rows if r["text"] == "The bank raised interest rates.")["translation"] == "El banco tasas de interés criado."


@pytest.mark.parametrize(
    "args, message, code",
    [
        (["run", "--dataset", "sports"], "unknown dataset 'sports'; choose one of: business, news, politics", 2),
        (["run", "--dataset", "politics", "--translator", "systran"], "unknown translator 'systran'; choose one of: apertium, baidu, bing, ctranslate2, deepl, google, llm, m2m100, marian, nllb, openai, youdao", 2),
        (["run", "--dataset", "politics", "--translator", "apertium", "--target-lang", "fr"], "Debian packages no Apertium eng-fra pair", 3),
        (["run", "--dataset", "politics", "--translator", "marian", "--model", "no/such-model", "--target-lang", "es"], "--translator apertium, which works offline", 3),
        (["run", "--input", "missing.txt"], "does not exist", 2),
    ],
)
def test_errors_are_one_line_without_traceback(args, message, code):
    p = sit(*args, check=False)
    assert p.returncode == code, p.stderr
    assert message in p.stderr
    assert "Traceback" not in p.stderr
    assert len([l for l in p.stderr.splitlines() if l.startswith("sit: error")]) == 1


@pytest.mark.parametrize("data, message", [(b"", "has no sentences"), (b"ok\n\xff\xfe\n", "line 2 is not valid UTF-8")])
def test_bad_input_files(tmp_path, data, message):
    f = tmp_path / "bad.txt"
    f.write_bytes(data)
    p = sit("run", "--input", str(f), check=False)
    assert p.returncode == 2 and message in p.stderr and "Traceback" not in p.stderr


def test_help_imports_no_model_library():
    code = ("import sys; from sit.cli import build_parser; build_parser().format_help(); "
            "from sit.translators import TRANSLATORS; TRANSLATORS.entry('baidu'); "
            "from sit.engine import ENGINES; ENGINES.entry('ray'); "
            "build_parser().parse_args(['run', '--dataset', 'politics', '--engine', 'ray']); "
            "print(sorted(m for m in ('torch', 'transformers', 'spacy', 'stanza', 'ray', 'pyarrow') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_list_shows_every_registry():
    out = sit("list").stdout
    for name in ("politics", "apertium", "marian", "baidu", "wordnet", "mlm", "character_swap", "spacy", "stanza", "chrf"):
        assert name in out
    judges = out[out.index("judges:"):out.index("scorers:")]
    assert "  use " in judges and "  gemba-mqm " in judges
    relations = out[out.index("relations:"):out.index("perturbers:")].splitlines()[1:]
    marked = [line.split()[0] for line in relations if line.endswith("(a run's default)")]
    assert marked == sorted(["sit", "numbers", "passthrough", "case", "language", "spelling", "typography"])


@requires_apertium
def test_run_with_a_noise_perturber_and_its_options(tmp_path):
    out = tmp_path / "typos"
    sit("run", "--dataset", "business", "--limit", "3", "--perturber", "character_swap",
        "--perturber-option", "rate=0.3", "--num-perturb", "4", "--out", str(out))
    meta = json.loads((out / "run.json").read_text())
    assert meta["signature"]["perturber"] == "character_swap"
    assert meta["signature"]["perturber_options"]["rate"] == 0.3 and "rate:0.3" in meta["signature_line"]
    pairs = [json.loads(line) for line in (out / "pairs.jsonl").read_text().splitlines()]
    pairs = [p for p in pairs if p["relation"] == "sit"]  # the noise perturber's: sit's cases
    assert 0 < len(pairs) <= 12 and all(p["perturbed"] != p["original"] for p in pairs)
    bad = sit("run", "--dataset", "business", "--perturber", "character_swap", "--perturber-option", "bogus=1", check=False)
    assert bad.returncode == 2 and "has no option 'bogus'" in bad.stderr


def test_every_model_loader_names_the_one_torch_install_hint_without_torch():
    """In a fresh interpreter where `import torch` fails, the masked LM, the Marian translator, the
    seq2seq summarizer and the registries' lazy entries all give registry.TORCH_INSTALL_HINT."""
    code = """
import sys
sys.modules["torch"] = None  # import torch now raises ImportError
from sit.errors import MissingDependencyError
from sit.registry import TORCH_INSTALL_HINT
from sit.perturb.mlm import MaskedLMPerturber
from sit.models import import_transformers
seq2seq = lambda: import_transformers("a transformers summarizer")
from sit.translators import TRANSLATORS
messages = []
import os, tempfile
local = tempfile.mkdtemp()  # a local model directory: the location check passes, the import fails
open(os.path.join(local, "config.json"), "w").write("{}")
mlm = lambda: MaskedLMPerturber(model=local).load()
for load in (mlm, seq2seq, lambda: TRANSLATORS.create("marian", model=local, target_lang="zh").load()):
    try:
        load()
    except MissingDependencyError as exc:
        messages.append(str(exc))
print(len(messages), all(TORCH_INSTALL_HINT in m for m in messages), messages[0].count(TORCH_INSTALL_HINT))
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.stdout.split() == ["3", "True", "1"], proc.stdout + proc.stderr


# -- the sit command's process (sit.cli.console) --------------------------------------------------

def _console(prelude: str, *args: str, env=None):
    """``console()`` with sys.argv = ["sit", *args], after ``prelude`` ran in the same process."""
    code = f"import sys\n{prelude}\nsys.argv = ['sit', *{list(args)!r}]\nfrom sit.cli import console\nconsole()\n"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, **(env or {})})


def test_console_output_is_whole_when_the_process_leaves_at_once(capsys):
    from sit.cli import main

    assert main(["list"]) == 0
    expected = capsys.readouterr().out
    p = subprocess.run([sys.executable, "-m", "sit.cli", "list"], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and p.stdout == expected and len(expected.splitlines()) > 20


def test_console_runs_exit_functions_and_keeps_the_exit_code():
    p = _console("import atexit\natexit.register(print, 'exit function ran')", "run", "--input", "missing.txt")
    assert p.returncode == 2 and "does not exist" in p.stderr
    assert p.stdout.strip() == "exit function ran"


def test_console_waits_for_a_thread_that_is_not_a_daemon():
    # such a thread must finish: the process then ends Python's own way, after it. The thread waits
    # for the main thread to end (at interpreter shutdown), not for a time, so load cannot reorder it
    prelude = ("import threading\n"
               "threading.Thread(target=lambda: (threading.main_thread().join(), print('thread finished', flush=True)))"
               ".start()")
    p = _console(prelude, "list")
    assert p.returncode == 0 and p.stdout.rstrip().endswith("thread finished"), p.stdout[-300:]


@pytest.mark.parametrize("env, policy", [({}, "PASSIVE"), ({"OMP_WAIT_POLICY": "ACTIVE"}, "ACTIVE")])
def test_tune_process_lets_openmp_threads_sleep_unless_the_environment_says(env, policy):
    code = ("import gc, os; from sit.cli import tune_process; tune_process(); "
            "print(os.environ['OMP_WAIT_POLICY'], gc.get_threshold()[2])")
    base = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**base, **env}).stdout.split()
    assert out == [policy, "100"]


@requires_apertium
@requires_torch
def test_no_progress_silences_the_model_libraries_bars_too(tmp_path):
    """The quality filter's sentence encoder loads through transformers, whose "Loading weights"
    bar used to appear under --no-progress."""
    p = subprocess.run([sys.executable, "-m", "sit.cli", "run", "--dataset", "politics", "--limit", "2", "--relation",
                        "sit", "--perturber", "wordnet", "--out", str(tmp_path / "run"), "--cache-dir",
                        str(tmp_path / "cache"), "--no-progress"], capture_output=True, text=True, timeout=300,
                       env={k: v for k, v in os.environ.items() if k != "HF_HUB_DISABLE_PROGRESS_BARS"})
    assert p.returncode == 0, p.stderr
    meta = json.loads((tmp_path / "run" / "run.json").read_text(encoding="utf-8"))
    assert "similarity >=" in meta["perturber_reason"]  # the encoder was loaded and used
    assert "Loading weights" not in p.stderr and "it/s]" not in p.stderr, p.stderr


def test_case_options_default_to_run_configs_and_are_the_ones_run_json_records():
    # the options --baseline takes from run.json are the ones the pipeline records there, and left
    # out they are RunConfig's own defaults (no second copy of a default to drift)
    from sit.cli import build_parser
    from sit.commands.run import CASE_ARGS, config_from_args
    from sit.pipeline import CASE_OPTIONS, RunConfig

    assert set(CASE_ARGS) == set(CASE_OPTIONS)
    args = build_parser().parse_args(["run", "--dataset", "news"])
    config = config_from_args(args)
    plain = RunConfig(dataset="news")
    assert {f: getattr(config, f) for f in CASE_OPTIONS} == {f: getattr(plain, f) for f in CASE_OPTIONS}
    args = build_parser().parse_args(["run", "--dataset", "news", "--relation", "rti,sit", "--num-perturb", "4",
                                      "--perturber-option", "per_slot=2", "--relation-option", "rti.compare=all-words"])
    config = config_from_args(args)
    assert (config.relations, config.num_perturb, config.perturber_options, config.relation_options) == (
        ("rti", "sit"), 4, {"per_slot": 2}, {"rti": {"compare": "all-words"}})
    assert config.options == {"num_perturb": 4}  # an old flag lands where --set puts it
    args = build_parser().parse_args(["run", "--dataset", "news", "--set", "num_perturb=4", "--no-discount-substitute",
                                      "--set", "distance=head-relation"])
    config = config_from_args(args)
    assert config.options == {"num_perturb": 4, "discount": False, "distance": "head-relation"}
    assert (config.num_perturb, config.discount, config.distance, config.mlm_model) == (
        4, False, "head-relation", "bert-base-uncased")
    args = build_parser().parse_args(["run", "--dataset", "news", "--num-perturb", "4", "--set", "num_perturb=5"])
    with pytest.raises(ConfigError, match="--num-perturb and --set num_perturb say two things"):
        config_from_args(args)


@requires_apertium
def test_a_baseline_whose_run_json_records_the_old_fields_runs_on_their_values(tmp_path):
    # a run.json of before --set records num_perturb, mlm_model, distance and discount as fields
    # of their own in its config: a --baseline run takes them as run-wide options
    base, again = tmp_path / "base", tmp_path / "again"
    sit("run", "--dataset", "business", "--limit", "3", "--perturber", "character_swap", "--num-perturb", "2",
        "--distance", "head-relation", "--relation", "sit", "--cache-dir", str(tmp_path / "cache"), "--out", str(base))
    meta = json.loads((base / "run.json").read_text())
    assert meta["config"]["options"] == {"mlm_model": "bert-base-uncased", "num_perturb": 2,
                                         "distance": "head-relation", "discount": True}
    meta["config"].update(meta["config"].pop("options"))  # the shape main's code wrote
    (base / "run.json").write_text(json.dumps(meta), encoding="utf-8")
    sit("run", "--baseline", str(base), "--cache-dir", str(tmp_path / "cache"), "--out", str(again))
    meta = json.loads((again / "run.json").read_text())
    assert meta["config"]["options"]["distance"] == "head-relation"
    # each in the block of the component that takes it
    assert meta["signature"]["perturber_options"]["num_perturb"] == 2 and "num_perturb" not in meta["signature"]
    assert meta["signature"]["relations"]["sit"]["distance"] == "head-relation" and "distance" not in meta["signature"]
    assert "|pert.num_perturb:2|" in meta["signature_line"] and "|rel.sit.distance:head-relation|" in meta["signature_line"]
