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


def test_signature_names_pair_and_versions():
    t = get_translator("apertium", target_lang="ca")
    sig = t.signature()
    assert sig["model"] == "eng-cat" and sig["target_lang"] == "ca"
    assert sig["version"], "the Debian package versions key the cache"


@pytest.mark.parametrize("target, package", [("fr", "apertium-eng-fra"), ("de", "apertium-eng-deu")])
def test_missing_pair_names_the_apt_package(target, package):
    with pytest.raises(MissingDependencyError, match=f"apt-get install {package}"):
        get_translator("apertium", target_lang=target)


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
