"""The four cloud adapters through real HTTP against fake providers that check every request
(method, path, headers, fields, signature recomputed from the secret) and answer in the
provider's own format, with scripted faults."""

from __future__ import annotations

import logging
from collections import Counter

import pytest
from fakes import (
    AUTH, MALFORMED, MISORDER, MISSING, QUOTA, REORDER, SERVER_ERROR, SHORT, UNAVAILABLE, code, dictionary_translate, rate, slow,
)
from fakes.fixtures import _no_real_credentials, clock, make, serve  # noqa: F401 (fixtures)
from fakes.providers import (
    BAIDU_APPID, BAIDU_SECRET, BING_KEY, GOOGLE_KEY, YOUDAO_APPKEY, YOUDAO_SECRET,
)

from sit.cache import Cache
from sit.errors import AuthError, ProviderError, RateLimitError, ResponseMismatchError, TranslationError

PROVIDERS = ["google", "bing", "baidu", "youdao"]
SECRETS = [GOOGLE_KEY, BING_KEY, BAIDU_APPID, BAIDU_SECRET, YOUDAO_APPKEY, YOUDAO_SECRET]
TEXTS = [
    "The senator rejected the new budget proposal.",
    "The bank raised interest rates.",
    "O'Neill says the court is small.",  # Google answers "O&#39;Neill": decoded
    "The government announced a plan.",
    "The president said it was a big vote.",
]


def _texts(n: int) -> list[str]:
    return [f"The senator {i} rejected the budget." for i in range(n)]


@pytest.mark.parametrize("name", PROVIDERS)
def test_translates_in_order_through_the_real_wire_format(serve, name, tmp_path):
    fake = serve(name)
    with make(fake, cache=Cache(tmp_path / "cache")) as tr:
        out = tr.translate(TEXTS + [TEXTS[0], "   "])
    assert out == dictionary_translate(TEXTS, "en", "es") + [out[0], "   "]
    assert out[2] == "O'Neill dice el tribunal es pequeño."
    assert sorted(fake.translated_texts) == sorted(TEXTS)  # duplicates and blanks never sent
    assert len(fake.calls) == (5 if name == "youdao" else 1)


@pytest.mark.parametrize(
    "name, target, provider_code",
    [("google", "zh", "zh-CN"), ("bing", "zh", "zh-Hans"), ("baidu", "zh", "zh"), ("youdao", "zh", "zh-CHS"),
     ("baidu", "es", "spa"), ("baidu", "ja", "jp"), ("bing", "zh-TW", "zh-Hant"), ("youdao", "zh-TW", "zh-CHT")],
)
def test_language_codes_are_mapped_per_provider(serve, name, target, provider_code):
    fake = serve(name, target=provider_code)  # the fake refuses any other code
    assert make(fake, target=target).translate(["The bank."]) == ["El banco."]


@pytest.mark.parametrize(
    "name, n, size, expected_requests, batch_size",
    [
        ("google", 300, 20, [64, 64, 64, 64, 44], None),  # default batches of 64
        ("google", 300, 20, [128, 128, 44], 500),  # never more than 128 q per request
        ("bing", 10, 12_000, [4, 4, 2], None),  # 50,000 characters per request
        ("bing", 1500, 8, [1000, 500], 5000),  # 1,000 elements per request
        ("baidu", 12, 1_900, [3, 3, 3, 3], None),  # 6,000 bytes per q (newlines count)
        ("youdao", 3, 10, [1, 1, 1], 50),  # one q per request whatever --batch-size says
    ],
)
def test_requests_stay_within_each_api_limits(serve, name, n, size, expected_requests, batch_size):
    fake = serve(name)
    texts = [f"{i:05d} " + "x" * (size - 6) for i in range(n)]
    out = make(fake, batch_size=batch_size).translate(texts)
    assert out == texts  # the dictionary keeps unknown words
    assert [len(c.texts) for c in fake.calls] == expected_requests


@pytest.mark.parametrize("name", PROVIDERS)
def test_a_second_run_is_served_from_the_cache(serve, name, tmp_path):
    fake = serve(name)
    first = make(fake, cache=Cache(tmp_path / "c")).translate(TEXTS)
    calls = len(fake.calls)
    again = make(fake, cache=Cache(tmp_path / "c"))
    assert again.translate(TEXTS) == first
    assert len(fake.calls) == calls and again.stats.cache_hits == len(TEXTS)


