"""The shared HTTP base of the cloud adapters: rate limiter, Retry-After, backoff, credentials,
endpoints and options; and the request signatures against the providers' documented examples."""

from __future__ import annotations

import random
import threading
from email.utils import formatdate

import pytest
from fakes.fixtures import FakeClock, _no_real_credentials  # noqa: F401 (fixture)

from sit.errors import ConfigError, MissingCredentialsError
from sit.translators import TRANSLATORS, get_translator
from sit.translators.baidu import baidu_sign
from sit.translators.http import RateLimiter, parse_retry_after
from sit.translators.youdao import youdao_input, youdao_sign

ENV = {
    "google": {"SIT_GOOGLE_API_KEY": "g-key-1234"},
    "bing": {"SIT_BING_KEY": "b-key-1234"},
    "baidu": {"SIT_BAIDU_APPID": "2015063000000001", "SIT_BAIDU_SECRET": "12345678"},
    "youdao": {"SIT_YOUDAO_APPKEY": "yd-app-1234", "SIT_YOUDAO_SECRET": "yd-secret-1234"},
}


# -- rate limiter ---------------------------------------------------------------------------------
@pytest.mark.parametrize("qps, n, expected_total", [(4.0, 9, 2.0), (1.0, 3, 2.0), (0.5, 3, 4.0)])
def test_rate_limiter_spaces_a_burst_by_one_over_qps(qps, n, expected_total):
    clock = FakeClock()
    limiter = RateLimiter(qps, clock=clock, sleep=clock.sleep)
    slots = [limiter.acquire() for _ in range(n)]
    assert [b - a for a, b in zip(slots, slots[1:])] == pytest.approx([1 / qps] * (n - 1))
    assert clock.now - 1000.0 == pytest.approx(expected_total)


def test_rate_limiter_does_not_wait_after_idle_time_and_none_means_unlimited():
    clock = FakeClock()
    limiter = RateLimiter(2.0, clock=clock, sleep=clock.sleep)
    limiter.acquire()
    clock.now += 10  # idle: the next request goes at once
    limiter.acquire()
    assert clock.sleeps == []
    free = RateLimiter(None, clock=clock, sleep=clock.sleep)
    for _ in range(5):
        free.acquire()
    assert clock.sleeps == []


def test_rate_limiter_is_thread_safe():
    """8 threads x 25 acquisitions at the same instant get 200 distinct slots 1/qps apart."""
    limiter = RateLimiter(10.0, clock=lambda: 5.0, sleep=lambda s: None)
    slots: list[float] = []
    lock = threading.Lock()

    def worker():
        mine = [limiter.acquire() for _ in range(25)]
        with lock:
            slots.extend(mine)

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(slots) == pytest.approx([5.0 + i / 10 for i in range(200)])


@pytest.mark.parametrize("qps", [0, -1.0])
def test_qps_must_be_positive(qps):
    with pytest.raises(ConfigError, match="--qps must be a finite number above 0"):
        RateLimiter(qps)


# -- Retry-After and backoff ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "value, expected",
    [("5", 5.0), ("0", 0.0), (" 2.5 ", 2.5), ("-3", 0.0), (None, None), ("soon", None), ("nan", None),
     (formatdate(1_000_030, usegmt=True), 30.0), (formatdate(999_990, usegmt=True), 0.0)],
)
def test_parse_retry_after(value, expected):
    assert parse_retry_after(value, now=1_000_000) == expected


def test_backoff_grows_exponentially_with_jitter_and_is_capped():
    tr = get_translator("bing", env=ENV["bing"], rng=random.Random(1), backoff=1.0, backoff_max=8.0)
    for attempt, cap in enumerate([1, 2, 4, 8, 8, 8]):
        delays = [tr._delay(attempt, None) for _ in range(200)]
        assert all(cap / 2 <= d <= cap for d in delays)
        assert max(delays) - min(delays) > cap / 4  # jittered, not a constant
    assert 7.0 <= tr._delay(3, 7.0) <= 8.0  # Retry-After wins, plus at most a second of jitter
    assert tr._delay(0, 301.0) is None  # longer than max_retry_after: give up instead


def test_the_same_seed_gives_the_same_backoff():
    a = get_translator("bing", env=ENV["bing"], rng=random.Random(7))
    b = get_translator("bing", env=ENV["bing"], rng=random.Random(7))
    assert [a._delay(i, None) for i in range(5)] == [b._delay(i, None) for i in range(5)]


# -- credentials -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "name, variables",
    [("google", "SIT_GOOGLE_API_KEY"), ("bing", "SIT_BING_KEY"), ("baidu", "SIT_BAIDU_APPID and SIT_BAIDU_SECRET"),
     ("youdao", "SIT_YOUDAO_APPKEY and SIT_YOUDAO_SECRET")],
)
def test_missing_credentials_is_one_line_naming_the_variables(name, variables, tmp_path):
    with pytest.raises(MissingCredentialsError) as err:
        get_translator(name, env={"XDG_CONFIG_HOME": str(tmp_path)})
    msg = str(err.value)
    assert f"the {name} translator needs credentials: set {variables} " in msg
    assert str(tmp_path / "sit" / "credentials.toml") in msg and "\n" not in msg
    assert err.value.exit_code == 3


