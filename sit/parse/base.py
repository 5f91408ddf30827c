"""The ``Parser`` face: ``parse(texts) -> trees``, in batches, with a progress bar."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Optional, Sequence

from ..batching import cached_batches
from ..errors import ModelError
from ..records import Tree
from ..stage import Stage

EMPTY_TREE = Tree((), (), ())


def well_formed(tree) -> bool:
    """A :class:`Tree` whose tokens and relations are text and heads are 0 (the root) or a token's
    1-based position: what the batch loop accepts from the parser and from the cache (a damaged
    cache line with null tokens is parsed again)."""
    if not isinstance(tree, Tree):
        return False
    n = len(tree.tokens)
    return (all(isinstance(t, str) for t in tree.tokens) and all(isinstance(r, str) for r in tree.relations)
            and all(isinstance(h, int) and not isinstance(h, bool) and 0 <= h <= n for h in tree.heads))


class Parser(Stage):
    name: str = "base"
    kind = "parses"
    verb = "parse"
    unit = "text"
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
        super().__init__(cache=cache, progress=progress)
        self.lang = lang
        self.model = model
        self.device = device  # the torch device of parsers that run on torch (Stanza); spaCy's run on the CPU
        if batch_size:
            self.batch_size = batch_size

    def model_id(self) -> str:
        return self.model or self.name

    def signature(self) -> dict:
        return {"name": self.name, "model": self.model_id(), "lang": self.lang}

    def parse(self, texts: Sequence[str]) -> list[Tree]:
        """Parse each text (all its sentences) into one :class:`Tree`; identical texts are parsed
        once, and texts parsed by an earlier run come from the cache."""
        job = self.batch_job("_parse_batch", valid=well_formed, encode=Tree.to_dict,
                             decode=Tree.from_dict)
        trees = cached_batches([t for t in texts if t.strip()], job)
        return [trees.get(t, EMPTY_TREE) for t in texts]

    def _mismatch(self, n: int, total: int, sent: int, got: int) -> ModelError:
        return ModelError(f"{self.name} parser: batch {n} of {total} sent {sent} text(s) and got {got} tree(s) back")

    def _parse_batch(self, texts: list[str]) -> list[Tree]:
        raise NotImplementedError


def segment_chinese(text: str) -> list[str]:
    """Words of a Chinese text, segmented by jieba (its dictionary ships in the wheel)."""
    import jieba

    jieba.setLogLevel(60)
    return [w for w in jieba.lcut(text) if w.strip()]


class EarlyTrees(Mapping):
    """Trees of translations a run parsed early (beside the perturber), by translation, for the
    check stage (``RunContext.early_trees``). The first ``hold`` trees are held; past them, where
    ``parser`` has a cache, only which texts were parsed is held here and each tree is read back
    from the cache when it is asked for (a run's trees are not all held at once: memory follows
    the check stage's window, not the input); without a cache, the trees themselves are held. A
    tree the cache no longer gives is parsed again."""

    def __init__(self, parser: Parser, hold: int = 5_000):
        self.parser = parser
        #: trees held (about 3 KB each) before the rest are read back from the cache: a run of a
        #: few hundred sentences reads each tree once, beside the perturber, as it always did
        self.hold = hold
        self.held: dict[str, Tree] = {}
        self.stored: set[str] = set()

    def parse(self, texts: Sequence[str]) -> None:
        """Parse ``texts`` now, through the parser's cache; their trees are held up to
        :attr:`hold`. Past it, those the cache holds already are not read here (the check stage
        reads them, once) and count as the parser's cache hits, as a parse would count them."""
        store = self.parser.store
        if store is None or len(self.held) + len(texts) <= self.hold:
            self.held.update(zip(texts, self.parser.parse(texts)))
            return
        have = store.keys_in(texts)
        todo = [t for t in texts if t not in have]
        self.add(todo, self.parser.parse(todo))
        if have:
            self.parser.stats.cache_hits += len(have)
            self.stored.update(t for t in texts if t in have)

    def add(self, texts: Sequence[str], trees: Sequence[Tree]) -> None:
        """Texts just parsed by :attr:`parser` (through its cache, where it has one) and their trees."""
        if self.parser.store is None:
            self.held.update(zip(texts, trees))
        else:
            self.stored.update(texts)

    def many(self, texts: Sequence[str]) -> dict[str, Tree]:
        """The trees of ``texts`` (each one this holds), read from the cache in one go."""
        stored = [t for t in dict.fromkeys(texts) if t in self.stored and t not in self.held]
        hits = self.parser.store.get_many(stored) if stored else {}
        out = {t: self.held[t] for t in texts if t in self.held}
        for text in stored:
            tree = _tree_or_none(hits.get(text))
            out[text] = tree if tree is not None else self.parser.parse([text])[0]
        return out

    def __getitem__(self, text: str) -> Tree:
        if text in self.held:
            return self.held[text]
        if text not in self.stored:
            raise KeyError(text)
        tree = _tree_or_none(self.parser.store.get(text, None))
        return tree if tree is not None else self.parser.parse([text])[0]

    def __contains__(self, text: object) -> bool:
        return text in self.held or text in self.stored

    def __iter__(self) -> Iterator[str]:
        yield from self.held
        yield from self.stored

    def __len__(self) -> int:
        return len(self.held) + len(self.stored)


def _tree_or_none(value) -> Optional[Tree]:
    """A cached tree decoded, or None where the cache has none or a damaged one."""
    try:
        tree = Tree.from_dict(value)
    except (TypeError, ValueError, KeyError, AttributeError, IndexError):
        return None
    return tree if well_formed(tree) else None