# -- faults -----------------------------------------------------------------------------------------
RECOVERABLE = [
    ("rate limited with Retry-After", rate("2")),
    ("HTTP 500", SERVER_ERROR),
    ("HTTP 503", UNAVAILABLE),
    ("invalid JSON", MALFORMED),
    ("slower than the timeout", slow(0.6)),
]


@pytest.mark.parametrize("name", PROVIDERS)
@pytest.mark.parametrize("what, fault", RECOVERABLE, ids=[r[0] for r in RECOVERABLE])
def test_transient_faults_are_retried_then_succeed(serve, name, what, fault, clock):
    fake = serve(name).script(fault)
    tr = make(fake, clock=clock, timeout=0.2)
    assert tr.translate(TEXTS[:2]) == dictionary_translate(TEXTS[:2], "en", "es")
    assert tr.retries == 1
    assert len(clock.sleeps) >= 1
    backoff = [s for s in clock.sleeps if s > 0.5 / tr.qps]  # leave out the rate limiter's waits
    if fault.kind == "rate" and name in ("google", "bing"):  # HTTP 429 carries Retry-After: 2
        assert 2.0 <= backoff[0] <= 3.0
    else:  # exponential backoff with jitter: the first step is in [backoff/2, backoff]
        assert 0.5 <= backoff[0] <= 1.0


@pytest.mark.parametrize(
    "name, provider_code, retried",
    [("baidu", "52001", True), ("baidu", "52002", True), ("baidu", "54005", True), ("baidu", "58001", False),
     ("youdao", "207", True), ("youdao", "303", True), ("youdao", "412", True), ("youdao", "103", False),
     ("bing", "400036", False), ("bing", "408001", True), ("google", "invalid", False)],
)
def test_provider_error_codes(serve, name, provider_code, retried, clock):
    fake = serve(name).script(code(provider_code))
    tr = make(fake, clock=clock)
    if retried:
        assert tr.translate(["The bank."]) == ["El banco."]
        assert len(fake.calls) == 2
    else:
        with pytest.raises(ProviderError) as err:
            tr.translate(["The bank."])
        assert err.value.code == provider_code and not err.value.retryable
        assert len(fake.calls) == 1


@pytest.mark.parametrize("name", PROVIDERS)
@pytest.mark.parametrize(
    "fault, error, message",
    [(AUTH, AuthError, "check SIT_"), (QUOTA, RateLimitError, "run the same command again")],
    ids=["auth", "quota"],
)
def test_auth_and_quota_errors_are_never_retried(serve, name, fault, error, message, clock):
    fake = serve(name).script(fault)
    tr = make(fake, clock=clock)
    with pytest.raises(error) as err:
        tr.translate(TEXTS)
    assert len(fake.calls) == 1 and clock.sleeps == []
    assert str(err.value).startswith(f"{name}: batch #1 ") and message in str(err.value)
    assert err.value.translator == name and not err.value.retryable


WRONG = {
    "google": {"api_key": "AIza-wrong-key"},
    "bing": {"key": "wrong-key-123", "region": "westeurope"},
    "baidu": {"appid": BAIDU_APPID, "secret": "wrong-secret"},
    "youdao": {"appkey": YOUDAO_APPKEY, "secret": "wrong-secret"},
}


@pytest.mark.parametrize("name, expected_code", [("google", "INVALID_ARGUMENT"), ("bing", "401000"),
                                                 ("baidu", "54001"), ("youdao", "202")])
def test_wrong_credentials_fail_once_with_the_providers_code(serve, name, expected_code, clock):
    fake = serve(name)
    tr = make(fake, clock=clock, credentials=WRONG[name], endpoint=fake.url)
    with pytest.raises(AuthError) as err:
        tr.translate(TEXTS[:1])
    assert err.value.code == expected_code and len(fake.calls) == 1
    assert "wrong" not in str(err.value)  # the secret itself is never echoed


