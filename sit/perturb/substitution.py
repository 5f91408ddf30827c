"""What the SIT perturbers share: tag a sentence, pick the nouns and adjectives to replace, build
the new sentences, and keep only replacements whose re-tagged POS matches the original's."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Optional

from ..records import Edit

TARGET_POS = ("NOUN", "ADJ")


@dataclass(frozen=True)
class Slot:
    """A replaceable token: its index, text, coarse and fine POS tags and lemma."""

    index: int
    text: str
    pos: str
    tag: str
    lemma: str


@dataclass(frozen=True)
class Candidate:
    sentence_index: int
    slot: Slot
    word: str
    text: str  # the whole new sentence
    char_start: int


class Tagger:
    """An English POS tagger (a spaCy pipeline, loaded once and passed in)."""

    def __init__(self, nlp=None, *, model: Optional[str] = None):
        if nlp is None:
            from ..resources import load_spacy

            nlp = load_spacy("en", model, disable=("ner", "parser", "lemmatizer_x"))
        self.nlp = nlp

    def model_id(self) -> str:
        meta = self.nlp.meta
        return f"{meta.get('lang', 'en')}_{meta.get('name', '?')}-{meta.get('version', '')}"

    def tag(self, texts: Iterable[str]):
        return list(self.nlp.pipe(texts, batch_size=64))


def slots(doc, pos: tuple[str, ...] = TARGET_POS) -> list[Slot]:
    """Nouns and adjectives that are neither the first nor the last token."""
    out = []
    n = len(doc)
    for tok in doc:
        if tok.i in (0, n - 1) or tok.pos_ not in pos:
            continue
        if not tok.text.isalpha() or len(tok.text) < 2:
            continue
        out.append(Slot(tok.i, tok.text, tok.pos_, tok.tag_, (tok.lemma_ or tok.text).lower()))
    return out


def replace_token(doc, index: int, word: str) -> tuple[str, int]:
    """The text of ``doc`` with token ``index`` replaced by ``word`` (whitespace kept exactly),
    and the character offset where ``word`` starts."""
    parts = []
    start = 0
    for tok in doc:
        if tok.i == index:
            start = sum(len(p) for p in parts)
            parts.append(word + tok.whitespace_)
        else:
            parts.append(tok.text_with_ws)
    return "".join(parts), start


def match_case(word: str, like: str) -> str:
    if like.isupper() and len(like) > 1:
        return word.upper()
    if like[:1].isupper():
        return word[:1].upper() + word[1:]
    return word


def acceptable(word: str, original: str) -> bool:
    """Drop punctuation, subword pieces, one-character words and the original word itself."""
    return (
        len(word) > 1
        and word.isalpha()
        and not word.startswith("##")
        and word.lower() != original.lower()
    )


def filter_by_pos(
    tagger: Tagger, candidates: list[Candidate], perturber: str, n_sentences: int
) -> list[list[tuple[str, Edit]]]:
    """Re-tag every candidate sentence (one batched pass) and keep those whose token at the slot
    is the new word with the same coarse POS. Returns, per sentence index, (text, edit) pairs."""
    docs = tagger.tag(c.text for c in candidates)
    kept: dict[int, list[tuple[str, Edit]]] = {}
    seen: set[tuple[int, str]] = set()
    for cand, doc in zip(candidates, docs):
        i = cand.slot.index
        if i >= len(doc) or doc[i].text != cand.word or doc[i].pos_ != cand.slot.pos:
            continue
        if (cand.sentence_index, cand.text) in seen:
            continue
        seen.add((cand.sentence_index, cand.text))
        edit = Edit(
            position=i,
            before=cand.slot.text,
            after=cand.word,
            perturber=perturber,
            char_start=cand.char_start,
            char_end=cand.char_start + len(cand.word),
            level="word",
        )
        kept.setdefault(cand.sentence_index, []).append((cand.text, edit))
    return [kept.get(n, []) for n in range(n_sentences)]
