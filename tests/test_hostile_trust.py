"""Issue 49, what is cached and trusted, against the real adapters and fake providers on 127.0.0.1:
an answer that echoes the provider's key is no translation (never cached, exported or reported);
a cached value damaged to an empty string is a miss, recomputed and said, while the translator's
own empty answer stays its answer; providers that reorder every batch, swap values under kept
ids or answer two texts identically get nothing wrong cached; the LLM judge trusts no refusal
under a severity heading and no annotation quoting words of neither text."""

from __future__ import annotations

import sqlite3

import pytest
from conftest import requires_apertium
from fakes import dictionary_translate
from fakes.fixtures import _no_real_credentials, clock, make, serve  # noqa: F401 (fixtures)
from fakes.providers import GOOGLE_KEY

from sit.cache import Cache
from sit.cache.ops import stores
from sit.cli import main

TEXTS = ["The senator rejected the budget.", "The bank raised interest rates.", "The court said it was small."]


def _cached(cache_dir) -> dict[str, object]:
    return {k: v for store in stores(Cache(cache_dir), "translations") for k, v in store.items()}


def _raw(cache_dir) -> bytes:
    """Every key and value the cache file holds, as stored."""
    conn = sqlite3.connect(cache_dir / "cache.sqlite3")
    try:
        return b"\n".join(bytes(f"{k}\t{v}", "utf-8") for k, v in conn.execute("SELECT k, CAST(v AS TEXT) FROM entries"))
    finally:
        conn.close()


# -- a provider that echoes its key -------------------------------------------------------------
def _echo(part: str):
    """A provider that answers the second text with its translation and ``part`` of the key."""
    def translate(texts, source, target):
        return [t + (f" ({part})" if x == TEXTS[1] else "") for x, t in zip(texts, dictionary_translate(texts, source, target))]
    return translate


@pytest.mark.parametrize("part", [GOOGLE_KEY, GOOGLE_KEY[:9]], ids=["key", "fragment"])
def test_an_answer_echoing_the_key_is_never_cached_exported_or_reported(serve, part, clock, tmp_path, monkeypatch, capsys):
    fake = serve("google", translate=_echo(part))
    tr = make(fake, clock=clock, cache=Cache(tmp_path / "c"))
    out = tr.translate(TEXTS, strict=False)
    truth = dictionary_translate(TEXTS, "en", "es")
    assert out == [truth[0], None, truth[2]]  # asked again, then left untranslated
    assert sum(TEXTS[1] in c.texts for c in fake.calls) > 1
    assert _cached(tmp_path / "c") == {TEXTS[0]: truth[0], TEXTS[2]: truth[2]}
    assert GOOGLE_KEY[:6].encode() not in _raw(tmp_path / "c")
    monkeypatch.setenv("SIT_CACHE_DIR", str(tmp_path / "c"))  # a later command, without the key
    assert main(["cache", "export", "-o", str(tmp_path / "export")]) == 0
    written = b"".join(p.read_bytes() for p in (tmp_path / "export").rglob("*") if p.is_file())
    assert truth[0].encode() in written and GOOGLE_KEY[:6].encode() not in written


# -- a cached value damaged to an empty string --------------------------------------------------
def _damage(cache_dir, kind: str, key_end: str, value: str) -> None:
    """Overwrite the stored value of the ``kind`` entry whose key ends with ``key_end``."""
    conn = sqlite3.connect(cache_dir / "cache.sqlite3", isolation_level=None)
    try:
        changed = conn.execute("UPDATE entries SET v = ? WHERE k LIKE ? AND ns IN (SELECT id FROM namespaces WHERE kind = ?)",
                               (value, "%" + key_end, kind)).rowcount
    finally:
        conn.close()
    assert changed == 1


@pytest.mark.parametrize("damage", ['""', '"  "'], ids=["empty", "blank"])
def test_a_translation_damaged_to_an_empty_string_is_translated_again_and_said(serve, damage, clock, tmp_path):
    fake = serve("deepl")
    truth = dictionary_translate(TEXTS, "en", "es")
    assert make(fake, clock=clock, cache=Cache(tmp_path / "c")).translate(TEXTS) == truth
    _damage(tmp_path / "c", "translations", TEXTS[1], damage)
    asked = len(fake.translated_texts)
    cache = Cache(tmp_path / "c")
    again = make(fake, clock=clock, cache=cache)
    assert again.translate(TEXTS) == truth
    assert fake.translated_texts[asked:] == [TEXTS[1]] and again.stats.cache_hits == len(TEXTS) - 1
    assert any("wrong shape" in p and "recomputed" in p for p in cache.problems)  # said
    assert _cached(tmp_path / "c")[TEXTS[1]] == truth[1]


@requires_apertium
def test_the_translators_empty_answer_stays_its_answer_beside_a_damaged_one(tmp_path):
    """Apertium answers "will" with nothing, every time: that is cached marked, a hit on a re-run,
    while an entry damaged to "" beside it is translated again."""
    from sit.translators import get_translator

    texts = ["will", "The dog sleeps."]
    first = get_translator("apertium", target_lang="es", cache=Cache(tmp_path / "c"))
    truth = first.translate(texts)
    assert truth[0] == "" and truth[1] and _cached(tmp_path / "c")["will"] == {"translation": ""}
    _damage(tmp_path / "c", "translations", texts[1], '""')
    again = get_translator("apertium", target_lang="es", cache=Cache(tmp_path / "c"))
    assert again.translate(texts) == truth
    assert (again.stats.cache_hits, again.stats.computed, again.stats.empty) == (1, 1, 0)