def test_bing_region_is_sent_where_set(serve, clock):
    fake = serve("bing", region="eastasia")
    tr = make(fake, clock=clock, credentials={"key": BING_KEY}, endpoint=fake.url)
    with pytest.raises(AuthError, match="401000"):  # a regional resource needs SIT_BING_REGION
        tr.translate(["The bank."])
    env = {**fake.env(), "SIT_BING_REGION": "eastasia"}
    assert make(fake, clock=clock, env=env).translate(["The bank."]) == ["El banco."]
    assert fake.calls[-1].headers["ocp-apim-subscription-region"] == "eastasia"


@pytest.mark.parametrize("name", PROVIDERS)
@pytest.mark.parametrize("fault", [SHORT, MISSING], ids=["fewer results", "missing field"])
def test_a_response_that_does_not_match_its_request_is_an_error(serve, name, fault, clock):
    fake = serve(name).script(None, fault)  # the second request misbehaves
    tr = make(fake, clock=clock, batch_size=2)
    texts = TEXTS[:4] if name != "youdao" else TEXTS[:2]
    with pytest.raises(ResponseMismatchError) as err:
        tr.translate(texts)
    msg = str(err.value)
    assert msg.startswith(f"{name}: batch #2 (") and "does not match" in msg
    # names the batch by its first text (where answers are order-checked, batches are dealt the
    # texts in turn: the second holds the second and the fourth)
    assert texts[1 if tr.promises_order or name == "youdao" else 2][:20] in msg
    assert len(fake.calls) == 2  # not retried: a mismatch is not transient


@pytest.mark.parametrize("name", ["baidu", "youdao"])
def test_an_answer_whose_alignment_is_not_proven_is_refused_and_never_cached(serve, name, clock, tmp_path):
    """Baidu lines in another order without their ``src``, Youdao's answer to another text: the
    batch stays untranslated, nothing of it is cached, and the next run asks again."""
    fake = serve(name).script(None, MISORDER)  # the second request misbehaves
    texts = TEXTS[:4] if name == "baidu" else TEXTS[:2]
    tr = make(fake, clock=clock, batch_size=2, cache=Cache(tmp_path / "c"))
    out = tr.translate(texts, strict=False)
    expected = dictionary_translate(texts, "en", "es")
    first = 2 if name == "baidu" else 1
    assert out == expected[:first] + [None] * (len(texts) - first)
    assert tr.stats.failed == len(texts) - first and "does not match" in tr.stats.errors[0]
    again = make(fake, clock=clock, batch_size=2, cache=Cache(tmp_path / "c"))
    assert again.translate(texts) == expected
    assert fake.translated_texts[-(len(texts) - first):] == texts[first:]  # asked again, not read from the cache


def test_baidu_lines_in_another_order_are_realigned_by_their_src(serve, clock, tmp_path):
    fake = serve("baidu").script(REORDER)
    texts = TEXTS[:4]
    assert make(fake, clock=clock, cache=Cache(tmp_path / "c")).translate(texts) == dictionary_translate(texts, "en", "es")


@pytest.mark.parametrize("name", PROVIDERS)
def test_persistent_outage_gives_up_after_bounded_retries(serve, name, clock):
    fake = serve(name).fail_from(1, SERVER_ERROR)
    tr = make(fake, clock=clock, max_retries=3, backoff=0.5, backoff_max=1.0)
    with pytest.raises(ProviderError, match="gave up after 4 attempts"):
        tr.translate(TEXTS[:1])
    assert len(fake.calls) == 4
    waits = [s for s in clock.sleeps if s > 0.5 / tr.qps]
    assert len(waits) == 3 and all(0.25 <= w <= 1.0 for w in waits) and waits[2] >= 0.5


@pytest.mark.parametrize("name", ["google", "bing"])
def test_a_retry_after_beyond_the_limit_stops_instead_of_sleeping(serve, name, clock):
    fake = serve(name).script(rate("3600"))
    tr = make(fake, clock=clock)
    with pytest.raises(RateLimitError, match="3600 s.*run again later"):
        tr.translate(TEXTS[:1])
    assert len(fake.calls) == 1 and all(s < 1 for s in clock.sleeps)


