"""Dependency parsing with Stanza (the default where its models are installed).

Stanza downloads models from a hub; sit never downloads at run time. Models are looked up in
``--parser-model`` (a directory), ``$STANZA_RESOURCES_DIR`` or ``~/stanza_resources``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

from ..errors import MissingDependencyError
from ..records import Tree
from .base import Parser, segment_chinese

_STANZA_LANG = {"zh": "zh-hans"}


def stanza_dir(explicit: Optional[str] = None) -> Path:
    return Path(explicit or os.environ.get("STANZA_RESOURCES_DIR") or Path.home() / "stanza_resources")


def stanza_models_present(lang: str, model_dir: Optional[str] = None) -> bool:
    d = stanza_dir(model_dir)
    code = _STANZA_LANG.get(lang, lang)
    return (d / "resources.json").exists() and (d / code / "depparse").is_dir()


class StanzaParser(Parser):
    name = "stanza"
    uses_gpu = True  # an engine gives its workers --gpus-per-worker
    batch_size = 32

    def __init__(self, lang: str, *, model: Optional[str] = None, device: Optional[str] = None, **kwargs):
        from ..resources import resolve_device

        super().__init__(lang, model=model, device=resolve_device(device, "Stanza's models"), **kwargs)
        self.code = _STANZA_LANG.get(lang, lang)
        if not stanza_models_present(lang, model):
            raise MissingDependencyError(
                f"no Stanza models for {lang!r} in {stanza_dir(model)}; download them once with "
                f"`python -c \"import stanza; stanza.download('{self.code}')\"` (needs internet), "
                "or use --parser spacy"
            )
        try:
            import stanza
        except ImportError as exc:
            raise MissingDependencyError("the stanza parser needs: pip install stanza") from exc
        self._stanza = stanza
        self.pretokenized = lang == "zh"
        self.nlp = stanza.Pipeline(
            self.code,
            dir=str(stanza_dir(model)),
            processors="tokenize,pos,lemma,depparse",
            download_method=None,
            tokenize_pretokenized=self.pretokenized,
            device=self.device,
            logging_level="WARN",
        )

    def model_id(self) -> str:
        return f"stanza-{self.code}-{getattr(self._stanza, '__version__', '')}"

    def _parse_batch(self, texts: list[str]) -> list[Tree]:
        if self.pretokenized:
            texts = [" ".join(segment_chinese(t)) for t in texts]
        docs = self.nlp.bulk_process([self._stanza.Document([], text=t) for t in texts])
        trees = []
        for doc in docs:
            tokens, heads, rels = [], [], []
            offset = 0
            for sent in doc.sentences:
                for w in sent.words:
                    tokens.append(w.text)
                    heads.append(w.head + offset if w.head else 0)
                    rels.append((w.deprel or "dep").lower())
                offset += len(sent.words)
            trees.append(Tree(tuple(tokens), tuple(heads), tuple(rels)))
        return trees
