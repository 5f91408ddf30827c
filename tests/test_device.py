"""``--device`` reaches every model stage (masked LM, sentence encoder, Marian/NLLB/M2M100,
CTranslate2, Stanza), from ``sit run``, ``sit perturb`` and ``sit summarize``; a device this
machine lacks fails before any work in one line naming the flag. The summarizer's and the
paraphraser's own checks are in test_summarize_seq2seq.py. No test here needs a GPU: "cuda:7" is a
device this machine lacks wherever the suite runs on fewer than eight GPUs."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("torch")

from sit.cache import Cache  # noqa: E402
from sit.cli import build_parser, main  # noqa: E402
from sit.errors import ConfigError  # noqa: E402
from sit.parse.stanza_parser import StanzaParser  # noqa: E402
from sit.perturb import PERTURBERS  # noqa: E402
from sit.perturb.cli import perturber_from_args  # noqa: E402
from sit.pipeline import RunConfig, choose_perturber  # noqa: E402
from sit.models.devices import resolve_device  # noqa: E402
from sit.translators import get_translator  # noqa: E402
from tiny_models import MARIAN_PAIRS  # noqa: E402

MISSING = ["cuda:7", "tpu"]  # a CUDA device this machine lacks, and no torch device at all
SENTENCE = "The president met the minister in the old capital."


def devices(module) -> set[str]:
    """The devices of a torch module's parameters and buffers."""
    return {str(t.device) for t in list(module.parameters()) + list(module.buffers())}


def one_line_device_error(exc: BaseException, device: str) -> None:
    message = str(exc)
    assert "--device" in message and device in message and "\n" not in message, message


@pytest.fixture()
def stages(tiny_bert, tiny_marian, tiny_marian_ct2, tiny_nllb, tiny_m2m100, english_tagger, tmp_path):
    """Each model stage's constructor, given a device."""
    cache = Cache(tmp_path / "cache")
    translator = {name: (lambda d, name=name, path=path: get_translator(
        name, target_lang="es", model=str(path), cache=cache, device=d))
        for name, path in (("marian", tiny_marian), ("nllb", tiny_nllb), ("m2m100", tiny_m2m100),
                           ("ctranslate2", tiny_marian_ct2))}
    return {
        "mlm": lambda d: PERTURBERS.create("mlm", model=str(tiny_bert), tagger=english_tagger, cache=cache, device=d),
        "wordnet": lambda d: PERTURBERS.create("wordnet", tagger=english_tagger, cache=cache, device=d),
        "stanza": lambda d: StanzaParser("es", device=d),
        **translator,
    }


@pytest.mark.parametrize("stage", ["mlm", "wordnet", "marian", "nllb", "m2m100", "ctranslate2", "stanza"])
@pytest.mark.parametrize("device", MISSING)
def test_a_missing_device_fails_when_the_stage_is_built(stages, stage, device):
    with pytest.raises(ConfigError) as err:
        stages[stage](device)
    one_line_device_error(err.value, device)


def test_cpu_reaches_the_masked_lm_and_the_sentence_encoder(stages):
    mlm = stages["mlm"]("cpu")
    assert mlm.device == "cpu" and mlm.quality.encoder.device == "cpu"
    assert mlm.perturb([SENTENCE], random.Random(0))
    assert devices(mlm._model) == {"cpu"}
    assert mlm.quality.encoder.encoded > 0  # the encoder ran, on the device named
    assert devices(mlm.quality.encoder.load().model) == {"cpu"} and str(mlm.quality.encoder.load().device) == "cpu"


@pytest.mark.parametrize("name", ["marian", "nllb", "m2m100"])
def test_cpu_reaches_the_transformers_translators(stages, name):
    tr = stages[name]("cpu")
    assert tr.translate([MARIAN_PAIRS[0][0]])[0]
    assert tr.device == "cpu" and devices(tr._model) == {"cpu"}


