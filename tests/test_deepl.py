"""The deepl adapter through real HTTP against a fake DeepL API v2 that checks each request as
DeepL documents it (path, DeepL-Auth-Key header, JSON body, 50 texts and 128 KiB a request)."""

from __future__ import annotations

import pytest
from fakes import AUTH, MALFORMED, QUOTA, SERVER_ERROR, SHORT, dictionary_translate, rate
from fakes.fixtures import _no_real_credentials, clock, make, serve  # noqa: F401 (fixtures)
from fakes.llm import DEEPL_FREE_KEY, DEEPL_KEY

from sit.errors import AuthError, ConfigError, MissingCredentialsError, RateLimitError, ResponseMismatchError
from sit.translators import get_translator


def test_translates_in_requests_of_at_most_50_texts(serve):
    fake = serve("deepl")
    texts = [f"The senator {i} rejected the budget." for i in range(60)]
    assert make(fake).translate(texts) == dictionary_translate(texts, "en", "es")
    assert [len(c.texts) for c in fake.calls] == [50, 10]
    assert fake.calls[0].headers["authorization"] == f"DeepL-Auth-Key {DEEPL_KEY}"
    assert fake.calls[0].json["source_lang"] == "EN" and fake.calls[0].json["target_lang"] == "ES"


def test_requests_stay_under_128_kib(serve):
    fake = serve("deepl", translate=lambda texts, s, t: [x[:5] for x in texts])
    texts = [f"{i} " + "the \"bank\" " * 400 for i in range(40)]  # 40 x ~4.4 KB, quotes escaped in JSON
    assert make(fake).translate(texts) == [t[:5] for t in texts]
    assert len(fake.calls) >= 2 and all(len(c.body) <= 128 * 1024 for c in fake.calls)


@pytest.mark.parametrize("target, code", [("en", "EN-US"), ("zh", "ZH-HANS"), ("pt", "PT-PT"), ("de", "DE")])
def test_target_codes(serve, target, code):
    fake = serve("deepl", target=code, source="ES" if target == "en" else "EN")
    tr = get_translator("deepl", source_lang="es" if target == "en" else "en", target_lang=target, env=fake.env())
    assert tr.translate(["The cat."]) == ["El gato."]


def test_free_keys_go_to_the_free_api():
    assert get_translator("deepl", env={"SIT_DEEPL_KEY": DEEPL_FREE_KEY}).endpoint == "https://api-free.deepl.com/v2/translate"
    assert get_translator("deepl", env={"SIT_DEEPL_KEY": DEEPL_KEY}).endpoint == "https://api.deepl.com/v2/translate"
    with pytest.raises(MissingCredentialsError, match="set SIT_DEEPL_KEY"):
        get_translator("deepl", env={})


def test_a_free_key_sent_to_the_pro_api_says_which_host_it_needs(serve):
    fake = serve("deepl", key=DEEPL_FREE_KEY, free=True)
    assert make(fake).translate(["The dog."]) == ["El perro."]
    pro = serve("deepl", key=DEEPL_FREE_KEY, free=False)
    with pytest.raises(AuthError, match="HTTP 403.*Wrong endpoint.*:fx belongs to api-free.deepl.com") as info:
        make(pro, env={**pro.env(), "SIT_DEEPL_ENDPOINT": pro.url.replace("127.0.0.1", "localhost")}).translate(["The dog."])
    assert DEEPL_FREE_KEY not in str(info.value)


def test_errors_in_the_api_format(serve, clock):
    fake = serve("deepl").script(AUTH)
    with pytest.raises(AuthError, match="check SIT_DEEPL_KEY"):
        make(fake).translate(["The cat."])
    assert len(fake.calls) == 1
    fake.script(QUOTA)
    with pytest.raises(RateLimitError, match="HTTP 456: Quota exceeded; the character quota is used up"):
        make(fake).translate(["The dog."])
    assert len(fake.calls) == 2  # 456 is not retried
    fake.script(rate("3"), SERVER_ERROR, MALFORMED)
    tr = make(fake, clock=clock)
    assert tr.translate(["The house."]) == ["El casa."] and tr.retries == 3 and 3 <= clock.sleeps[0] <= 4
    fake.script(SHORT)
    with pytest.raises(ResponseMismatchError, match="sent 2 text.s., got 1"):
        make(fake).translate(["The law.", "The vote."])


def test_formality_is_sent_and_checked(serve):
    fake = serve("deepl")
    tr = make(fake, formality="more")
    tr.translate(["The cat."])
    assert fake.calls[0].json["formality"] == "more" and tr.options() == {"formality": "more"}
    with pytest.raises(ConfigError, match="formality must be one of"):
        make(fake, formality="polite")
