"""The openai adapter (any OpenAI-compatible chat endpoint) through real HTTP against a fake
that checks each request as the chat completions API documents it."""

from __future__ import annotations

import json
import time

import pytest
from fakes import MALFORMED, QUOTA, SERVER_ERROR, SHORT, AUTH, Fault, dictionary_translate, rate
from fakes.fixtures import _no_real_credentials, clock, make, serve  # noqa: F401 (fixtures)
from fakes.llm import OPENAI_KEY

from sit.cache import Cache
from sit.errors import AuthError, ConfigError, RateLimitError, TranslationError
from sit.translators import get_translator, translator_options
from sit.translators.openai_chat import clean_answer, parse_list

TEXTS = ["The senator rejected the new budget proposal.", "The bank raised interest rates.",
         "The government announced a plan.", "The president said it was a big vote.", "The court is small."]
MODEL = "qwen2.5:7b"


def openai(fake, **kw):
    kw.setdefault("model", MODEL)
    return make(fake, **kw)


def test_one_prompt_per_request_in_the_real_wire_format(serve, tmp_path):
    fake = serve("openai")
    with openai(fake, cache=Cache(tmp_path / "c")) as tr:
        out = tr.translate(TEXTS + [TEXTS[0], "  "])
    assert out == dictionary_translate(TEXTS, "en", "es") + [out[0], "  "]
    assert len(fake.calls) == len(TEXTS) and fake.batches == 0
    call = fake.calls[0]
    assert call.headers["authorization"] == f"Bearer {OPENAI_KEY}"
    assert call.json["model"] == MODEL and call.json["temperature"] == 0
    assert [m["role"] for m in call.json["messages"]] == ["system", "user"]
    assert "into Spanish" in call.json["messages"][1]["content"]


def test_the_ecosystem_variables_and_a_local_server_without_a_key(serve, monkeypatch):
    fake = serve("openai", key=None)
    env = {"OPENAI_BASE_URL": fake.url[: -len("/chat/completions")] + "/"}
    assert make(fake, model=MODEL, env=env).translate(["The bank."]) == ["El banco."]
    assert "authorization" not in fake.calls[0].headers
    keyed = serve("openai")
    env = {"OPENAI_BASE_URL": keyed.url, "OPENAI_API_KEY": OPENAI_KEY}  # the full URL is kept as it is
    assert make(keyed, model=MODEL, env=env).translate(["The cat."]) == ["El gato."]
    assert keyed.calls[0].headers["authorization"] == f"Bearer {OPENAI_KEY}"


def test_model_is_required_and_options_are_checked(serve, tmp_path):
    fake = serve("openai")
    with pytest.raises(ConfigError, match="needs --model"):
        make(fake)
    with pytest.raises(ConfigError, match=r"no option 'beam_size'; its options: prompt, temperature, mode"):
        translator_options("openai", {"beam_size": 4})
    with pytest.raises(ConfigError, match="mode must be one of single, batch"):
        openai(fake, mode="parallel")
    with pytest.raises(ConfigError, match="temperature must be a finite number of at least 0"):
        openai(fake, temperature=-1)
    bad = tmp_path / "p.txt"
    bad.write_text("Translate this.")
    with pytest.raises(ConfigError, match=r"prompt=.*must contain \{text\}"):
        openai(fake, prompt=str(bad))
    with pytest.raises(ConfigError, match="cannot read it"):
        openai(fake, prompt=str(tmp_path / "missing.txt"))
    assert not fake.calls


