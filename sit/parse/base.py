"""The ``Parser`` face: ``parse(texts) -> trees``, in batches, with a progress bar."""

from __future__ import annotations

from typing import Optional, Sequence

from ..cache import MISSING
from ..records import Tree
from ..progress import progress

EMPTY_TREE = Tree((), (), ())


class Parser:
    name: str = "base"
    batch_size: int = 64

    def __init__(
        self,
        lang: str,
        *,
        model: Optional[str] = None,
        progress: bool = False,
        batch_size: Optional[int] = None,
        cache=None,
        device: Optional[str] = None,
    ):
        self.lang = lang
        self.model = model
        self.device = device  # the torch device of parsers that run on torch (Stanza); spaCy's run on the CPU
        self.progress = progress
        self.cache = cache
        self.cache_hits = 0
        if batch_size:
            self.batch_size = batch_size

    def model_id(self) -> str:
        return self.model or self.name

    def parse(self, texts: Sequence[str]) -> list[Tree]:
        """Parse each text (all its sentences) into one :class:`Tree`; identical texts are parsed
        once, and texts parsed by an earlier run come from the cache."""
        store = None
        if self.cache is not None:
            store = self.cache.store("parses", {"name": self.name, "model": self.model_id(), "lang": self.lang})
        trees: dict[str, Tree] = {}
        unique = []
        for t in dict.fromkeys(texts):
            if not t.strip():
                continue
            hit = store.get(t, MISSING) if store is not None else MISSING
            if hit is MISSING:
                unique.append(t)
            else:
                trees[t] = Tree.from_dict(hit)
                self.cache_hits += 1
        with progress(len(unique), f"parse ({self.name})", "text", self.progress) as bar:
            for start in range(0, len(unique), self.batch_size):
                chunk = unique[start : start + self.batch_size]
                parsed = self._parse_batch(chunk)
                if store is not None:
                    store.put_many((t, tree.to_dict()) for t, tree in zip(chunk, parsed))
                trees.update(zip(chunk, parsed))
                bar.update(len(chunk))
        return [trees.get(t, EMPTY_TREE) for t in texts]

    def _parse_batch(self, texts: list[str]) -> list[Tree]:
        raise NotImplementedError


def segment_chinese(text: str) -> list[str]:
    """Words of a Chinese text, segmented by jieba (its dictionary ships in the wheel)."""
    import jieba

    jieba.setLogLevel(60)
    return [w for w in jieba.lcut(text) if w.strip()]
