"""The mission's command on a fresh machine: `sit run --dataset politics --translator marian` in an
empty HOME downloads every model it needs from a model hub (a fake one on 127.0.0.1 speaking the
Hugging Face Hub's and Stanza's protocols, serving tiny models under the real ids), runs the
Chinese path (MarianMT, the masked LM chosen by ``auto``, jieba then Stanza) and writes its
reports; then runs again offline from what it downloaded, sending no request at all.

Every run is a real ``python -m sit.cli`` process with the environment a user would have."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from conftest import requires_torch

pytestmark = requires_torch


ROOT = Path(__file__).resolve().parent.parent
MISSION = ["run", "--dataset", "politics", "--translator", "marian"]
# what a user's environment may hold that would point sit somewhere else than the empty HOME
_LEAKS = ("HF_HUB_OFFLINE", "HF_HOME", "HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE", "TRANSFORMERS_CACHE", "XDG_CACHE_HOME",
          "STANZA_RESOURCES_DIR", "STANZA_RESOURCES_URL", "HF_ENDPOINT", "NLTK_DATA", "SIT_DATA_DIR")


def fresh_env(home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _LEAKS}
    env.update(HOME=str(home), PYTHONPATH=str(ROOT), **extra)
    return env


def sit(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sit.cli", *args], env=env, cwd=cwd, capture_output=True,
                          text=True, timeout=300)


def test_the_mission_command_downloads_what_it_needs_then_runs_offline(model_hub, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    online = fresh_env(home, SIT_CACHE_DIR=str(tmp_path / "cache1"), **model_hub.env())
    first = sit(MISSION + ["--limit", "3", "--out", "run1"], online, tmp_path)
    assert first.returncode == 0, first.stderr[-3000:]

    # everything came from the hub, into the places transformers and Stanza keep them
    got = {path for method, path in model_hub.requests if method == "GET"}
    hub_cache = home / ".cache" / "huggingface" / "hub"
    for repo in ("Helsinki-NLP--opus-mt-en-zh", "bert-base-uncased"):
        assert list((hub_cache / f"models--{repo}" / "snapshots").glob("*/model.safetensors")), repo
    assert any(p.startswith("/stanza/resources_") for p in got)
    stanza_home = home / ".cache" / "stanza"
    assert sorted(p.parent.name for p in stanza_home.glob("*/resources/zh-hans/*/tiny.pt")) == [
        "depparse", "lemma", "pos", "pretrain", "tokenize"]
    assert "downloading Stanza's zh-hans models" in first.stderr

    # the default perturber chose the masked LM and used it; Stanza parsed jieba's words
    meta = json.loads((tmp_path / "run1" / "run.json").read_text(encoding="utf-8"))
    assert meta["perturber_reason"].startswith("mlm:"), meta["perturber_reason"]
    assert meta["parser_reason"].startswith("stanza:"), meta["parser_reason"]
    assert meta["counts"]["perturbations"] > 0 and meta["counts"]["translated"] > 0
    pairs = [json.loads(line) for line in (tmp_path / "run1" / "pairs.jsonl").read_text(encoding="utf-8").splitlines()]
    substitutions = [p for p in pairs if p["relation"] == "sit"]
    assert substitutions and all(p["edit"]["perturber"] == "mlm" for p in substitutions)
    translations = (tmp_path / "run1" / "translations.jsonl").read_text(encoding="utf-8")
    assert any("\u4e00" <= ch <= "\u9fff" for ch in translations)  # Chinese, from the tiny opus-mt-en-zh
    assert (tmp_path / "run1" / "report.txt").is_file() and (tmp_path / "run1" / "report.html").is_file()

    # offline: the same command from what was downloaded (a new cache: every model must load),
    # with the hub still listening: it hears nothing
    before = model_hub.count()
    offline = fresh_env(home, SIT_CACHE_DIR=str(tmp_path / "cache2"), HF_HUB_OFFLINE="1", **model_hub.env())
    second = sit(MISSION + ["--limit", "3", "--out", "run2"], offline, tmp_path)
    assert second.returncode == 0, second.stderr[-3000:]
    assert model_hub.count() == before, model_hub.requests[before:]
    meta2 = json.loads((tmp_path / "run2" / "run.json").read_text(encoding="utf-8"))
    assert meta2["perturber_reason"].startswith("mlm:") and meta2["parser_reason"].startswith("stanza:")
    for name in ("pairs.jsonl", "translations.jsonl", "issues.jsonl"):  # the same models, the same findings
        assert (tmp_path / "run2" / name).read_bytes() == (tmp_path / "run1" / name).read_bytes(), name

    # and with the hub gone altogether (no HF_HUB_OFFLINE: sit finds the hub unreachable itself)
    model_hub.stop()
    gone = fresh_env(home, SIT_CACHE_DIR=str(tmp_path / "cache2"), **model_hub.env_when_started)
    third = sit(MISSION + ["--limit", "3", "--out", "run3"], gone, tmp_path)
    assert third.returncode == 0, third.stderr[-3000:]
    assert (tmp_path / "run3" / "issues.jsonl").read_bytes() == (tmp_path / "run1" / "issues.jsonl").read_bytes()
