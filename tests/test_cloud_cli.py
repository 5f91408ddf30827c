"""`sit run --translator google|bing|baidu|youdao|openai|deepl` end to end against the fake providers:
real translations (Apertium inside the fake where installed), resume after a mid-run failure
with no repeated call, the rate limit held, secrets absent from every file the run wrote."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from fakes import AUTH, QUOTA, apertium_translate, dictionary_translate, have_apertium
from fakes.fixtures import _no_real_credentials, serve  # noqa: F401 (fixtures)
from fakes.llm import DEEPL_KEY, OPENAI_KEY
from fakes.providers import (
    BAIDU_APPID, BAIDU_SECRET, BING_KEY, GOOGLE_KEY, YOUDAO_APPKEY, YOUDAO_SECRET,
)

from sit.cli import main

PROVIDERS = ["google", "bing", "baidu", "youdao", "openai", "deepl"]
SECRETS = [GOOGLE_KEY, BING_KEY, BAIDU_APPID, BAIDU_SECRET, YOUDAO_APPKEY, YOUDAO_SECRET, OPENAI_KEY, DEEPL_KEY]
ONE_TEXT_A_REQUEST = ("youdao", "openai")
SENTENCES = ["The senator rejected the new budget proposal.", "The bank raised interest rates."]
TRANSLATE = apertium_translate if have_apertium() else dictionary_translate


@pytest.fixture
def corpus(tmp_path) -> Path:
    f = tmp_path / "in.txt"
    f.write_text("\n".join(SENTENCES) + "\n")
    return f


def sit_run(tmp_path, corpus, name, out, *extra):
    return main(["run", "--input", str(corpus), "--translator", name, "--target-lang", "es", "--perturber", "wordnet",
                 "--num-perturb", "3", "--perturber-option", "lm=none", "--cache-dir", str(tmp_path / "cache"), "--out", str(tmp_path / out),
                 "--no-progress", *(["--model", "qwen2.5:7b"] if name == "openai" else []), *extra])


def rows(run_dir: Path) -> list[dict]:
    return [json.loads(line) for line in (run_dir / "translations.jsonl").read_text().splitlines()]


def assert_no_secrets(tmp_path: Path, *texts: str) -> int:
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    for p in files:
        data = p.read_bytes()
        for secret in SECRETS:
            assert secret.encode() not in data, f"{secret} in {p}"
    for text in texts:
        for secret in SECRETS:
            assert secret not in text
    return len(files)


@pytest.mark.parametrize("name", PROVIDERS)
def test_sit_run_translates_through_the_provider(serve, name, tmp_path, corpus, monkeypatch, capsys, caplog):
    caplog.set_level(logging.DEBUG)
    fake = serve(name, translate=TRANSLATE, **({"target": "spa"} if name == "baidu" else {}))
    for k, v in fake.env().items():
        monkeypatch.setenv(k, v)
    assert sit_run(tmp_path, corpus, name, "run", "--qps", "200") == 0
    out = tmp_path / "run"
    meta = json.loads((out / "run.json").read_text())
    assert meta["signature"]["translator"] == name and meta["signature"]["target_lang"] == "es"
    c = meta["counts"]
    assert c["untranslated"] == 0 and c["translated"] == c["translations"] > len(SENTENCES)
    translations = rows(out)
    assert len(translations) == c["translations"]
    for row in translations:  # every text came back aligned with its own translation
        assert row["translation"] == TRANSLATE([row["text"]], "en", "es")[0]
    # each sent once, or twice where the order check could not place its first answer (docs/cloud.md)
    sent = Counter(fake.translated_texts)
    assert set(sent) == {r["text"] for r in translations} and max(sent.values()) <= 2
    if TRANSLATE is apertium_translate:
        assert next(r for r in translations if r["text"] == SENTENCES[1])["translation"] == "El banco tasas de interés criado."
    captured = capsys.readouterr()
    assert f"{c['translations']} texts to translate: {c['translated']} by the translator" in captured.err
    assert assert_no_secrets(tmp_path, captured.out, captured.err, caplog.text) >= 6


@pytest.mark.parametrize("name", PROVIDERS)
def test_sit_run_resumes_after_the_quota_runs_out_with_no_repeated_call(serve, name, tmp_path, corpus, monkeypatch, capsys):
    fake = serve(name, **({"target": "spa"} if name == "baidu" else {})).fail_from(3, QUOTA)
    for k, v in fake.env().items():
        monkeypatch.setenv(k, v)
    assert sit_run(tmp_path, corpus, name, "run1", "--batch-size", "4", "--qps", "200") == 6  # incomplete
    first = json.loads((tmp_path / "run1" / "run.json").read_text())["counts"]
    err = capsys.readouterr().err
    assert first["translated"] == (2 if name in ONE_TEXT_A_REQUEST else 8)  # two requests got through
    assert first["untranslated"] == first["translations"] - first["translated"] > 0
    assert f"sit: error: {first['untranslated']} of {first['translations']} text(s) were left untranslated" in err
    assert "run the same command again" in err and "Traceback" not in err
    assert sum(r["translation"] is None for r in rows(tmp_path / "run1")) == first["untranslated"]

    finished = {r["text"] for r in rows(tmp_path / "run1") if r["translation"] is not None}
    asked = len(fake.translated_texts)
    fake.heal()
    assert sit_run(tmp_path, corpus, name, "run2", "--batch-size", "4", "--qps", "200") == 0
    second = json.loads((tmp_path / "run2" / "run.json").read_text())["counts"]
    assert second["untranslated"] == 0 and second["cache_hits"] == first["translated"]
    assert second["translated"] == first["untranslated"]
    assert len(finished) == first["translated"] and not finished & set(fake.translated_texts[asked:])  # none paid twice
    # every text asked for, once, or twice where the order check's second look could not place its
    # first answer and asked again before caching it (docs/cloud.md)
    sent = Counter(fake.translated_texts)
    assert max(sent.values()) <= 2 and len(sent) == first["translations"]
    assert all(r["translation"] for r in rows(tmp_path / "run2"))
    assert_no_secrets(tmp_path)


def test_sit_run_holds_the_rate_limit(serve, tmp_path, corpus, monkeypatch):
    """Youdao takes one text per request: 20+ requests in a burst, --qps 10. The fake refuses any
    two requests closer than 1/40 s by its own (real) clock (a margin of 75 ms for the time a
    request takes to arrive on a loaded machine: at --qps 20 the margin of 25 ms was not enough
    under the test suite's two workers); the whole run cannot be faster than 10 per second.
    ``--jobs 1``: the fake serves in this process, so its clock reads an arrival only once its
    thread gets the interpreter lock; with early translation beside the perturber's Python work,
    that wait made two requests 100 ms apart arrive closer than 25 ms."""
    fake = serve("youdao", qps_limit=40.0)
    for k, v in fake.env().items():
        monkeypatch.setenv(k, v)
    monkeypatch.setenv("SIT_HTTP_MAX_RETRIES", "0")  # a refused request would show as untranslated
    start = time.monotonic()
    # the SIT paper's unfiltered candidates: enough texts for a burst of requests
    paper = [a for o in ("min_zipf=0", "grammar=false", "collocations=false", "usual_senses=false",
                                  "encoder=none", "per_slot=0") for a in ("--perturber-option", o)]
    assert sit_run(tmp_path, corpus, "youdao", "run", "--qps", "10", "--jobs", "1", *paper) == 0
    counts = json.loads((tmp_path / "run" / "run.json").read_text())["counts"]
    assert counts["untranslated"] == 0 and fake.too_fast == 0
    times = [c.t for c in fake.calls]
    assert len(times) == counts["translations"] >= 20
    assert min(b - a for a, b in zip(times, times[1:])) >= 1 / 40
    assert times[-1] - start >= (len(times) - 1) / 10 - 0.01


@pytest.mark.parametrize(
    "name, variables",
    [("google", "SIT_GOOGLE_API_KEY"), ("bing", "SIT_BING_KEY"), ("baidu", "SIT_BAIDU_APPID and SIT_BAIDU_SECRET"),
     ("youdao", "SIT_YOUDAO_APPKEY and SIT_YOUDAO_SECRET")],
)
def test_missing_credentials_stop_sit_run_before_any_work(name, variables, tmp_path, corpus, capsys):
    assert sit_run(tmp_path, corpus, name, "run") == 3
    err = capsys.readouterr().err
    errors = [line for line in err.splitlines() if line.startswith("sit: error:")]
    assert len(errors) == 1 and f"the {name} translator needs credentials: set {variables}" in errors[0]
    assert not (tmp_path / "run").exists() and not (tmp_path / "cache").exists()  # no work was done
    assert "Traceback" not in err


def test_sit_run_reports_wrong_credentials_without_a_traceback(serve, tmp_path, corpus, monkeypatch, capsys, caplog):
    fake = serve("baidu", target="spa")
    for k, v in {**fake.env(), "SIT_BAIDU_SECRET": "not-the-secret"}.items():
        monkeypatch.setenv(k, v)
    assert sit_run(tmp_path, corpus, "baidu", "run") == 6  # the run completes, counting what is left
    err = capsys.readouterr().err
    assert "error 54001 (Invalid Sign): invalid signature: check SIT_BAIDU_SECRET" in caplog.text
    assert len(fake.calls) == 1  # an auth error is never retried
    counts = json.loads((tmp_path / "run" / "run.json").read_text())["counts"]
    assert counts["translated"] == 0 and counts["untranslated"] == counts["translations"]
    assert "not-the-secret" not in err
    for p in tmp_path.rglob("*"):
        assert not p.is_file() or b"not-the-secret" not in p.read_bytes()


@pytest.mark.parametrize("name", PROVIDERS)
def test_a_run_that_leaves_texts_untranslated_writes_its_reports_then_exits_6(serve, name, tmp_path, corpus,
                                                                             monkeypatch, capsys):
    """A 401 (or the provider's own credentials error) leaves every text untranslated: "0 issues"
    must not look like a clean pass to a script."""
    fake = serve(name, **({"target": "spa"} if name == "baidu" else {})).fail_from(1, AUTH)
    for k, v in fake.env().items():
        monkeypatch.setenv(k, v)
    assert sit_run(tmp_path, corpus, name, "run") == 6
    captured = capsys.readouterr()
    out = tmp_path / "run"
    assert captured.out.strip() == str(out)  # the run directory, for scripts
    for f in ("run.json", "report.txt", "report.html", "translations.jsonl", "issues.jsonl"):
        assert (out / f).is_file()
    meta = json.loads((out / "run.json").read_text())
    assert meta["counts"]["translated"] == 0 and meta["counts"]["untranslated"] == meta["counts"]["translations"] > 0
    assert any(f"{name}: batch #1" in w for w in meta["warnings"])  # the reports say why
    errors = [line for line in captured.err.splitlines() if line.startswith("sit: error:")]
    assert len(errors) == 1 and "left untranslated" in errors[0] and "run the same command again" in errors[0]


def test_the_provider_error_of_an_incomplete_run_is_printed_once(serve, tmp_path, corpus):
    """In a real process, so that the log and the error line share its stderr."""
    fake = serve("bing").fail_from(1, AUTH)
    env = {**os.environ, **fake.env(), "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.run(
        [sys.executable, "-m", "sit.cli", "run", "--input", str(corpus), "--translator", "bing", "--target-lang", "es",
         "--perturber", "wordnet", "--num-perturb", "3", "--cache-dir", str(tmp_path / "cache"), "--out",
         str(tmp_path / "run"), "--no-progress"], env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 6, proc.stderr
    assert proc.stderr.count("HTTP 401 (401000)") == 1 and proc.stderr.count("sit: error:") == 1
    assert "Traceback" not in proc.stderr


def test_sit_run_help_documents_the_exit_codes(capsys):
    with pytest.raises(SystemExit):
        main(["run", "--help"])
    assert "6 the run finished but left texts untranslated" in " ".join(capsys.readouterr().out.split())


def test_credentials_and_query_strings_of_an_endpoint_are_never_printed_or_written(tmp_path, corpus, monkeypatch,
                                                                                   capsys, caplog):
    """A proxy's user:password@ and a ?key= in SIT_BING_ENDPOINT (plain http to a host that refuses:
    the plain-http warning and the connection error both name the endpoint)."""
    caplog.set_level(logging.DEBUG)
    monkeypatch.setenv("SIT_BING_KEY", BING_KEY)
    monkeypatch.setenv("SIT_BING_ENDPOINT", "http://proxyuser:proxyPASS4711@127.0.0.2:9/translate?key=queryKEY0815#frag")
    monkeypatch.setenv("SIT_HTTP_MAX_RETRIES", "0")
    assert sit_run(tmp_path, corpus, "bing", "run") == 6
    captured = capsys.readouterr()
    said = captured.out + captured.err + caplog.text
    assert "cannot reach http://127.0.0.2:9" in said and "plain http" in said  # the URL is still named
    files = [p for p in (tmp_path / "run").rglob("*") if p.is_file()]
    assert {"run.json", "report.txt", "report.html"} <= {p.name for p in files}
    assert "cannot reach http://127.0.0.2:9" in (tmp_path / "run" / "report.txt").read_text()
    for secret in ("proxyPASS4711", "queryKEY0815", "proxyuser"):
        assert secret not in said
        for p in files:
            assert secret.encode() not in p.read_bytes(), f"{secret} in {p}"


def test_an_invalid_endpoint_is_refused_without_showing_its_secrets(tmp_path, corpus, monkeypatch, capsys):
    monkeypatch.setenv("SIT_BING_KEY", BING_KEY)
    monkeypatch.setenv("SIT_BING_ENDPOINT", "ftp://proxyuser:proxyPASS4711@host/translate?key=queryKEY0815")
    assert sit_run(tmp_path, corpus, "bing", "run") == 2
    err = capsys.readouterr().err
    assert "SIT_BING_ENDPOINT must be an http(s) URL" in err
    assert "proxyPASS4711" not in err and "queryKEY0815" not in err


def test_openai_options_reach_the_signature_and_a_rerun_sends_nothing(serve, tmp_path, corpus, monkeypatch, capsys):
    fake = serve("openai", translate=TRANSLATE, latency=0.02)
    for k, v in fake.env().items():
        monkeypatch.setenv(k, v)
    prompt = tmp_path / "prompt.txt"
    prompt.write_text("Translate from {source} to {target}:\n\n{text}")
    opts = ["--translator-option", f"prompt={prompt}", "--translator-option", "temperature=0.2", "--concurrency", "4"]
    assert sit_run(tmp_path, corpus, "openai", "run1", *opts) == 0
    meta = json.loads((tmp_path / "run1" / "run.json").read_text())
    sig = meta["signature"]
    assert sig["translator_model"] == "qwen2.5:7b" and sig["translator_options"]["temperature"] == 0.2
    assert sig["translator_options"]["mode"] == "single" and len(sig["translator_options"]["prompt"]) == 12
    assert "|tr.temperature:0.2" in meta["signature_line"]
    assert fake.max_in_flight > 1 and len(fake.calls) == meta["counts"]["translated"]
    n = len(fake.calls)
    assert sit_run(tmp_path, corpus, "openai", "run2", *opts) == 0
    assert len(fake.calls) == n  # everything from the cache
    assert json.loads((tmp_path / "run2" / "run.json").read_text())["counts"]["cache_hits"] == n
    capsys.readouterr()
    assert sit_run(tmp_path, corpus, "openai", "run3", "--translator-option", "beams=2") == 2
    err = capsys.readouterr().err
    assert "sit: error: the openai translator has no option 'beams'; its options: prompt, temperature" in err
    assert_no_secrets(tmp_path)
