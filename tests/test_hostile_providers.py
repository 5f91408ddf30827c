"""Issue 23, hostile providers: the fixed reproductions against the fake providers on 127.0.0.1.
Nothing wrong is cached (empty answers, shuffled answers, answers cut off or not text, wrong cache
entries); no secret or fragment of one reaches a message, a log or a file (a query-string key
under ``-v``, a proxy echoing its credentials, a body that is not JSON, an echoed Authorization);
``user:password@`` in an endpoint leaves the API key's header alone; JSON nested thousands deep
is a retryable error that loses no answered text."""

from __future__ import annotations

import base64
import json
import logging
from collections import Counter

import pytest
from fakes import MISORDER, QUOTA, REORDER, Fault, Reply, apertium_translate, dictionary_translate, have_apertium
from fakes.fixtures import _no_real_credentials, clock, make, serve  # noqa: F401 (fixtures)
from fakes.llm import DEEPL_KEY, OPENAI_KEY, FakeDeepL, FakeOpenAI
from fakes.providers import GOOGLE_KEY
from fakes.raw import RawServer

from sit.cache import EMPTY_TRANSLATION, Cache
from sit.cli import main
from sit.errors import ProviderError, TranslationError
from sit.redact import from_environment, scope
from sit.rundir import write_json_atomic
from sit.translators import get_translator
from sit.translators.answers import suspect_order, unplaced
from sit.translators.http import ANSWER_RETRIES

# numbers and names: what the order check reads
TEXTS = ["NASA launched 3 rockets in 2019.", "The senator rejected the budget.", "Apple sold 1200 phones to Google.",
         "The court is small.", "Obama said 45 words."]
MODEL = "qwen2.5:7b"
# near copies told apart by one word that shares no letters with its translation: no check of one
# batch at a time can see these answers reversed
NEAR = ["The bank is small.", "The house is small.", "The dog is small.", "The cat is small."]


def unplaced_texts(texts):
    """The texts whose clean answers the evidence cannot place, in order."""
    pairs = unplaced(texts, dictionary_translate(texts, "en", "es"))
    return [texts[i] for i in sorted({i for p in pairs for i in p})]


class Switch:
    """A fake's translate function that answers emptily until healed."""

    def __init__(self, broken=lambda texts: ["" for _ in texts]):
        self.broken = broken
        self.healed = False

    def __call__(self, texts, source, target):
        return dictionary_translate(texts, source, target) if self.healed else self.broken(texts)


def _entries(cache_dir) -> int:
    """Translations the cache holds (``sit cache stats``' count of the translations stores)."""
    from sit.cache import Cache
    from sit.cache.ops import stats

    return sum(s.entries for s in stats(Cache(cache_dir)).stores if s.kind == "translations")


# -- 1: an empty translation is never cached --------------------------------------------------
@pytest.mark.parametrize("name", ["deepl", "baidu", "google", "bing"])
def test_an_empty_translation_is_asked_again_then_left_untranslated_and_never_cached(serve, name, clock, tmp_path):
    switch = Switch()
    fake = serve(name, translate=switch)
    tr = make(fake, clock=clock, cache=Cache(tmp_path / "c"))
    out = tr.translate(TEXTS[:3], strict=False)
    assert out == [None] * 3 and tr.stats.failed == 3 and "empty or refused answer" in tr.stats.errors[0]
    # the adapter asks again (ANSWER_RETRIES), then the translator's second pass once more
    assert len(fake.calls) == 2 * (1 + ANSWER_RETRIES) and _entries(tmp_path / "c") == 0
    switch.healed = True  # the next run asks again, and caches the real answers
    again = make(fake, clock=clock, cache=Cache(tmp_path / "c"))
    assert again.translate(TEXTS[:3]) == dictionary_translate(TEXTS[:3], "en", "es") and again.stats.cache_hits == 0


def test_a_cached_empty_answer_is_the_translators_and_a_wrong_typed_entry_is_asked_again(serve, clock, tmp_path):
    fake = serve("deepl")
    tr = make(fake, clock=clock, cache=Cache(tmp_path / "c"))
    # the mark of a translator's empty answer (asked twice, empty both times) is kept; a list is damage
    tr.store.put_many([(TEXTS[0], EMPTY_TRANSLATION), (TEXTS[1], ["not", "text"])])
    assert tr.translate(TEXTS[:2]) == [""] + dictionary_translate(TEXTS[1:2], "en", "es")
    assert tr.stats.cache_hits == 1 and fake.translated_texts == TEXTS[1:2]