def test_timeouts_are_retried_and_named(serve, clock):
    fake = serve("bing").fail_from(1, slow(0.4))
    tr = make(fake, clock=clock, timeout=0.1, max_retries=1)
    with pytest.raises(ProviderError, match=r"no answer within 0.1 s \(--timeout\).*gave up after 2 attempts"):
        tr.translate(TEXTS[:1])
    assert len(fake.calls) == 2


def test_connection_refused_is_retryable_and_names_the_host(clock):
    from sit.translators import get_translator

    tr = get_translator("baidu", credentials={"appid": "x1234", "secret": "y5678"}, endpoint="http://127.0.0.1:9/t",
                        clock=clock, sleep=clock.sleep, max_retries=2)
    with pytest.raises(ProviderError, match=r"cannot reach http://127.0.0.1:9: \[Errno 111\].*gave up after 3"):
        tr.translate(["The bank."])


# -- resume -------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", PROVIDERS)
def test_a_run_that_dies_mid_way_resumes_with_no_repeated_call(serve, name, tmp_path, clock):
    texts = _texts(12)
    fake = serve(name).fail_from(4, QUOTA)  # the quota runs out at the 4th request
    tr = make(fake, cache=Cache(tmp_path / "c"), clock=clock, batch_size=3)
    out = tr.translate(texts, strict=False)
    done = 3 if name == "youdao" else 9
    # the texts of the three requests that got through (order-checked providers' batches are
    # dealt the texts in turn, not taken in order)
    answered = {t for c in fake.calls[:3] for t in c.texts}
    assert len(answered) == done and out == [dictionary_translate([t], "en", "es")[0] if t in answered else None
                                             for t in texts]
    assert tr.stats.failed == 12 - done and "run the same command again" in tr.stats.errors[0]

    fake.heal()
    again = make(fake, cache=Cache(tmp_path / "c"), clock=clock, batch_size=3)
    assert again.translate(texts, strict=False) == dictionary_translate(texts, "en", "es")
    assert again.stats.cache_hits == done and again.stats.failed == 0
    sent = Counter(fake.translated_texts)
    assert set(sent) == set(texts) and max(sent.values()) == 1  # nothing paid for twice


@pytest.mark.parametrize("name", ["google", "bing", "baidu"])
def test_requests_that_succeeded_inside_a_failing_batch_are_kept(serve, name, tmp_path, clock):
    """A batch split into several requests (API limits) keeps the ones that returned."""
    texts = _texts(6)
    fake = serve(name).fail_at(2, QUOTA)
    tr = make(fake, cache=Cache(tmp_path / "c"), clock=clock, batch_size=6)
    tr.max_items = 2  # as if the API took two texts per request: one batch, three requests
    first = tr.translate(texts, strict=False)
    expected = dictionary_translate(texts, "en", "es")
    assert first == expected[:2] + [None] * 4  # the batch failed at its second request ...
    assert tr.stats.translated == 2 and tr.stats.failed == 4
    assert len(fake.calls) == 2
    again = make(fake, cache=Cache(tmp_path / "c"), clock=clock, batch_size=6)
    assert again.translate(texts) == dictionary_translate(texts, "en", "es")
    assert again.stats.cache_hits == 2  # ... but its first request was kept and is not paid for twice
    assert max(Counter(fake.translated_texts).values()) == 1


# -- rate limit -------------------------------------------------------------------------------
@pytest.mark.parametrize("name, qps", [("google", 10.0), ("bing", 4.0), ("baidu", 1.0), ("youdao", 5.0)])
def test_the_rate_limit_holds_under_a_burst(serve, name, qps, clock):
    """20 requests at once: the fake (on the same fake clock) refuses any two closer than 1/qps."""
    fake = serve(name, clock=clock, qps_limit=qps)
    tr = make(fake, clock=clock, qps=qps, batch_size=1)
    texts = _texts(20)
    assert tr.translate(texts) == dictionary_translate(texts, "en", "es")
    times = [c.t for c in fake.calls]
    gaps = [b - a for a, b in zip(times, times[1:])]
    assert len(times) == 20 and fake.too_fast == 0
    assert min(gaps) >= 1 / qps - 1e-9
    assert times[-1] - times[0] == pytest.approx(19 / qps)  # and no slower than it has to be