def test_cpu_reaches_ctranslate2(stages):
    tr = stages["ctranslate2"]("cpu")
    assert tr.translate([MARIAN_PAIRS[0][0]])[0]
    assert tr._translator.device == "cpu" and tr._translator.device_index == [0]


def test_ctranslate2_takes_cuda_and_cpu_only():
    count = lambda: 0  # noqa: E731 - a runtime that sees no GPU
    assert resolve_device(None, "CTranslate2", cuda_count=count) == "cpu"
    assert resolve_device("cpu", "CTranslate2", cuda_count=count) == "cpu"
    assert resolve_device("cuda:1", "CTranslate2", cuda_count=lambda: 2) == "cuda:1"
    for device, message in (("mps", "CTranslate2 runs on cpu, cuda or cuda:N"), ("cuda", r"0 usable CUDA device\(s\)")):
        with pytest.raises(ConfigError, match=message):
            resolve_device(device, "CTranslate2", cuda_count=count)


def test_sit_run_passes_device_to_its_perturber(tiny_bert, tmp_path):
    config = RunConfig(perturber="mlm", options={"mlm_model": str(tiny_bert)}, device="cpu", progress=False)
    perturber, _ = choose_perturber(config, Cache(tmp_path))
    tokenizer, model = perturber.load()
    assert perturber.device == "cpu" and devices(model) == {"cpu"}


@pytest.mark.parametrize("device", MISSING)
def test_sit_run_refuses_a_missing_device_before_any_work(tmp_path, capsys, device):
    out = tmp_path / "run"
    # the rti relation builds no perturber and apertium runs no torch model: the run itself checks
    rc = main(["run", "--dataset", "politics", "--translator", "apertium", "--relation", "rti", "--limit", "2",
               "--out", str(out), "--no-progress", "--device", device])
    err = capsys.readouterr().err.strip()
    assert rc == 2 and len(err.splitlines()) == 1 and f"--device {device}" in err.replace("'", "")
    assert not out.exists()


@pytest.mark.parametrize("command", ["perturb", "summarize"])
def test_perturb_and_summarize_pass_device_to_the_perturber(tiny_bert, english_tagger, tmp_path, command):
    io = ["--input", "in.txt", "--output", "out.txt"] if command == "perturb" else ["--input", "lead_docs"]
    args = build_parser().parse_args([command, *io, "--perturber", "mlm", "--perturber-option", f"model={tiny_bert}",
                                      "--device", "cpu"])
    perturber = perturber_from_args(args, cache=Cache(tmp_path))
    perturber._tagger = english_tagger
    assert perturber.perturb([SENTENCE], random.Random(0))
    assert perturber.device == "cpu" and devices(perturber._model) == {"cpu"}


@pytest.mark.parametrize("perturbation", ["mlm", "character_swap"])  # with a model, and without one
@pytest.mark.parametrize("device", MISSING)
def test_perturb_and_summarize_refuse_a_missing_device_before_any_work(tiny_bert, tmp_path, capsys, perturbation,
                                                                       device):
    src = tmp_path / "in.txt"
    src.write_text(SENTENCE + "\n", encoding="utf-8")
    option = ["--perturber-option", f"model={tiny_bert}"] if perturbation == "mlm" else []
    runs = {
        "perturb": ["perturb", "--input", str(src), "--output", str(tmp_path / "out.txt")],
        "summarize": ["summarize", "--input", "lead_docs", "--size", "2", "--output", str(tmp_path / "sum.jsonl"),
                      "--no-progress"],
    }
    for name, argv in runs.items():
        rc = main([*argv, "--perturber", perturbation, *option, "--device", device])
        err = capsys.readouterr().err.strip()
        assert rc == 2 and len(err.splitlines()) == 1 and f"--device {device}" in err.replace("'", ""), (name, err)
    assert not (tmp_path / "out.txt").exists() and not (tmp_path / "sum.jsonl").exists()