def test_one_missing_variable_is_named_alone(tmp_path):
    with pytest.raises(MissingCredentialsError, match=r"set SIT_BAIDU_SECRET \(or secret under \[baidu\]"):
        get_translator("baidu", env={"SIT_BAIDU_APPID": "123456", "XDG_CONFIG_HOME": str(tmp_path)})


def _write_config(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(0o600)
    return path


@pytest.mark.parametrize(
    "file_text, env, expected",
    [
        ('[baidu]\nappid = "111111"\nsecret = "file-secret"\n', {}, ("111111", "file-secret")),
        ('[baidu]\nappid = 111111\nsecret = "file-secret"\n', {"SIT_BAIDU_SECRET": "env-secret"}, ("111111", "env-secret")),
        ('[baidu]\nsecret = "file-secret"\n', {"SIT_BAIDU_APPID": "222222"}, ("222222", "file-secret")),
    ],
    ids=["file only", "environment wins", "mixed"],
)
def test_credentials_from_the_config_file(tmp_path, file_text, env, expected):
    cfg = _write_config(tmp_path / "creds.toml", file_text)
    tr = get_translator("baidu", env={"SIT_CONFIG": str(cfg), **env})
    assert (tr.credential("appid"), tr.credential("secret")) == expected


@pytest.mark.parametrize("text, ok", [('[baidu]\nappid = "111111"\nsecret = "s-0001"\n', True), ("[baidu\n", False)])
def test_the_config_file_reads_without_tomllib_as_on_python_3_10(tmp_path, monkeypatch, text, ok):
    """Python 3.10 (declared supported) has no tomllib: tomli, its published twin, reads the file."""
    import sys

    pytest.importorskip("tomli", reason="tomli is in the test extra: pip install -e .[test]")
    monkeypatch.setitem(sys.modules, "tomllib", None)  # import tomllib now fails, as on 3.10
    cfg = _write_config(tmp_path / "creds.toml", text)
    if ok:
        assert get_translator("baidu", env={"SIT_CONFIG": str(cfg)}).credential("secret") == "s-0001"
    else:
        with pytest.raises(ConfigError, match="is not valid TOML"):
            get_translator("baidu", env={"SIT_CONFIG": str(cfg)})


def test_the_package_declares_tomli_for_every_python_it_supports_without_tomllib():
    import tomllib
    from pathlib import Path

    project = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())["project"]
    assert project["requires-python"] == ">=3.10"
    assert any(d.replace(" ", "").startswith("tomli>=") and "python_version<'3.11'" in d.replace(" ", "")
               for d in project["dependencies"])


def test_config_file_path_is_resolved_at_call_time(tmp_path, monkeypatch):
    _write_config(tmp_path / "xdg2" / "sit" / "credentials.toml", '[youdao]\nappkey = "ak-0001"\nsecret = "sk-0001"\n')
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg2"))
    assert get_translator("youdao").credential("appkey") == "ak-0001"


def test_config_file_may_set_the_endpoint(tmp_path):
    cfg = _write_config(tmp_path / "c.toml", '[bing]\nkey = "k-0001"\nendpoint = "https://proxy.example/translate"\n')
    assert get_translator("bing", env={"SIT_CONFIG": str(cfg)}).endpoint == "https://proxy.example/translate"


@pytest.mark.parametrize(
    "file_text, message",
    [('[baidu\nsecret = "s3cr3t-value"', "is not valid TOML"), ('baidu = "s3cr3t-value"', "must be a table")],
)
def test_a_broken_config_file_is_named_without_its_content(tmp_path, file_text, message):
    cfg = _write_config(tmp_path / "c.toml", file_text)
    with pytest.raises(ConfigError) as err:
        get_translator("baidu", env={"SIT_CONFIG": str(cfg)})
    assert message in str(err.value) and str(cfg) in str(err.value) and "s3cr3t" not in str(err.value)


def test_an_explicit_config_path_that_does_not_exist_is_an_error(tmp_path):
    with pytest.raises(ConfigError, match="SIT_CONFIG names .* which does not exist"):
        get_translator("baidu", env={"SIT_CONFIG": str(tmp_path / "nope.toml")})


def test_a_world_readable_config_file_is_warned_about(tmp_path, caplog):
    cfg = _write_config(tmp_path / "c.toml", '[google]\napi_key = "g-0001"\n')
    cfg.chmod(0o644)
    get_translator("google", env={"SIT_CONFIG": str(cfg)})
    assert "readable by other users" in caplog.text and "g-0001" not in caplog.text


