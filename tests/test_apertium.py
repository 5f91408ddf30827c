"""The Apertium adapter on the real, offline Apertium."""

import subprocess

import pytest
from conftest import requires_apertium

from sit.cache import Cache
from sit.errors import MissingDependencyError
from sit.translators import get_translator

pytestmark = requires_apertium


def test_translates_a_batch_in_one_process_and_keeps_lines_aligned(tmp_path):
    t = get_translator("apertium", target_lang="es", cache=Cache(tmp_path))
    texts = [
        "Shares of the company fell sharply after the earnings report.",
        "The price is $5 [approx] ^ {x} \\ <b>bold</b>.",
        "A line\nwith a newline inside.",
        "The dog sleeps.",
    ]
    out = t.translate(texts)
    assert out[0] == "Las acciones de la empresa cayeron bruscamente después del informe de ingresos."
    alone = subprocess.run(["apertium", "-u", "eng-spa"], input=texts[3], capture_output=True, text=True).stdout
    assert out[3] == alone.strip(), "the last line of a batch is the translation of the last text"
    assert "\n" not in out[2] and len(out) == 4
    assert t.stats.calls == 1


def test_texts_translated_apart_go_many_to_a_call_and_a_batch_size_given_is_kept(tmp_path):
    from sit.translators.apertium import APART_BATCH_SIZE

    t = get_translator("apertium", target_lang="es", cache=Cache(tmp_path / "a"))
    assert t.batch_independent and t.batch_size == APART_BATCH_SIZE > 256
    texts = [f"The council approved {n} new schools on Monday." for n in range(1, 40)]
    out = t.translate(texts)
    assert t.stats.calls == 1
    small = get_translator("apertium", target_lang="es", cache=Cache(tmp_path / "b"), batch_size=8)
    assert small.batch_size == 8
    assert small.translate(texts) == out and small.stats.calls == 5, "the same translations in calls of 8"


def test_signature_names_pair_and_versions():
    t = get_translator("apertium", target_lang="ca")
    sig = t.signature()
    assert sig["model"] == "eng-cat" and sig["target_lang"] == "ca"
    assert sig["version"], "the Debian package versions key the cache"


@pytest.mark.parametrize("target, package", [("gl", "apertium-en-gl"), ("eo", "apertium-eo-en")])
def test_missing_pair_names_the_apt_package(target, package):
    """A pair Debian ships but this machine lacks: its package (en-eo comes in apertium-eo-en)."""
    with pytest.raises(MissingDependencyError, match=f"; install it with: apt-get install {package}$"):
        get_translator("apertium", target_lang=target)


@pytest.mark.parametrize("target, pair", [("fr", "eng-fra"), ("de", "eng-deu"), ("zh", "eng-zh")])
def test_a_pair_debian_lacks_names_no_package_but_what_works(target, pair):
    with pytest.raises(MissingDependencyError) as err:
        get_translator("apertium", target_lang=target)
    message = str(err.value)
    assert f"Debian packages no Apertium {pair} pair" in message and "use --translator marian" in message
    assert "apt-get install" not in message


def test_phrases_without_final_punctuation_do_not_bleed_into_each_other(tmp_path):
    """One text per line let Apertium's transfer move words across lines when a text does not
    end a sentence ("... with las charlas" / "de presidente en ..."); every text of a batch must
    translate as it does alone."""
    phrases = ["a heated argument with the president", "talks on the border dispute", "the new budget"]
    t = get_translator("apertium", target_lang="es", cache=Cache(tmp_path))
    batch = t.translate(phrases)
    alone = [subprocess.run(["apertium", "-u", "eng-spa"], input=p, capture_output=True, text=True).stdout.strip()
             for p in phrases]
    assert batch == alone
    assert "presidente" in batch[0] and "presidente" not in batch[1]


def _alone(text: str, pair: str = "eng-spa") -> str:
    """The oracle: ``text`` in an ``apertium`` process of its own."""
    return subprocess.run(["apertium", "-u", pair], input=text, capture_output=True, text=True).stdout.strip()


# "included" has an ambiguity class the eng-spa tagger was not trained on; in one process, the
# tagger then tags every later unknown word ("tuition", "superintendent") from a smaller class
DEPENDENT = ["It was not included.", "They offer free tuition.", "The superintendent said so."]


def test_a_text_translates_as_it_does_alone_whatever_came_before_it(tmp_path):
    whole = subprocess.run(["apertium", "-u", "eng-spa"], input="\n\n".join(DEPENDENT), capture_output=True,
                           text=True).stdout
    assert "gratis" in whole and "dicho" in whole, "one apertium process for the batch: the first text changes the others"
    t = get_translator("apertium", target_lang="es", cache=Cache(tmp_path))
    batch = t.translate(DEPENDENT + DEPENDENT[::-1])
    assert t.stats.calls == 1
    assert batch == [_alone(x) for x in DEPENDENT + DEPENDENT[::-1]]
    assert batch[1] == "Ofrecen libres tuition." and batch[2] == "El superintendent dijo tan."
    assert t.batch_independent is True and t.signature()["batching"] == "null-flush"


