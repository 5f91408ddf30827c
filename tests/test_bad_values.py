"""Values that are not finite or not valid get a one-line error naming the option, before any
work, never a traceback or a silent default (issue 11, fault 7)."""

from __future__ import annotations

import pytest
from fakes.fixtures import _no_real_credentials  # noqa: F401 (fixture)
from fakes.providers import BING_KEY

from sit.cli import main


@pytest.fixture
def corpus(tmp_path):
    f = tmp_path / "in.txt"
    f.write_text("The bank raised interest rates.\n")
    return f


def one_error(capsys) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err
    errors = [line for line in err.splitlines() if "error:" in line]
    assert len(errors) == 1, err
    return errors[0]


@pytest.mark.parametrize("option, env, names", [
    (["--timeout", "nan"], {}, "--timeout"),
    (["--timeout", "inf"], {}, "--timeout"),
    (["--timeout", "0"], {}, "--timeout"),
    (["--qps", "nan"], {}, "--qps"),
    (["--qps", "inf"], {}, "--qps"),
    ([], {"SIT_HTTP_BACKOFF": "inf"}, "SIT_HTTP_BACKOFF"),
    ([], {"SIT_HTTP_BACKOFF": "nan"}, "SIT_HTTP_BACKOFF"),
    ([], {"SIT_HTTP_MAX_RETRIES": "2.5"}, "SIT_HTTP_MAX_RETRIES"),
    ([], {"SIT_BING_ENDPOINT": "http://[::1/translate"}, "SIT_BING_ENDPOINT"),
    ([], {"SIT_BING_ENDPOINT": "http://127.0.0.1:99999/translate"}, "SIT_BING_ENDPOINT"),
    ([], {"SIT_BING_ENDPOINT": "http://exa mple.com/translate"}, "SIT_BING_ENDPOINT"),
    ([], {"SIT_BING_KEY": "bingkey\u2026copied"}, "SIT_BING_KEY"),
    ([], {"SIT_BING_KEY": "bingkey\u200b0c9e"}, "SIT_BING_KEY"),
], ids=lambda v: str(v))
def test_sit_run_refuses_invalid_values_before_any_work(tmp_path, corpus, monkeypatch, capsys, option, env, names):
    monkeypatch.setenv("SIT_BING_KEY", BING_KEY)
    monkeypatch.setenv("SIT_BING_ENDPOINT", "http://127.0.0.1:9/translate")
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    code = main(["run", "--input", str(corpus), "--translator", "bing", "--perturber", "wordnet", "--cache-dir",
                 str(tmp_path / "cache"), "--out", str(tmp_path / "run"), "--no-progress", *option])
    assert code == 2
    line = one_error(capsys)
    assert names in line
    assert "copied" not in line and "0c9e" not in line  # a credential is never shown
    assert not (tmp_path / "run").exists() and not (tmp_path / "cache").exists()


@pytest.mark.parametrize("option, rule", [
    (["--top-k", "-1"], "--top-k must be an integer of at least 0 (0 keeps all), not -1"),
    (["--num-perturb", "0"], "--num-perturb must be an integer of at least 1, not 0"),
    (["--num-perturb", "-3"], "--num-perturb must be an integer of at least 1, not -3"),
    (["--threshold", "nan"], "--threshold must be a finite number, not nan"),
    (["--threshold", "inf"], "--threshold must be a finite number, not inf"),
    (["--batch-size", "0"], "--batch-size must be an integer of at least 1, not 0"),
    (["--batch-size", "-2"], "--batch-size must be an integer of at least 1, not -2"),
    (["--limit", "0"], "--limit must be an integer of at least 1, not 0"),
    (["--limit", "-1"], "--limit must be an integer of at least 1, not -1"),
    (["--max-line-chars", "0"], "--max-line-chars must be an integer of at least 1, not 0"),
    (["--qps", "0"], "--qps must be a finite number above 0 (requests per second), not 0.0"),
    (["--qps", "-1"], "--qps must be a finite number above 0 (requests per second), not -1.0"),
    (["--timeout", "-1"], "--timeout must be a finite number above 0 (seconds per request), not -1.0"),
    (["--timeout", "inf"], "--timeout must be a finite number above 0 (seconds per request), not inf"),
], ids=lambda v: " ".join(v) if isinstance(v, list) else None)
def test_sit_run_numbers_go_through_the_one_check_before_any_work(tmp_path, corpus, capsys, option, rule):
    """The offline default translator (which ignores --qps and --timeout) refuses them all the same:
    exit 2, one line, no run directory, no cache."""
    code = main(["run", "--input", str(corpus), "--perturber", "wordnet", "--cache-dir", str(tmp_path / "cache"),
                 "--out", str(tmp_path / "run"), "--no-progress", *option])
    assert code == 2
    assert one_error(capsys) == f"sit: error: {rule}"
    assert not (tmp_path / "run").exists() and not (tmp_path / "cache").exists()