def test_a_custom_prompt_is_sent_and_keys_the_cache(serve, tmp_path):
    fake = serve("openai")
    prompt = tmp_path / "prompt.txt"
    prompt.write_text("Render this {source} news sentence in {target}, formally.\n\n{text}")
    cache = Cache(tmp_path / "c")
    default = openai(fake, cache=cache)
    default.translate(TEXTS[:2])
    custom = openai(fake, cache=cache, prompt=str(prompt))
    assert custom.translate(TEXTS[:2]) == dictionary_translate(TEXTS[:2], "en", "es")
    assert custom.stats.cache_hits == 0 and len(fake.calls) == 4  # another prompt, another cache entry
    assert fake.calls[-1].json["messages"][1]["content"].startswith("Render this English news sentence in Spanish")
    assert custom.options()["prompt"] != default.options()["prompt"]
    warmer = openai(fake, cache=cache, temperature=0.7)
    warmer.translate(TEXTS[:1])
    assert warmer.stats.cache_hits == 0 and fake.calls[-1].json["temperature"] == 0.7
    again = openai(fake, cache=cache, prompt=str(prompt))
    again.translate(TEXTS[:2])
    assert again.stats.cache_hits == 2 and len(fake.calls) == 5


@pytest.mark.parametrize("fault", ["chatter", "think"])
def test_llm_wrappers_are_cleaned(serve, fault):
    fake = serve("openai").script(Fault(fault))
    assert openai(fake).translate(["The bank raised interest rates."]) == ["El banco subió interés tasas."]


@pytest.mark.parametrize("fault", ["refuse", "empty", "filtered"])
def test_an_empty_or_refused_answer_is_asked_once_more_then_left_untranslated(serve, tmp_path, fault):
    kind = "missing" if fault == "empty" else fault  # "missing": the fake's broken reply is an empty answer
    fake = serve("openai").script(None, Fault(kind))  # once: the translator's second pass gets the answer
    tr = openai(fake, cache=Cache(tmp_path / "c"))
    assert tr.translate(TEXTS[:3], strict=False) == dictionary_translate(TEXTS[:3], "en", "es")
    assert tr.stats.failed == 0 and fake.calls[-1].texts == [TEXTS[1]]  # asked again, alone
    fake.script(Fault(kind), None, Fault(kind))  # twice for the first text: left untranslated, uncached
    cache = Cache(tmp_path / "d")
    tr = openai(fake, cache=cache)
    out = tr.translate(TEXTS[:2], strict=False)
    assert out[0] is None and out[1] == dictionary_translate(TEXTS[1:2], "en", "es")[0]
    assert tr.stats.failed == 1 and "empty or refused answer" in tr.stats.errors[0]
    again = openai(fake, cache=cache)  # a re-run asks again for that one only
    assert again.translate(TEXTS[:2]) == dictionary_translate(TEXTS[:2], "en", "es")
    assert again.stats.cache_hits == 1 and fake.calls[-1].texts == [TEXTS[0]]
    with pytest.raises(TranslationError, match="empty or refused"):  # strict: an error, after saving the rest
        fake.script(Fault("refuse"), Fault("refuse"))
        openai(fake, cache=Cache(tmp_path / "e")).translate(TEXTS[3:4])


def test_clean_answer_keeps_what_the_source_had():
    assert clean_answer('"Hola."', 'Hello.') == "Hola."
    assert clean_answer('"Hola," dijo.', '"Hello," he said.') == '"Hola," dijo.'
    assert clean_answer("I'm sorry, he said.", "I'm sorry, he said.") == "I'm sorry, he said."
    assert clean_answer("```\nEl gato.\n```", "The cat.") == "El gato."
    assert clean_answer("Spanish translation: El gato.", "The cat.") == "El gato."
    assert parse_list("1. Uno\n2. Dos", 2) == ["Uno", "Dos"]
    assert parse_list('["Uno"]', 2) is None
    assert parse_list('["Uno", "Dos"]', 2) is None  # a bare array proves no alignment
    assert parse_list('{"2": "Dos", "1": "Uno"}', 2) == ["Uno", "Dos"]  # placed by id
    assert parse_list('{"1": "Uno", "3": "Tres"}', 2) is None