# -- endpoints and options --------------------------------------------------------------------
@pytest.mark.parametrize(
    "name, default",
    [("google", "https://translation.googleapis.com/language/translate/v2"),
     ("bing", "https://api.cognitive.microsofttranslator.com/translate"),
     ("baidu", "https://fanyi-api.baidu.com/api/trans/vip/translate"),
     ("youdao", "https://openapi.youdao.com/api")],
)
def test_endpoints_default_and_override(name, default):
    assert get_translator(name, env=ENV[name]).endpoint == default
    var = f"SIT_{name.upper()}_ENDPOINT"
    assert get_translator(name, env={**ENV[name], var: "http://127.0.0.1:8080/x"}).endpoint == "http://127.0.0.1:8080/x"
    with pytest.raises(ConfigError, match=f"{var} must be an http"):
        get_translator(name, env={**ENV[name], var: "ftp://example.com"})


@pytest.mark.parametrize(
    "name, kwargs, message",
    [("baidu", {"model": "medicine"}, "has no models"), ("youdao", {"model": "x"}, "has no models"),
     ("google", {"timeout": 0}, "--timeout must be a finite number above 0"),
     ("bing", {"qps": -2}, "--qps must be a finite number above 0")],
)
def test_bad_options_are_config_errors(name, kwargs, message):
    with pytest.raises(ConfigError, match=message):
        get_translator(name, env=ENV[name], **kwargs)


def test_retry_settings_from_the_environment():
    tr = get_translator("google", env={**ENV["google"], "SIT_HTTP_MAX_RETRIES": "2", "SIT_HTTP_BACKOFF": "0.25"})
    assert (tr.max_retries, tr.backoff) == (2, 0.25)
    with pytest.raises(ConfigError, match="SIT_HTTP_MAX_RETRIES must be an integer"):
        get_translator("google", env={**ENV["google"], "SIT_HTTP_MAX_RETRIES": "many"})


@pytest.mark.parametrize("name", ["google", "bing", "baidu", "youdao"])
def test_signature_keys_the_cache_without_credentials(name):
    tr = get_translator(name, env=ENV[name])
    sig = tr.signature()
    assert sig["name"] == name and sig["version"] and set(sig) == {"name", "model", "version", "source_lang", "target_lang"}
    assert not any(v in repr(sig) + repr(tr) for v in ENV[name].values())
    assert TRANSLATORS.entry(name).target.endswith(f"{name}:{name.capitalize()}Translator")


# -- signatures, against the providers' documented examples ------------------------------------
def test_baidu_sign_matches_the_documented_example():
    # Baidu's documentation: appid 2015063000000001, q "apple", salt 1435660288, key 12345678
    assert baidu_sign("2015063000000001", "apple", "1435660288", "12345678") == "f89f9594663708c1605f3d736d01d2d4"


@pytest.mark.parametrize(
    "q, expected",
    [("short text", "short text"), ("x" * 20, "x" * 20), ("abcdefghij" + "-" * 5 + "0123456789", "abcdefghij250123456789"),
     ("这是一个很长的中文句子用来测试截断规则是否正确", "这是一个很长的中文句23测试截断规则是否正确")],
)
def test_youdao_input_truncation(q, expected):
    assert youdao_input(q) == expected


def test_youdao_sign_is_sha256_of_the_documented_concatenation():
    import hashlib

    q = "The senate rejected the proposal yesterday."
    want = hashlib.sha256(("app" + "The senate" + "43" + "yesterday." + "salt" + "1700000000" + "sec").encode()).hexdigest()
    assert youdao_sign("app", q, "salt", "1700000000", "sec") == want


# -- deadlines and bodies cut short (real sockets on 127.0.0.1) -----------------------------------
GOOGLE_ANSWER = b'{"data": {"translations": [{"translatedText": "El banco."}]}}'


def test_a_server_that_trickles_its_answer_is_cut_off_near_the_timeout():
    """1 byte a second: every read is within --timeout, the whole answer never is."""
    import time

    from fakes.raw import RawServer, trickle

    from sit.errors import ProviderError

    server = RawServer([trickle(GOOGLE_ANSWER, 1.0, stop=30.0)])
    try:
        tr = get_translator("google", env={**ENV["google"], "SIT_GOOGLE_ENDPOINT": server.url}, timeout=2.0,
                            max_retries=0)
        start = time.monotonic()
        with pytest.raises(ProviderError, match=r"within 2 s \(--timeout\)"):
            tr.translate(["The bank."])
        assert time.monotonic() - start < 6.0  # was 60 s: the time the whole body takes
    finally:
        server.close()


def test_a_chunked_body_cut_short_is_retried():
    from fakes.raw import RawServer, chunked_cut_short, whole

    server = RawServer([chunked_cut_short(GOOGLE_ANSWER), whole(GOOGLE_ANSWER)])
    clock = FakeClock()
    try:
        tr = get_translator("google", env={**ENV["google"], "SIT_GOOGLE_ENDPOINT": server.url}, max_retries=1,
                            clock=clock, sleep=clock.sleep, rng=random.Random(0))
        assert tr.translate(["The bank."]) == ["El banco."]
        assert server.connections == 2 and tr.retries == 1
    finally:
        server.close()