def test_run_config_numbers_are_checked_for_python_callers_too(tmp_path):
    from sit.errors import ConfigError
    from sit.pipeline import RunConfig, checked_numbers, run

    with pytest.raises(ConfigError, match=r"^--top-k must be an integer of at least 0 \(0 keeps all\), not 2.5$"):
        run(RunConfig(dataset="politics", top_k=2.5, out=str(tmp_path / "run")))
    assert not (tmp_path / "run").exists()
    ok = checked_numbers(RunConfig(dataset="politics", top_k="4", limit=2.0, threshold="0.5"))
    assert (ok.top_k, ok.limit, ok.threshold) == (4, 2, 0.5) and type(ok.limit) is int


@pytest.mark.parametrize("option, names", [
    (["--success-threshold", "nan"], "--success-threshold"),
    (["--success-threshold", "inf"], "--success-threshold"),
    (["--scale", "0"], "--scale"),
    (["--scale", "nan"], "--scale"),
    (["--jobs", "-2"], "--jobs"),
    (["--jobs", "0"], "--jobs"),
], ids=lambda v: str(v))
def test_sit_eval_refuses_invalid_values(tmp_path, capsys, option, names):
    (tmp_path / "a.txt").write_text("the cat sat\n")
    (tmp_path / "b.txt").write_text("the cat sits\n")
    code = main(["eval", "--src", str(tmp_path / "a.txt"), "--adv-src", str(tmp_path / "b.txt"), *option])
    assert code == 2
    line = one_error(capsys)
    assert names in line and ("finite" in line or "at least" in line)
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize("option, rule", [
    (["--size", "0"], "--size must be an integer of at least 1, not 0"),
    (["--size", "-1"], "--size must be an integer of at least 1, not -1"),
    (["--batch-size", "0"], "--batch-size must be an integer of at least 1, not 0"),
    (["--lead-threshold", "nan"], "--lead-threshold must be a finite number of at least 0 (chrF, 0-100), not nan"),
    (["--lead-threshold", "-5"], "--lead-threshold must be a finite number of at least 0 (chrF, 0-100), not -5.0"),
], ids=lambda v: " ".join(v) if isinstance(v, list) else None)
def test_sit_summarize_numbers_go_through_the_one_check(tmp_path, capsys, option, rule):
    out = tmp_path / "out.jsonl"
    code = main(["summarize", "--input", "lead_docs", "--perturber", "sentence_reorder", "--no-progress",
                 "--cache-dir", str(tmp_path / "cache"), "--output", str(out), *option])
    assert code == 2
    assert one_error(capsys) == f"sit: error: {rule}"
    assert not out.exists()


def test_seq2seq_generation_numbers_are_checked_when_the_summarizer_is_made():
    from sit.errors import ConfigError
    from sit.summarize import SUMMARIZERS

    with pytest.raises(ConfigError, match="^--num-beams must be an integer of at least 1, not 0$"):
        SUMMARIZERS.create("seq2seq", model="unused", num_beams=0)
    with pytest.raises(ConfigError, match="^--max-new-tokens must be an integer of at least 1, not -1$"):
        SUMMARIZERS.create("seq2seq", model="unused", max_new_tokens=-1)
