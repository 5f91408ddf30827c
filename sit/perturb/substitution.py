"""What the SIT perturbers share: tag a sentence, pick the nouns and adjectives to replace, let the
implementation propose words for them, build the new sentences, and pass the candidates through the
one candidate-quality stage (:mod:`sit.perturb.quality`)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterable, Optional

from ..records import Edit
from .base import NUM_PERTURB, Perturber
from .constraints import CONSTRAINTS, Batch, Constraint
from .quality import QUALITY_OPTIONS, Candidate, QualityFilter, options_from

TARGET_POS = ("NOUN", "ADJ")


@dataclass(frozen=True)
class Slot:
    """A replaceable token: its index, text, coarse and fine POS tags and lemma."""

    index: int
    text: str
    pos: str
    tag: str
    lemma: str


class Tagger:
    """An English tagger and dependency parser (a spaCy pipeline, loaded once and passed in).

    Named entities and lemmas are found only where asked (:meth:`tag` with ``entities=True``):
    the original sentences need them to keep names whole and look words up, the re-tagged
    candidates do not.

    Docs tagged with ``hand_on`` (the perturber's originals) are kept, the last
    :data:`HANDED_ON` of them, for the next call with ``entities`` that asks for the same text,
    which takes them (once): sit's phrases read the originals again after perturbing, and
    tagging them twice cost about 1 s of a cold news run. Let go once taken, a kept doc is held
    only between the two reads."""

    #: how many docs tagged with ``hand_on`` are kept for the next reader (about 20 kB each)
    HANDED_ON = 256

    def __init__(self, nlp=None, *, model: Optional[str] = None):
        if nlp is None:
            from ..models import load_spacy

            nlp = load_spacy("en", model, disable=("lemmatizer_x",))
        self.nlp = nlp
        self._handed: dict[str, Any] = {}  # text -> its doc (tagged with entities), oldest first

    def model_id(self) -> str:
        meta = self.nlp.meta
        return f"{meta.get('lang', 'en')}_{meta.get('name', '?')}-{meta.get('version', '')}"

    def tag(self, texts: Iterable[str], *, entities: bool = False, hand_on: bool = False):
        """Tagged and parsed ``texts``; with ``entities``, also named entities and lemmas (the
        original sentences' slots need both; a re-tagged candidate needs only tags and arcs).
        With ``entities``, the docs handed on for these texts are taken instead of tagging them
        again; with ``hand_on`` too, the docs tagged now are kept for the next such call."""
        if not entities:
            skip = [p for p in ("ner", "lemmatizer") if p in self.nlp.pipe_names]
            return list(self.nlp.pipe(texts, batch_size=64, disable=skip))
        texts = list(texts)
        handed = {t: self._handed.pop(t) for t in texts if t in self._handed}
        todo = [t for t in texts if t not in handed]
        new = iter(self.nlp.pipe(todo, batch_size=64))
        docs = [handed[t] if t in handed else next(new) for t in texts]
        if hand_on:
            self._handed.update((t, doc) for t, doc in zip(texts, docs) if t not in handed)
            for old in list(self._handed)[:max(0, len(self._handed) - self.HANDED_ON)]:
                del self._handed[old]
        return docs


def slots(doc, pos: tuple[str, ...] = TARGET_POS, *, strict: bool = True) -> list[Slot]:
    """Words of the parts of speech ``pos`` (nouns and adjectives by default) that are neither the
    first nor the last token; with ``strict``, only those that can be replaced alone: no stop word
    (``many``, ``other``, ``own``, ``say``), no part of a name (a named entity or a compound of a
    proper noun), no adjective placed after its noun (``attorneys general``), no verb of a phrasal
    verb (``carry out``)."""
    out = []
    n = len(doc)
    for tok in doc:
        if tok.i in (0, n - 1) or tok.pos_ not in pos:
            continue
        if not tok.text.isalpha() or len(tok.text) < 2:
            continue
        if strict and not replaceable_alone(tok):
            continue
        out.append(Slot(tok.i, tok.text, tok.pos_, tok.tag_, (tok.lemma_ or tok.text).lower()))
    return out


def replaceable_alone(tok) -> bool:
    if tok.pos_ == "VERB" and any(child.dep_ == "prt" for child in tok.children):
        return False  # a phrasal verb ("carry out", "set up") means what its parts mean together
    if tok.is_stop or tok.ent_iob_ in ("B", "I") or (tok.dep_ == "compound" and tok.head.pos_ == "PROPN"):
        return False
    if any(child.dep_ == "compound" and child.pos_ == "PROPN" for child in tok.children):
        return False
    return not (tok.pos_ == "ADJ" and tok.dep_ == "amod" and tok.head.i < tok.i)


def replace_token(doc, index: int, word: str, text: Optional[str] = None) -> tuple[str, int]:
    """The text of ``doc`` with token ``index`` replaced by ``word`` (whitespace kept exactly),
    and the character offset where ``word`` starts. ``text`` is ``doc.text``, where the caller
    holds it (a doc joins its tokens anew each time it is asked)."""
    text = doc.text if text is None else text  # the tokens' text_with_ws, one after another
    tok = doc[index]
    return text[:tok.idx] + word + text[tok.idx + len(tok.text):], tok.idx


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


class SubstitutionPerturber(Perturber):
    """One word at a time, replaced by a word the implementation proposes (:meth:`_propose`),
    through the quality stage. Keyword options of the quality stage (``min_zipf``, ``lm``,
    ``max_lm_fall``, ``grammar``, ``collocations``, ``encoder``, ``min_similarity``,
    ``min_word_similarity``, ``per_slot``, ``rank``) are accepted by every implementation; those
    of the checks a lexicon answers (``verb_forms``, ``no_repeats``, ``agreement``, ``supported``,
    ``min_naturalness``: :mod:`sit.perturb.naturalness`) by the implementations that run them."""

    deterministic = True

    @classmethod
    def needs(cls, source_lang: str, target_lang: str, model: Optional[str] = None) -> list:
        """The English spaCy pipeline that tags the sentences (:class:`Tagger`)."""
        from ..models import spacy_need

        return [spacy_need("en")]

    uses_gpu = True  # the masked LM and the sentence encoder: an engine gives workers --gpus-per-worker
    #: the quality stage's checks, in order (:data:`sit.perturb.constraints.CONSTRAINTS`); a
    #: subclass may add its own (docs/plugins.md)
    quality_checks: tuple[type[Constraint], ...] = CONSTRAINTS
    #: the quality stage's options are its own (:data:`sit.perturb.quality.QUALITY_OPTIONS`: typed;
    #: a keyword given None takes the declared default)
    option_specs = (NUM_PERTURB, *QUALITY_OPTIONS)

    def __init__(
        self,
        *,
        num_perturb: int = 10,
        tagger: Optional[Tagger] = None,
        device: Optional[str] = None,
        cache=None,
        progress: bool = False,
        min_zipf: Optional[float] = None,
        lm: Optional[str] = None,
        max_lm_fall: Optional[float] = None,
        grammar: Optional[bool] = None,
        collocations: Optional[bool] = None,
        encoder: Optional[str] = None,
        min_similarity: Optional[float] = None,
        min_word_similarity: Optional[float] = None,
        per_slot: Optional[int] = None,
        rank: Optional[str] = None,
        verb_forms: Optional[bool] = None,
        no_repeats: Optional[bool] = None,
        agreement: Optional[bool] = None,
        supported: Optional[bool] = None,
        min_naturalness: Optional[float] = None,
    ):
        super().__init__(cache=cache, progress=progress)
        self.num_perturb = num_perturb
        from ..models import checked_device

        self.device = checked_device(device, f"the {self.name} perturber")  # a bad one fails now, before any work
        self._tagger = tagger
        quality = dict(min_zipf=min_zipf, lm=lm, max_lm_fall=max_lm_fall, grammar=grammar, collocations=collocations, encoder=encoder,
                       min_similarity=min_similarity, min_word_similarity=min_word_similarity, per_slot=per_slot, rank=rank,
                       verb_forms=verb_forms, no_repeats=no_repeats, agreement=agreement, supported=supported, min_naturalness=min_naturalness)
        self.quality = QualityFilter(options_from(quality), device=self.device, constraints=self.quality_checks,
                                     lexicon=self.lexicon_for_checks())
        #: candidates each quality check dropped, over the sentences perturbed (cached ones too)
        self.dropped: Counter = Counter()

    @property
    def tagger(self) -> Tagger:
        if self._tagger is None:
            self._tagger = Tagger()
        return self._tagger

    def release(self) -> None:
        """The quality stage's models (sentence encoder, n-gram model); the tagger stays, since
        the run tags English sources with it after perturbing."""
        self.quality.release()

    def options(self) -> dict[str, Any]:
        return {"num_perturb": self.num_perturb, **self.quality.signature()}

    def signature(self) -> dict[str, Any]:
        # v3: collocations, related words, dominant senses; cached values carry the drop counts
        # v4: the fluency check; edits carry lm_fall
        return {**super().signature(), "v": 4}

    def slot_parts(self) -> tuple[str, ...]:
        """The parts of speech (spaCy's coarse tags) whose words are replaced: nouns and
        adjectives (:data:`TARGET_POS`)."""
        return TARGET_POS

    def lexicon_for_checks(self) -> Any:
        """What the quality checks may ask of English words (``verb_form``, ``singular``,
        ``article``: :mod:`sit.perturb.naturalness`), or None (the default): checks that need it
        then do not run."""
        return None

    def _propose(self, docs: list, slots_of: list[list[Slot]]) -> list[list[Iterable[str]]]:
        """For each doc and each of its slots, the proposed words, best first (case as proposed):
        any iterable, consumed only until :meth:`_choose` has ``num_perturb`` words."""
        raise NotImplementedError

    def _finish_batch(self, keys: list[str], value) -> list[list[tuple[str, Edit]]]:
        """Keep the drop counts that came with a batch's candidates (computed here or in an
        engine's worker, which has no cache) and answer with the candidates."""
        kept, dropped = value
        self._remember_drops(keys, [Counter(d) for d in dropped])
        return kept

    def _perturb_keys(self, sentences: list[str]):
        """(the kept candidates of each sentence, the drop counts of each sentence)."""
        docs = self.tagger.tag(sentences, entities=True, hand_on=True)  # sit's phrases read them again
        batch = Batch(sentences, docs, self.tagger)
        slots_of = [slots(doc, self.slot_parts(), strict=self.quality.options.grammar) for doc in docs]
        proposals = self._propose(docs, slots_of)
        candidates: list[Candidate] = []
        early = [Counter() for _ in sentences]
        for n, (doc_slots, words_of) in enumerate(zip(slots_of, proposals)):
            for slot, words in zip(doc_slots, words_of):
                candidates.extend(self._choose(words, batch, n, slot, early))
        kept, dropped = self.quality.apply(candidates, batch, self.name)
        for n, counts in enumerate(early):
            dropped[n].update(counts)
        return kept, [dict(d) for d in dropped]

    def _choose(self, words: Iterable[str], batch: Batch, n: int, slot: Slot, dropped: list[Counter]) -> list[Candidate]:
        """The first ``num_perturb`` acceptable, distinct proposals for ``slot`` of sentence ``n``
        that pass the quality stage's word checks (with what they measured: Zipf frequency, n-gram
        fall); the others are counted in ``dropped[n]`` by reason."""
        chosen: dict[str, Candidate] = {}
        sentence = batch.docs[n].text
        for w in words:
            w = match_case(w, slot.text)
            if not acceptable(w, slot.text) or w in chosen:
                continue
            text, start = replace_token(batch.docs[n], slot.index, w, sentence)
            cand = self.quality.word_check(Candidate(n, slot, w, text, start), batch, dropped)
            if cand is None:
                continue
            chosen[w] = cand
            if len(chosen) >= self.num_perturb:
                break
        return list(chosen.values())

    # -- drop counts, kept with the perturbations so a cached re-run reports them too ----------
    def _drop_store(self):
        if self.cache is None:
            return None
        return self.cache.store("perturbation-drops", self.signature())

    def _remember_drops(self, sentences: list[str], dropped: list[Counter]) -> None:
        store = self._drop_store()
        if store is not None:
            store.put_many((s, dict(d)) for s, d in zip(sentences, dropped))
        for d in dropped:
            self.dropped.update(d)

    def perturb(self, sentences, rng=None, *, ids=None, on_texts=None):
        """See :meth:`Perturber.perturb`; also fills :attr:`dropped` for every sentence, computed
        now or read with its cached perturbations."""
        self.dropped = Counter()
        pairs = super().perturb(sentences, rng, ids=ids, on_texts=on_texts)
        store = self._drop_store()
        if store is not None:
            self.dropped = Counter()
            for s in dict.fromkeys(sentences):
                self.dropped.update(store.get(s, {}) or {})
        return pairs