def test_errors_in_the_api_format(serve, clock):
    fake = serve("openai").script(AUTH)
    with pytest.raises(AuthError, match="HTTP 401 .invalid_api_key.*check SIT_OPENAI_API_KEY") as info:
        openai(fake).translate(["The cat."])
    assert OPENAI_KEY not in str(info.value) and len(fake.calls) == 1  # never retried
    fake.script(QUOTA)
    with pytest.raises(RateLimitError, match="insufficient_quota.*add credit"):
        openai(fake).translate(["The dog."])
    fake.script(rate("2"), SERVER_ERROR, MALFORMED)
    tr = openai(fake, clock=clock)
    assert tr.translate(["The house."]) == ["El casa."]
    assert tr.retries == 3 and 2 <= clock.sleeps[0] <= 3  # Retry-After honoured
    with pytest.raises(TranslationError, match=r"HTTP 404 \(model_not_found\).*--model 'llama3' served"):
        make(fake, model="llama3").translate(["The law."])


def test_batch_mode_sends_a_json_list_and_falls_back_one_by_one(serve):
    fake = serve("openai")
    tr = openai(fake, mode="batch", batch_items=5)
    assert tr.translate(TEXTS) == dictionary_translate(TEXTS, "en", "es")
    # after the batch, the second look at answers its evidence cannot place (docs/cloud.md)
    assert fake.calls[0].texts == TEXTS and all(len(c.texts) == 1 for c in fake.calls[1:])
    assert "JSON object with exactly the same 5 keys" in fake.calls[0].json["messages"][1]["content"]
    fake.script(SHORT)  # one translation too few: asked again one text at a time
    other = [t.replace("The", "A") for t in TEXTS]
    n = len(fake.calls)
    assert tr.translate(other) == dictionary_translate(other, "en", "es") and tr.fallbacks == 1
    assert [c.texts for c in fake.calls[n + 1:]] == [[t] for t in other]
    fake.script(Fault("prose"))
    tr.translate(["The cat.", "The dog."])
    assert tr.fallbacks == 2 and tr.options()["mode"] == "batch"


def test_concurrent_requests_keep_order_counters_and_the_rate_limit(serve):
    fake = serve("openai", latency=0.1)
    texts = [f"The senator {i} rejected the budget." for i in range(12)]
    tr = get_translator("openai", model=MODEL, target_lang="es", concurrency=6, qps=40, env=fake.env())
    slots, acquire = [], tr.limiter.acquire
    tr.limiter.acquire = lambda: slots.append(acquire()) or slots[-1]
    start = time.monotonic()
    assert tr.translate(texts) == dictionary_translate(texts, "en", "es")
    assert time.monotonic() - start >= 11 / 40 - 0.005  # 12 request starts, 1/40 s apart at least
    assert 2 <= fake.max_in_flight <= 6
    assert tr.requests_sent == tr.attempts == len(fake.calls) == len(slots) == 12
    slots.sort()  # the limiter's slots hold --qps across the threads
    assert min(b - a for a, b in zip(slots, slots[1:])) >= 1 / 40 - 1e-9


def test_a_failure_under_concurrency_keeps_what_came_back(serve, tmp_path):
    fake = serve("openai").fail_from(4, QUOTA)
    cache = Cache(tmp_path / "c")
    texts = [f"The senator {i} rejected the budget." for i in range(8)]
    tr = get_translator("openai", model=MODEL, concurrency=2, cache=cache, env=fake.env())
    out = tr.translate(texts, strict=False)
    done = [t for t, o in zip(texts, out) if o is not None]
    assert 3 <= len(done) < 8 and tr.stats.failed == 8 - len(done)
    fake.heal()
    n = len(fake.calls)
    again = get_translator("openai", model=MODEL, concurrency=2, cache=cache, env=fake.env())
    assert again.translate(texts) == dictionary_translate(texts, "en", "es")
    assert sorted(t for c in fake.calls[n:] for t in c.texts) == sorted(set(texts) - set(done))
    json.dumps(again.signature())  # the cache key is plain JSON