def test_a_perturbation_damaged_to_an_empty_string_is_perturbed_again(tmp_path):
    from sit.perturb import PERTURBERS

    sentences = ["The senator rejected the new budget on Friday."]
    first = PERTURBERS.create("character_swap", cache=Cache(tmp_path / "c")).perturb(sentences)
    assert first
    _damage(tmp_path / "c", "perturbations", sentences[0],
            '[{"perturbed": "", "edit": {"position": 0, "before": "The", "after": ""}}]')
    cache = Cache(tmp_path / "c")
    perturber = PERTURBERS.create("character_swap", cache=cache)
    assert perturber.perturb(sentences) == first and perturber.stats.cache_hits == 0
    assert any("wrong shape" in p for p in cache.problems)


# -- a provider that gives two texts one answer --------------------------------------------------
MIXED = ["NASA launched 3 rockets in 2019.", "The senator rejected the budget.", "Apple sold 1200 phones to Google.",
         "dog", "cat", "the house", "bank", "The court is small.", "big", "large"]


def _alike(texts, source, target):
    """A clean provider for which "big" and "large" are one word: "grande"."""
    return ["grande" if t in ("big", "large") else o for t, o in zip(texts, dictionary_translate(texts, source, target))]


def _copier(to: int):
    """A provider that gives text ``to`` (0 or 1) of every request the other one's answer (that
    one keeps its own: two texts answered identically, one of them wrong)."""
    def translate(texts, source, target):
        out = _alike(texts, source, target)
        if len(out) > 1:
            out[to] = out[1 - to]
        return out
    return translate


@pytest.mark.parametrize("name", ["deepl", "google"])
@pytest.mark.parametrize("size", [3, 4, 10])
@pytest.mark.parametrize("to", [0, 1], ids=["first", "second"])
def test_a_provider_that_copies_one_answer_to_another_text_gets_nothing_wrong_cached(serve, name, size, to, clock, tmp_path):
    """Before, identical answers needed "no placing": the copy was cached for a text of a batch
    the check did not doubt; and of two short texts answered alike, the one left unasked kept the
    copy once the other, asked again, confirmed its own answer."""
    truth = _alike(MIXED, "en", "es")
    fake = serve(name, translate=_copier(to))
    tr = make(fake, clock=clock, cache=Cache(tmp_path / "c"), batch_size=size)
    tr.translate(MIXED, strict=False)
    cached = _cached(tmp_path / "c")
    assert cached and {k: v for k, v in cached.items() if v != dict(zip(MIXED, truth))[k]} == {}


def test_a_clean_provider_answering_two_texts_alike_has_both_confirmed_and_cached(serve, clock, tmp_path):
    truth = _alike(MIXED, "en", "es")
    fake = serve("deepl", translate=_alike)
    tr = make(fake, clock=clock, cache=Cache(tmp_path / "c"), batch_size=len(MIXED))
    assert tr.translate(MIXED) == truth and _cached(tmp_path / "c") == dict(zip(MIXED, truth))
    sent = [t for c in fake.calls for t in c.texts]
    assert sent.count("big") == sent.count("large") == 2 and max(sent.count(t) for t in MIXED) == 2
    assert not tr.order_broken


def _grande(texts, source, target):
    return ["grande" if t in ("big", "large", "huge") else o for t, o in zip(texts, dictionary_translate(texts, source, target))]


def test_a_copy_the_second_look_gets_again_from_another_text_that_translates_alike_is_not_confirmed(serve, clock, tmp_path):
    """"dog" is given "big"'s "grande" in its first request, then in the second look "large"'s
    "grande" again: the same answer twice, yet a copy both times. Identical answers within a
    request of the second look confirm nothing: the texts go alone."""
    texts = ["dog", "big", "cat", "large", "huge", "house"]
    truth = _grande(texts, "en", "es")

    def copier(batch, source, target):
        out = _grande(batch, source, target)
        return [out[1]] + out[1:] if len(out) > 1 else out

    fake = serve("deepl", translate=copier)
    tr = make(fake, clock=clock, cache=Cache(tmp_path / "c"), batch_size=2)
    assert tr.translate(texts) == truth and _cached(tmp_path / "c") == dict(zip(texts, truth))


@pytest.mark.parametrize("size", [2, 3])
def test_texts_answered_alike_in_different_requests_meet_apart_in_the_second_look(serve, size, clock, tmp_path):
    """"big" and "large" (both "grande") held from two requests: placed together in the second
    look, their alike answers would confirm nothing and both, with their groups, would go alone
    (9 requests where 5 do at size 2, 8 where 4 do at size 3)."""
    texts = ["big", "large", "dog", "cat", "bank", "the house"]
    truth = _alike(texts, "en", "es")
    fake = serve("deepl", translate=_alike)
    tr = make(fake, clock=clock, cache=Cache(tmp_path / "c"), batch_size=size)
    assert tr.translate(texts) == truth and _cached(tmp_path / "c") == dict(zip(texts, truth))
    sent = [t for c in fake.calls for t in c.texts]
    assert max(sent.count(t) for t in texts) == 2  # asked once more at most: none went alone after