@pytest.mark.parametrize("name", PROVIDERS)
def test_default_qps_is_the_providers_and_a_burst_over_it_is_refused_then_recovered(serve, name, clock):
    fake = serve(name, clock=clock, qps_limit=2.0)
    tr = make(fake, clock=clock, qps=50.0, batch_size=1)  # asks for more than the provider allows
    texts = _texts(4)
    assert tr.translate(texts) == dictionary_translate(texts, "en", "es")
    assert fake.too_fast >= 1 and tr.retries == fake.too_fast  # refused, backed off, recovered
    assert make(fake).qps == {"google": 10.0, "bing": 10.0, "baidu": 1.0, "youdao": 5.0}[name]


# -- secrets ----------------------------------------------------------------------------------
@pytest.mark.parametrize("name", PROVIDERS)
def test_secrets_never_reach_cache_files_messages_or_logs(serve, name, tmp_path, clock, caplog):
    caplog.set_level(logging.DEBUG)  # urllib3's request lines included
    caplog.set_level(logging.DEBUG, logger="urllib3")  # even after a CLI run quietened it in-process
    fake = serve(name).script(SERVER_ERROR).fail_at(4, AUTH)  # a retry, two good requests, refused
    tr = make(fake, cache=Cache(tmp_path / "c"), clock=clock, batch_size=1)
    out = tr.translate(TEXTS, strict=False)
    assert out[:2] == dictionary_translate(TEXTS[:2], "en", "es") and tr.stats.failed
    written = [p for p in (tmp_path / "c").rglob("*") if p.is_file()]
    assert written
    blobs = [p.read_bytes().decode("utf-8", "replace") for p in written] + [caplog.text, repr(tr), " ".join(tr.stats.errors)]
    for secret in SECRETS:
        assert not any(secret in blob for blob in blobs), secret
    assert "urllib3" in caplog.text and "HTTP 500" in caplog.text  # the debug log was captured


def test_error_messages_redact_secrets_echoed_by_a_provider(serve, clock):
    fake = serve("google")
    tr = make(fake, clock=clock)
    err = tr.error(ProviderError, f"proxy says: bad key {GOOGLE_KEY}")
    assert GOOGLE_KEY not in str(err) and "bad key ***" in str(err)


@pytest.mark.parametrize("name", PROVIDERS)
def test_non_strict_translate_counts_what_was_left(serve, name, clock):
    fake = serve(name).fail_from(1, AUTH)
    tr = make(fake, clock=clock)
    assert tr.translate(TEXTS, strict=False) == [None] * len(TEXTS)
    assert tr.stats.failed == len(TEXTS) and tr.stats.translated == 0
    with pytest.raises(TranslationError):
        tr.translate(TEXTS)


@pytest.mark.parametrize(
    "name, body",
    [("youdao", {"errorCode": "0", "query": "Another text.", "translation": ["Otro."]}),
     ("bing", [{"translations": [{"text": "Otro.", "to": "fr"}]}]),
     ("baidu", {"from": "en", "to": "spa", "trans_result": [{"src": "Another text.", "dst": "Otro."}]})],
)
def test_an_answer_for_another_text_or_language_is_a_mismatch(name, body, clock):
    """Echoed fields are checked: a proxy that mixes up answers cannot misalign translations."""
    import json as _json

    class Response:
        status_code, headers, reason = 200, {}, "OK"
        text = _json.dumps(body)

        def json(self):
            return body

        def close(self):
            pass

    class Session:
        def request(self, **kw):
            return Response()

        def close(self):
            pass

    env = {"google": {}, "bing": {"SIT_BING_KEY": "k-123456"}, "baidu": {"SIT_BAIDU_APPID": "123456", "SIT_BAIDU_SECRET": "s-123456"},
           "youdao": {"SIT_YOUDAO_APPKEY": "a-123456", "SIT_YOUDAO_SECRET": "s-123456"}}[name]
    from sit.translators import get_translator

    tr = get_translator(name, env=env, session=Session(), clock=clock, sleep=clock.sleep)
    with pytest.raises(ResponseMismatchError, match=f"{name}: batch #1 .*does not match"):
        tr.translate(["The bank."])
