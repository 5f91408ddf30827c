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
