"""The cheap paths of a cached re-run (issue 36) give what the full ones give."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import asdict

from sit.records import Edit
from sit.textcheck.untranslated import written_as


def test_written_as_answers_as_the_whole_word_search():
    # found: lower case anywhere, capitalised where a sentence starts
    assert written_as("software", "El software es nuevo.")
    assert written_as("software", "Es nuevo. Software libre")
    # not found: capitalised mid-sentence, inside a longer word, or absent
    assert not written_as("software", "El Software es nuevo.")
    assert not written_as("cat", "un catálogo")
    assert not written_as("cat", "un gato")
    # re's IGNORECASE finds the Kelvin sign and a dotted capital I, neither of which is the word as written
    assert not written_as("kit", "el \u212ait nuevo")
    assert not written_as("iron", "el \u0130ron nuevo")


def test_edit_to_dict_is_every_field_as_it_is():
    edit = Edit(3, "big", "large", "wordnet", 4, 9, zipf=4.5, similarity=0.91, lm_fall=0.2, change="substitution",
                naturalness=0.7)
    assert edit.to_dict() == asdict(edit)
    assert list(edit.to_dict()) == list(asdict(edit))  # same keys in the same order: the same JSON
    plain = Edit(0, "a", "b", "mlm")
    assert "naturalness" not in plain.to_dict()
    assert plain.to_dict() == {k: v for k, v in asdict(plain).items() if k != "naturalness"}


def test_a_model_absent_from_the_hub_cache_loads_no_hub_client(tmp_path):
    code = ("import sys; from sit.models.hub import hf_cache_missing, hf_cached_file; "
            "print(hf_cache_missing('org/absent-model'), hf_cached_file('org/absent-model', 'config.json'), "
            "'huggingface_hub.file_download' in sys.modules)")
    env = {**os.environ, "HF_HUB_CACHE": str(tmp_path), "HF_HUB_OFFLINE": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.split() == ["None", "None", "False"]
    (tmp_path / "models--org--absent-model" / "snapshots").mkdir(parents=True)  # there, but holding nothing
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.split() == ["None", "None", "True"]