# -- 2: answers in another order --------------------------------------------------------------
@pytest.mark.parametrize("name", ["deepl", "google", "bing"])
def test_answers_in_another_order_are_asked_again_one_by_one(serve, name, clock, tmp_path):
    fake = serve(name).script(MISORDER)  # the first request answers in reverse order
    tr = make(fake, clock=clock, cache=Cache(tmp_path / "c"))
    assert tr.translate(TEXTS) == dictionary_translate(TEXTS, "en", "es")
    assert tr.order_reasks == 1 and [c.texts for c in fake.calls[1:]] == [[t] for t in TEXTS]
    cached = make(fake, clock=clock, cache=Cache(tmp_path / "c"))
    assert cached.translate(TEXTS) == dictionary_translate(TEXTS, "en", "es") and cached.stats.cache_hits == len(TEXTS)


def _wrong(cache_dir) -> int:
    """Cached translations that are not their text's (the fake's dictionary says what each is)."""
    from sit.cache.ops import stores

    items = [(k, v) for store in stores(Cache(cache_dir), "translations") for k, v in store.items()]
    assert items, "nothing was cached"
    return sum(v != dictionary_translate([k], "en", "es")[0] for k, v in items)


@pytest.mark.parametrize("name", ["deepl", "google", "bing"])
def test_a_provider_that_answers_every_batch_reversed_gets_nothing_wrong_cached(serve, name, clock, tmp_path):
    """The first batch's numbers and names show it reversed; the texts asked alone confirm it, and
    from then on no batch is trusted: the near copies, which the check alone lets pass reversed,
    are asked one at a time."""
    truth = dictionary_translate(TEXTS + NEAR, "en", "es")
    assert suspect_order(NEAR, truth[len(TEXTS):][::-1]) is None
    fake = serve(name).fail_from(1, MISORDER)
    tr = make(fake, clock=clock, cache=Cache(tmp_path / "c"), batch_size=len(TEXTS))
    assert tr.translate(TEXTS + NEAR) == truth
    assert tr.order_broken and _wrong(tmp_path / "c") == 0


@pytest.mark.parametrize("kind", ["swapped", "twice"])
def test_an_openai_batch_whose_ids_hold_other_texts_translations_caches_nothing_wrong(serve, kind, clock, tmp_path):
    """Ids in order, each with another text's translation: the order check reads OpenAI's batches
    too; an id given twice refuses the answer (json.loads would keep the last silently)."""
    fake = serve("openai").fail_from(1, Fault(kind))
    tr = make(fake, clock=clock, model=MODEL, mode="batch", batch_items=len(TEXTS), batch_size=len(TEXTS),
              cache=Cache(tmp_path / "c"))
    assert tr.translate(TEXTS + NEAR) == dictionary_translate(TEXTS + NEAR, "en", "es")
    assert _wrong(tmp_path / "c") == 0
    assert (tr.fallbacks, tr.order_broken) == ((2, False) if kind == "twice" else (0, True))