def test_texts_with_stream_characters_keep_their_place_and_translate_as_alone(tmp_path):
    texts = ["The price is $5 [approx] ^ {x} \\ <b>bold</b>.", "[", "a \\[ b \\] c ]", "x [\\n\\n] y",
             "It was not included", "tab\there   and\r\nthere", "free tuition"]
    t = get_translator("apertium", target_lang="es", cache=Cache(tmp_path))
    out = t.translate(["   "] + texts + [""])
    assert out[0] == "   " and out[-1] == ""
    assert out[1:-1] == [_alone(" ".join(x.split())) for x in texts]


# texts whose last word swallows the full stop the deformatter adds at a paragraph's end (an
# address, a handle, an abbreviation), or that end in a quote or ALL CAPS, then a text whose
# first word's capital a transfer rule moves (the dropped subject "They")
ENDINGS = ["The minister spoke to reporters @newsdesk.", "Write to press@example.org",
           "Write to press@example.org.", "See https://example.org/report", "The talks were held in the U.S.",
           "Profits rose 5 p.c.", 'He said "no."', "He said “no.”", "He said 'no'", "THE SENATE VOTED ON FRIDAY",
           "It costs $5 etc."]
FOLLOWERS = ["They do not know what happened.", "THEY DO NOT KNOW WHAT HAPPENED.", "the senate voted."]


def test_a_text_after_one_ending_in_an_address_handle_abbreviation_or_quote_translates_as_alone(tmp_path):
    whole = subprocess.run(["apertium", "-u", "eng-spa"], input="Write to press@example.org\n\n" + FOLLOWERS[0],
                           capture_output=True, text=True).stdout
    assert "no saben" in whole, "one apertium process: the address's text changes the case of the next one's"
    alone = {x: _alone(x) for x in ENDINGS + FOLLOWERS}
    t = get_translator("apertium", target_lang="es")  # no cache: every pair is translated
    pairs = {(e, f): t.translate([e, f]) for e in ENDINGS for f in FOLLOWERS}
    assert t.stats.calls == len(pairs)
    assert {k: v for k, v in pairs.items() if v != [alone[k[0]], alone[k[1]]]} == {}
    assert pairs["Write to press@example.org", FOLLOWERS[0]][1] == "No saben qué pasados."
    texts = [x for pair in pairs for x in pair]
    batch = get_translator("apertium", target_lang="es", cache=Cache(tmp_path)).translate(texts)
    assert batch == [alone[x] for x in texts]


def test_modes_are_split_at_the_hmm_tagger_only_where_every_other_stage_keeps_texts_apart():
    from sit.translators.apertium_stages import read_mode

    spa = read_mode("eng-spa")
    assert spa.tagger[:4] == ("apertium-tagger", "-z", "-d", "-g") and spa.tagger[-1].endswith("eng-spa.prob")
    assert spa.front[0][:2] == ("lt-proc", "-z") and spa.back[-1] == ("apertium-retxt",)
    assert ("lt-proc", "-z", "-n") == spa.back[-3][:3], "generation without the unknown-word mark, as apertium -u"
    assert all(s[1] == "-z" for s in spa.front + spa.back if s[0] not in ("apertium-wblank-attach",
                                                                            "apertium-wblank-detach", "apertium-retxt"))
    assert read_mode("eng-cat") is None  # cg-proc, the perceptron tagger (-gx), apertium-anaphora
    assert read_mode("no-such-pair") is None


def test_a_stage_that_fails_is_one_translation_error_and_nothing_is_cached(tmp_path):
    from dataclasses import replace

    from sit.errors import TranslationError

    t = get_translator("apertium", target_lang="es", cache=Cache(tmp_path))
    stages = t._stages
    t._stages = replace(stages, tagger=stages.tagger[:-1] + (str(tmp_path / "missing.prob"),))
    with pytest.raises(TranslationError, match="apertium-tagger stopped"):
        t.translate(["The dog sleeps.", "The cat sleeps."])
    t._stages = replace(stages, back=stages.back[:-1] + (("false",),))
    with pytest.raises(TranslationError, match="apertium failed"):
        t.translate(["The dog sleeps."])
    assert get_translator("apertium", target_lang="es", cache=Cache(tmp_path)).translate(["The dog sleeps."]) == [
        _alone("The dog sleeps.")]


def test_all_caps_and_lower_case_variants_cached_in_a_batch_are_as_alone(tmp_path):
    """Issue 38's probe: cached translations of ALL-CAPS variants differed from the same text
    alone ("El SENADO VOTÓ ..." against "EL SENADO VOTÓ ..."). A sentence beside its ALL-CAPS and
    lower-case copies, as the case relation sends them, cached in one batch, reads back as each
    translated in a process of its own."""
    from sit.inputs import dataset_path

    lines = [line.strip() for line in dataset_path("news").read_text(encoding="utf-8").splitlines() if line.strip()][:12]
    texts = [v for line in lines for v in (line, line.upper(), line.lower())] + ["THE SENATE VOTED ON FRIDAY."]
    get_translator("apertium", target_lang="es", cache=Cache(tmp_path)).translate(texts)
    cached = get_translator("apertium", target_lang="es", cache=Cache(tmp_path))
    assert cached.translate(texts) == [_alone(x) for x in texts] and cached.stats.cache_hits == len(texts)
