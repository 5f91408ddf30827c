"""The ``Parser`` face: ``parse(texts) -> trees``, in batches, with a progress bar."""

from __future__ import annotations

from typing import Optional, Sequence

from ..records import Tree

EMPTY_TREE = Tree((), (), ())


class Parser:
    name: str = "base"
    batch_size: int = 64

    def __init__(self, lang: str, *, model: Optional[str] = None, progress: bool = False, batch_size: Optional[int] = None):
        self.lang = lang
        self.model = model
        self.progress = progress
        if batch_size:
            self.batch_size = batch_size

    def model_id(self) -> str:
        return self.model or self.name

    def parse(self, texts: Sequence[str]) -> list[Tree]:
        """Parse each text (all its sentences) into one :class:`Tree`; identical texts are parsed once."""
        unique = [t for t in dict.fromkeys(texts) if t.strip()]
        trees: dict[str, Tree] = {}
        bar = None
        if self.progress and unique:
            from tqdm.auto import tqdm

            bar = tqdm(total=len(unique), desc=f"parse ({self.name})", unit="text", leave=False)
        try:
            for start in range(0, len(unique), self.batch_size):
                chunk = unique[start : start + self.batch_size]
                trees.update(zip(chunk, self._parse_batch(chunk)))
                if bar is not None:
                    bar.update(len(chunk))
        finally:
            if bar is not None:
                bar.close()
        return [trees.get(t, EMPTY_TREE) for t in texts]

    def _parse_batch(self, texts: list[str]) -> list[Tree]:
        raise NotImplementedError


def segment_chinese(text: str) -> list[str]:
    """Words of a Chinese text, segmented by jieba (its dictionary ships in the wheel)."""
    import jieba

    jieba.setLogLevel(60)
    return [w for w in jieba.lcut(text) if w.strip()]