@pytest.mark.skipif(not have_apertium(), reason="needs Apertium eng-spa")
@pytest.mark.parametrize("size", [50, 10, 4])
def test_a_clean_provider_has_no_batch_doubted_over_the_news_set(serve, size, clock):
    """No batch doubted; the answers the evidence cannot place are confirmed in other company, in
    few requests (docs/cloud.md gives the share), and none is asked alone."""
    from sit.inputs import dataset_path

    lines = [line.strip() for line in dataset_path("news").read_text(encoding="utf-8").splitlines() if line.strip()]
    fake = serve("deepl", translate=apertium_translate)
    tr = make(fake, clock=clock, batch_size=size)
    assert tr.translate(lines) == apertium_translate(lines, "en", "es")
    first = -(-len(set(lines)) // size)
    sent = Counter(t for c in fake.calls for t in c.texts)
    assert tr.order_reasks == 0 and max(sent.values()) <= 2 and all(len(c.texts) > 1 for c in fake.calls)
    assert sum(sent.values()) == len(set(lines)) + sum(n - 1 for n in sent.values())
    assert first <= len(fake.calls) <= first + 2


def _adversary(texts, source, target):
    """A provider that swaps answers only where the check of one batch cannot see it: the near
    copies' answers, rotated among them, the rest in place."""
    out = dictionary_translate(texts, source, target)
    at = [i for i, t in enumerate(texts) if t in NEAR]
    for i, j in zip(at, at[1:] + at[:1]):
        out[i] = dictionary_translate([texts[j]], source, target)[0]
    return out


@pytest.mark.parametrize("texts", [TEXTS + NEAR, NEAR], ids=["mixed", "near"])
@pytest.mark.parametrize("size", [2, 4, 9])
@pytest.mark.parametrize("how", ["reversed", "adversary"])
def test_near_copies_the_check_cannot_tell_apart_get_nothing_wrong_cached(serve, texts, size, how, clock, tmp_path):
    """Near copies told apart by a word that shares nothing with its translation: a provider that
    reverses every batch, or one that rotates only their answers, passes every check of one batch
    at a time. Their answers are held, asked again in other company, and asked alone where they
    change: nothing wrong is cached (before, 4 of 4 wrong at batch size 4)."""
    truth = dictionary_translate(texts, "en", "es")
    near = dictionary_translate(NEAR, "en", "es")
    assert suspect_order(NEAR, near[::-1]) is None and suspect_order(NEAR, near[1:] + near[:1]) is None
    fake = serve("google", translate=_adversary) if how == "adversary" else serve("google").fail_from(1, MISORDER)
    tr = make(fake, clock=clock, cache=Cache(tmp_path / "c"), batch_size=size)
    assert tr.translate(texts) == truth and _wrong(tmp_path / "c") == 0
    # the texts asked alone got answers their first batches gave others (where any was moved)
    assert tr.order_broken or (how == "adversary" and texts != NEAR and size == 2)
    again = make(fake, clock=clock, cache=Cache(tmp_path / "c"), batch_size=size)
    assert again.translate(texts) == truth and again.stats.cache_hits == len(texts)


def test_a_clean_provider_confirms_near_copies_in_other_company(serve, clock, tmp_path):
    """The same near copies from a clean provider, in one batch: all four answers could be
    swapped; three are asked once more, each in a request without the others, come back the same
    and are cached; the fourth is the answer left. Nothing is asked a third time."""
    truth = dictionary_translate(NEAR, "en", "es")
    assert len({i for p in unplaced(NEAR, truth) for i in p}) == 4
    fake = serve("deepl")
    tr = make(fake, clock=clock, cache=Cache(tmp_path / "c"), batch_size=4)
    assert tr.translate(NEAR) == truth
    assert [c.texts for c in fake.calls] == [NEAR] + [[t] for t in NEAR[:3]]
    assert not tr.order_broken and _wrong(tmp_path / "c") == 0 and _entries(tmp_path / "c") == 4


def test_openai_batches_carry_ids_and_answers_are_placed_by_them(serve, clock):
    fake = serve("openai")
    tr = make(fake, clock=clock, model=MODEL, mode="batch", batch_items=5)
    fake.script(REORDER)  # every id with its own translation, ids in reverse order
    assert tr.translate(TEXTS) == dictionary_translate(TEXTS, "en", "es")
    prompt = fake.calls[0].json["messages"][1]["content"]
    assert json.loads(prompt[prompt.index("{"):]) == {str(i + 1): t for i, t in enumerate(TEXTS)}
    # the senator's and the court's answers share nothing the check reads: one asked once more
    assert [c.texts for c in fake.calls[1:]] == [unplaced_texts(TEXTS)[:-1]]
    fake.script(MISORDER)  # a bare array in reverse order: no ids, nothing proves it: one by one
    other = [t.replace("The", "A") for t in TEXTS]
    n = len(fake.calls)
    assert tr.translate(other) == dictionary_translate(other, "en", "es") and tr.fallbacks == 1
    assert [c.texts for c in fake.calls[n + 1:]] == [[t] for t in other]


# -- 3, 4: answers cut off or not text ---------------------------------------------------------
@pytest.mark.parametrize("fault", ["cut", "nontext"])
def test_an_openai_answer_cut_off_or_not_text_is_asked_again_and_never_cached(serve, fault, clock, tmp_path):
    fake = serve("openai").script(*[Fault(fault)] * (2 * (1 + ANSWER_RETRIES)))  # the second pass too
    tr = make(fake, clock=clock, model=MODEL, cache=Cache(tmp_path / "c"))
    assert tr.translate(TEXTS[:1], strict=False) == [None] and tr.stats.failed == 1
    assert len(fake.calls) == 2 * (1 + ANSWER_RETRIES) and _entries(tmp_path / "c") == 0
    fake.script(Fault(fault))  # once: the retry gets the whole translation
    assert make(fake, clock=clock, model=MODEL).translate(TEXTS[1:2]) == dictionary_translate(TEXTS[1:2], "en", "es")


def test_an_openai_answer_of_a_json_list_is_not_a_translation(serve, clock):
    fake = serve("openai", translate=lambda texts, s, t: ["[]" for _ in texts])
    tr = make(fake, clock=clock, model=MODEL)
    assert tr.translate(TEXTS[:1], strict=False) == [None] and tr.stats.failed == 1


# -- 10: JSON nested thousands deep ------------------------------------------------------------
class DeepOpenAI(FakeOpenAI):
    def fault_reply(self, call, fault):
        if fault.kind == "deep":
            return Reply(200, raw=b"[" * 200_000, headers={"Content-Type": "application/json"})
        return super().fault_reply(call, fault)


def test_deeply_nested_json_is_retryable_and_loses_no_answered_text(clock, tmp_path):
    with DeepOpenAI() as fake:
        fake.fail_from(2, Fault("deep"))
        tr = get_translator("openai", model=MODEL, env=fake.env(), cache=Cache(tmp_path / "c"), clock=clock,
                            sleep=clock.sleep, mode="batch", batch_items=2, batch_size=4, max_retries=1)
        out = tr.translate(TEXTS[:4], strict=False)
    assert out == dictionary_translate(TEXTS[:2], "en", "es") + [None, None]
    assert "nested more than 64 levels deep" in tr.stats.errors[0] and "gave up after 2 attempts" in tr.stats.errors[0]
    assert _entries(tmp_path / "c") == 2  # the first request's answers are cached


# -- 8, 9: bodies that are not JSON, echoed credentials, user:password@ in an endpoint --------
def _answer(status: int, body: bytes, reason: str = "OK"):
    def answer(conn):
        conn.sendall(f"HTTP/1.1 {status} {reason}\r\nContent-Type: text/html\r\nContent-Length: {len(body)}\r\n"
                     "Connection: close\r\n\r\n".encode() + body)
    return answer


def test_a_body_that_is_not_json_is_never_quoted(clock):
    server = RawServer([_answer(200, f"<html>{DEEPL_KEY[:20]}... upstream error</html>".encode())])
    try:
        tr = get_translator("deepl", env={"SIT_DEEPL_KEY": DEEPL_KEY, "SIT_DEEPL_ENDPOINT": server.url},
                            clock=clock, sleep=clock.sleep, max_retries=0)
        with pytest.raises(ProviderError, match="HTTP 200 with an answer that is not valid JSON") as info:
            tr.translate(["The cat."])
    finally:
        server.close()
    assert not any(DEEPL_KEY[i:i + 6] in str(info.value) for i in range(len(DEEPL_KEY) - 5))


def test_an_echoed_authorization_of_the_endpoint_s_user_password_is_redacted(clock):
    password = "gwPASS-7f3e9a1c"
    echo = base64.b64encode(f"gateway:{password}".encode()).decode()
    body = json.dumps({"error": {"code": 401, "message": f"bad Authorization: Basic {echo} ({password[:8]})"}}).encode()
    server = RawServer([_answer(401, body, "Unauthorized")])
    try:
        url = server.url.replace("http://", f"http://gateway:{password}@")
        tr = get_translator("google", env={"SIT_GOOGLE_API_KEY": GOOGLE_KEY, "SIT_GOOGLE_ENDPOINT": url},
                            clock=clock, sleep=clock.sleep)
        with pytest.raises(TranslationError) as info:
            tr.translate(["The cat."])
    finally:
        server.close()
    message = str(info.value)
    assert "HTTP 401" in message and echo not in message and echo[:12] not in message and password[:8] not in message


@pytest.mark.parametrize("name", ["deepl", "openai"])
def test_user_password_in_the_endpoint_leaves_the_api_key_s_header_alone(serve, name, clock):
    fake = serve(name)
    env = {k: v.replace("http://", "http://gw:gwpass1234@") for k, v in fake.env().items()}
    tr = make(fake, clock=clock, env=env, **({"model": MODEL} if name == "openai" else {}))
    assert tr.translate(TEXTS[:2]) == dictionary_translate(TEXTS[:2], "en", "es")
    auth = fake.calls[0].headers["authorization"]
    assert auth == (f"DeepL-Auth-Key {DEEPL_KEY}" if name == "deepl" else f"Bearer {OPENAI_KEY}")
    assert "gwpass1234" not in repr(tr)


# -- 7: a proxy that echoes its credentials ---------------------------------------------------
def test_a_proxy_echoing_its_credentials_shows_them_nowhere(serve, clock, monkeypatch, tmp_path, caplog):
    password = "pr0xyPASS-w0rd"
    echo = base64.b64encode(f"puser:{password}".encode()).decode()
    body = json.dumps({"message": f"Proxy-Authorization: Basic {echo} for puser:{password} refused"}).encode()
    proxy = RawServer([_answer(407, body, f"Proxy Authentication Required ({password})")])
    fake = serve("deepl")
    for var in ("NO_PROXY", "no_proxy"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HTTP_PROXY", f"http://puser:{password}@127.0.0.1:{proxy.url.split(':')[2].split('/')[0]}")
    try:
        tr = make(fake, clock=clock)
        assert tr.translate(TEXTS[:2], strict=False) == [None, None]
    finally:
        proxy.close()
    assert proxy.connections >= 1 and not fake.calls  # the request went to the proxy
    message = " ".join(tr.stats.errors)
    assert "HTTP 407" in message
    with scope(from_environment()):  # what a run writes of that message
        write_json_atomic(tmp_path / "run.json", {"warnings": tr.stats.errors, "echo": body.decode()})
    for text in (message, (tmp_path / "run.json").read_text(), caplog.text):
        assert password not in text and echo not in text and password[:7] not in text


# -- 6, 15: -v shows no secret and keeps exit 6 -------------------------------------------------
class QueryDeepL(FakeDeepL):
    """DeepL behind a gateway that takes a key in the query string (and strips it)."""

    def check(self, call):
        self.queries.append(call.query)
        call.query = {}
        return super().check(call)


def test_verbose_run_redacts_a_query_string_key_and_keeps_exit_6(tmp_path, monkeypatch, capsys, caplog):
    caplog.set_level(logging.DEBUG)
    secret = "QSECRETv4lue-91f0"
    with QueryDeepL() as fake:
        fake.queries = []
        fake.fail_from(2, QUOTA)
        monkeypatch.setenv("SIT_DEEPL_KEY", DEEPL_KEY)
        monkeypatch.setenv("SIT_DEEPL_ENDPOINT", fake.url + f"?auth_key={secret}")
        corpus = tmp_path / "in.txt"
        corpus.write_text("The senator rejected the new budget.\nThe bank raised interest rates.\n")
        code = main(["-v", "run", "--input", str(corpus), "--translator", "deepl", "--perturber", "character_swap",
                     "--perturber-option", "rate=0.3", "--num-perturb", "2", "--batch-size", "2", "--qps", "200",
                     "--cache-dir", str(tmp_path / "cache"), "--out", str(tmp_path / "run"), "--no-progress"])
    captured = capsys.readouterr()
    assert not fake.problems and fake.queries[0] == {"auth_key": [secret]}  # the key really travelled in the URL
    assert code == 6 and "left untranslated" in captured.err and "Traceback" in captured.err  # -v: shown, code kept
    assert [c.translated for c in fake.calls][:2] == [True, False]  # one answer, then the quota
    files = [p.read_text(errors="replace") for p in tmp_path.rglob("*") if p.is_file() and p.name != "in.txt"]
    for text in [captured.out, captured.err, caplog.text, *files]:
        assert secret not in text and secret[:8] not in text and DEEPL_KEY not in text
    assert "urllib3" in caplog.text and "POST /v2/translate?***" in caplog.text  # the debug lines were there, redacted


@pytest.mark.skipif(not have_apertium(), reason="needs Apertium eng-spa")
def test_a_token_the_translation_mangles_is_no_doubt_but_another_texts_token_is():
    """sit's passthrough cases: Apertium makes "#update" "#de crisis" (a bug sit reports, not a
    reorder); an answer holding another text's token is one."""
    texts = ["The senator criticized the governor for his handling of the crisis #update.",
             "Parliament approved the new budget after a long debate @newsdesk.",
             "The prime minister announced a cabinet reshuffle on Tuesday `run_id`."]
    answers = apertium_translate(texts, "en", "es")
    assert "#update" not in answers[0] and suspect_order(texts, answers) is None
    assert "another text's" in suspect_order(texts, answers[1:] + answers[:1])


def test_answers_in_chosen_company_the_check_cannot_place_are_left_out_and_never_cached(serve, clock, tmp_path):
    """The batch relation's re-translations: asking an answer again would change the company under
    test, so one the check cannot place is left out (None), not cached, and no error is recorded."""
    fake = serve("deepl")
    tr = make(fake, clock=clock, cache=Cache(tmp_path / "c"), batch_size=8)
    out = tr.translate_in_batch(NEAR + TEXTS[:1], "probe")
    assert out == [None] * len(NEAR) + dictionary_translate(TEXTS[:1], "en", "es")
    assert len(fake.calls) == 1 and tr.batch_stats.errors == [] and _entries(tmp_path / "c") == 1
