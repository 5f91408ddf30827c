"""The offline SIT perturber: same-POS WordNet neighbours of nouns, adjectives and verbs.

Which WordNet relations neighbours come from is the ``neighbours`` option, a comma list of
``synonyms`` (nouns and adjectives), ``cohyponyms`` (other hyponyms of a noun's hypernyms),
``hypernyms`` and ``hyponyms`` (a noun's direct ones) and ``similar`` (an adjective's similar
adjectives); the default, ``synonyms,cohyponyms,similar``, gives nouns their synonyms and
co-hyponyms and adjectives their synonyms and similar adjectives. They are drawn from the word's
``senses`` most frequent senses, or with ``wsd=true`` only from the
sense the word has in the sentence (the one whose gloss the sentence encoder finds closest to the
sentence); plural nouns keep their inflection. With ``verbs`` (the default) verbs are replaced too,
by their synonyms in the senses the verb has in at least :data:`VERB_SENSE_SHARE` of its
sense-tagged uses and, where the verb takes a clausal complement ("urged residents to get"), in
which WordNet's verb frames allow it (:data:`FRAMES`), each inflected as the replaced verb
(tense, person, participle: lemminflect).
With ``usual_senses`` (the default), a neighbour is proposed only in a sense it usually has: the sense is among its own
``DOMINANT_SENSES`` most frequent ones, and the word is used as a noun (adjective) at least as
often as in any other part of speech (``cast``, ``set`` and ``hurt`` are mostly verbs). Candidates
are ordered by WordNet's sense-tagged frequency, so the output is deterministic, and pass the
shared quality stage (:mod:`sit.perturb.quality`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial
from typing import Any, Iterable, Optional

from .constraints import CONSTRAINTS
from .naturalness import VERB_FORM_USES, WORDNET_CONSTRAINTS
from .quality import QUALITY_OPTIONS
from .substitution import TARGET_POS, Slot, SubstitutionPerturber, Tagger

#: the WordNet relations a neighbour may come from (``neighbours=``), and the parts of speech each serves
RELATIONS = {"synonyms": ("NOUN", "ADJ", "VERB"), "cohyponyms": ("NOUN",), "hypernyms": ("NOUN",),
             "hyponyms": ("NOUN",), "similar": ("ADJ",)}
DEFAULT_RELATIONS = ("synonyms", "cohyponyms", "similar")
#: a neighbour's sense must be among its own this many most frequent senses of the part of speech
DOMINANT_SENSES = 2
#: a verb's neighbours come only from the senses the verb has in at least this share of its
#: sense-tagged uses (WordNet's verb senses are fine: "hit" is "reach" in 9% of its uses, "throw"
#: is "shed" in 7%, "go" is "get" in 5%, "rise" is "originate" in 4%), where it has at least
#: :data:`COUNTED_USES` of them
VERB_SENSE_SHARE = 0.08
COUNTED_USES = 10
#: the WordNet verb frames (``Synset.frame_ids()``) that license a clausal complement a verb takes
#: in the sentence (:func:`complement`): "Somebody ----s somebody to INFINITIVE" (24, 25: "urged
#: residents to get", which "urge" has in its sense "urge, press, exhort" and not in "recommend,
#: urge, advocate"), "Somebody ----s to INFINITIVE" (28, 32, 35: "agreed to buy") and "Somebody
#: ----s that CLAUSE" (26, 34: "estimate that losses could exceed")
FRAMES = {"object+infinitive": frozenset({24, 25}), "infinitive": frozenset({28, 32, 35}),
          "that-clause": frozenset({26, 34})}
#: the WordNet perturber's own defaults of two quality options (the shared stage's are 3 and 0):
#: every candidate that passes its checks is kept (no cut to the 3 most similar per word), and a
#: case whose naturalness score is below 0.4 is dropped ("terminating in 29 minutes" 0.35, "a
#: wider textile" 0.20; docs/precision.md, stop 41)
PER_SLOT = 0
MIN_NATURALNESS = 0.4
#: WordNet's synset parts of speech for the slot's coarse tag
WN_POS = {"NOUN": ("n",), "ADJ": ("a", "s"), "VERB": ("v",)}
#: the fine tags of the verbs replaced (a verb's synonym takes the replaced verb's tag: lemminflect)
VERB_TAGS = ("VB", "VBD", "VBG", "VBN", "VBP", "VBZ")


#: a sense key's synset type digit (``lemma%TYPE:...``) -> the synset's part of speech
_SS_TYPES = {"1": "n", "2": "v", "3": "a", "4": "r", "5": "s"}


@dataclass(frozen=True)
class SenseTables:
    """What WordNet's sense-tagged corpus says, read once (:meth:`WordNetPerturber.sense_tables`)."""

    counts: dict[str, int]  # sense key -> count (cntlist.rev)
    #: lemma name -> part of speech -> count, from index.sense (None without that file)
    pos_counts: Optional[dict[str, dict[str, int]]]
    #: (word, data file, synset offset) of senses numbered above DOMINANT_SENSES (None without index.sense)
    rare: Optional[frozenset]


def _read_sense_index(counts: dict[str, int], sense_index) -> tuple[Optional[dict[str, dict[str, int]]], Optional[frozenset]]:
    """From WordNet's ``sense_index`` file (index.sense: sense key, synset offset, sense number,
    count): the ``counts`` of the sense keys it lists, added up by lemma name and part of speech
    (``n``, ``v``, ``a``, ``r``, ``s``), and the senses numbered above :data:`DOMINANT_SENSES`
    among their word's senses in that part of speech, as (word, data file, synset offset): a
    synset's lemmas that differ only in case ("Earth", "earth") have keys of their own, of which
    index.sense lists one; (None, None) without that file."""
    if not sense_index.exists():
        return None, None
    out: dict[str, dict[str, int]] = {}
    rare: set[tuple[str, str, int]] = set()
    with open(sense_index, encoding="utf-8", errors="replace") as fh:
        for line in fh:
            key, offset, number, *_ = line.split(" ")
            name, _, rest = key.partition("%")
            kind = _SS_TYPES[rest[:1]]
            if int(number) > DOMINANT_SENSES:
                rare.add((name, _data_file(kind), int(offset)))
            n = counts.get(key)
            if n:
                per = out.setdefault(name, {})
                per[kind] = per.get(kind, 0) + n
    return out, frozenset(rare)


def complement(tok) -> Optional[str]:
    """The clausal complement the verb ``tok`` takes in its parsed sentence (a key of
    :data:`FRAMES`): a direct object and a "to" infinitive ("urged residents to get"), a "to"
    infinitive alone ("agreed to buy"), a "that" clause ("estimate that losses could exceed");
    None for any other use."""
    has_object = any(child.dep_ == "dobj" for child in tok.children)
    for child in tok.children:
        marks = {(c.dep_, c.lower_) for c in child.children}
        if child.dep_ == "xcomp" and child.tag_ == "VB" and ("aux", "to") in marks:
            return "object+infinitive" if has_object else "infinitive"
        if child.dep_ == "ccomp" and ("mark", "that") in marks:
            return "that-clause"
    return None


def _data_file(kind: str) -> str:
    # the data file a part of speech's synsets are in: satellites with the adjectives
    return "a" if kind == "s" else kind


def parse_neighbours(value) -> tuple[str, ...]:
    """``"synonyms,hypernyms"`` (or a list) -> the known relation names given, in
    :data:`RELATIONS`' order (so the order given changes no signature); a ConfigError naming the
    valid ones for an unknown name or none."""
    from ..errors import ConfigError
    from ..validate import names_list

    if value is None:
        return DEFAULT_RELATIONS
    names = set(names_list(value, "neighbours")) if isinstance(value, (str, list, tuple)) else set()
    if not names or names - set(RELATIONS):
        raise ConfigError(f"neighbours takes a comma list of {', '.join(RELATIONS)}, got {value!r}")
    return tuple(r for r in RELATIONS if r in names)


def related(synset, relation: str) -> list:
    """The synsets ``relation`` links ``synset`` to (``synonyms``: the synset itself)."""
    if relation == "synonyms":
        return [synset]
    if relation == "cohyponyms":
        return [hypo for hyper in synset.hypernyms() for hypo in hyper.hyponyms() if hypo != synset]
    return {"hypernyms": synset.hypernyms, "hyponyms": synset.hyponyms, "similar": synset.similar_tos}[relation]()


def gloss(synset) -> str:
    """What a sense means, as the sentence encoder reads it: "minister, government minister: a
    person appointed to a high office in the government"."""
    names = ", ".join(l.name().replace("_", " ") for l in synset.lemmas()[:4])
    return f"{names}: {synset.definition()}"


class WordNetPerturber(SubstitutionPerturber):
    name = "wordnet"
    batch_size = 32
    #: the shared checks and those of natural substitutes (:mod:`sit.perturb.naturalness`)
    quality_checks = CONSTRAINTS + WORDNET_CONSTRAINTS
    #: the shared options with the defaults its constructor gives them (:data:`PER_SLOT`,
    #: :data:`MIN_NATURALNESS`)
    option_specs = tuple(replace(o, default={"per_slot": PER_SLOT, "min_naturalness": MIN_NATURALNESS}[o.name])
                         for o in QUALITY_OPTIONS if o.name in ("per_slot", "min_naturalness"))

    @classmethod
    def needs(cls, source_lang: str, target_lang: str, model: Optional[str] = None) -> list:
        """The English tagger, and WordNet."""
        from ..models import wordnet_need

        return [*super().needs(source_lang, target_lang), wordnet_need()]

    def __init__(
        self,
        *,
        num_perturb: int = 10,
        senses: int = 5,
        usual_senses: bool = True,
        wsd: bool = False,
        verbs: bool = True,
        neighbours=DEFAULT_RELATIONS,
        per_slot: Optional[int] = PER_SLOT,
        min_naturalness: Optional[float] = MIN_NATURALNESS,
        tagger: Optional[Tagger] = None,
        wordnet_root: Optional[str] = None,
        device: Optional[str] = None,
        cache=None,
        progress: bool = False,
        **quality,
    ):
        super().__init__(num_perturb=num_perturb, tagger=tagger, device=device, cache=cache, progress=progress,
                         per_slot=per_slot, min_naturalness=min_naturalness, **quality)
        from ..validate import check_bool

        self.senses = senses
        self.usual_senses = check_bool(usual_senses, "usual_senses")
        self.wsd = check_bool(wsd, "wsd")
        self.verbs = check_bool(verbs, "verbs")
        self.kinds = parse_neighbours(neighbours)  # the WordNet relations neighbours come from
        self.lexicon = WordNetLexicon(wordnet_root)  # a missing WordNet fails now, with its install hint
        self.root = self.lexicon.root
        self.wn_version = self.lexicon.version
        self._usual: dict[tuple[str, str], frozenset] = {}  # (word, pos) -> the senses it usually has
        self._tables: Optional[SenseTables] = None
        #: what a lemma was found to have, kept for the run (let go by :meth:`release`): its senses
        #: by (lemma, pos), its neighbours by (lemma, pos, senses); news repeats its words
        self._senses: dict[tuple[str, str], list] = {}
        self._neighbours: dict[tuple, list[str]] = {}

    @property
    def wn(self):
        """NLTK's WordNet reader, loaded on first use: a re-run answered from the cache needs none."""
        return self.lexicon.reader

    def release(self) -> None:
        """The quality stage's models and WordNet (its reader, the sense tables and the senses
        looked up): no stage after perturbing reads WordNet through this perturber; each loads
        again if perturbing resumes."""
        super().release()
        self._usual.clear()
        self._senses.clear()
        self._neighbours.clear()
        self._tables = None
        self.lexicon.release()

    def model_id(self) -> str:
        return f"wordnet-{self.wn_version}"

    def options(self):
        # neighbours only where not the default: caches made before the option keep their keys
        chosen = {"neighbours": ",".join(self.kinds)} if self.kinds != DEFAULT_RELATIONS else {}
        if self.verbs:  # only where on: a perturber that never replaces verbs keeps its cache keys
            chosen["verbs"] = f"synonyms,lemminflect,share>={VERB_SENSE_SHARE},frames"
        return {**super().options(), "senses": self.senses, "usual_senses": self.usual_senses,
                "wsd": self.wsd and self.quality.encoder is not None, **chosen}

    def slot_parts(self) -> tuple[str, ...]:
        """Nouns and adjectives, and with ``verbs`` (the default) verbs too."""
        return (*TARGET_POS, "VERB") if self.verbs else TARGET_POS

    def describe(self) -> str:
        which = "" if self.kinds == DEFAULT_RELATIONS else f" ({', '.join(self.kinds)})"
        which += "; verb synonyms, inflected as the verb" if self.verbs else ""
        return (f"wordnet (WordNet {self.wn_version} same-POS neighbours{which}, {self.num_perturb} per word; "
                f"{self.quality.describe()})")

    # -- candidates ----------------------------------------------------------------------------
    def senses_of(self, lemma: str, pos: str) -> list:
        """The senses of ``lemma`` neighbours are drawn from: its ``senses`` most frequent; of a
        verb, with ``usual_senses``, only those of them it has in at least
        :data:`VERB_SENSE_SHARE` of its sense-tagged uses (:meth:`frequent_senses`)."""
        key = (lemma, pos)
        if key not in self._senses:
            synsets = self.wn.synsets(lemma, pos=WN_POS[pos][0])[: self.senses]
            self._senses[key] = self.frequent_senses(lemma, synsets) if pos == "VERB" and self.usual_senses else synsets
        return list(self._senses[key])

    def frequent_senses(self, lemma: str, synsets: list) -> list:
        """The ``synsets`` in which WordNet's sense-tagged corpus uses ``lemma`` in at least
        :data:`VERB_SENSE_SHARE` of its uses in their part of speech; all of them where it counted
        fewer than :data:`COUNTED_USES` uses."""
        counts = self.sense_tables().counts
        uses = [sum(counts.get(l.key(), 0) for l in syn.lemmas() if l.name().lower() == lemma) for syn in synsets]
        kinds = {syn.pos() for syn in synsets}
        total = sum(n for kind, n in self._lemma_pos_counts(lemma).items() if kind in kinds) or sum(uses)
        if total < COUNTED_USES:
            return synsets
        return [syn for syn, n in zip(synsets, uses) if n >= VERB_SENSE_SHARE * total]

    def neighbours(self, lemma: str, pos: str, synsets: Optional[list] = None) -> list[str]:
        """Same-POS neighbours of ``lemma`` (single words) through the chosen ``neighbours`` relations of
        ``synsets`` (default: every sense of :meth:`senses_of`), the first sense's first, then
        most frequent first."""
        synsets = self.senses_of(lemma, pos) if synsets is None else synsets
        key = (lemma, pos, tuple(synsets))
        if key not in self._neighbours:
            self._neighbours[key] = self._find_neighbours(lemma, pos, synsets)
        return list(self._neighbours[key])

    def _find_neighbours(self, lemma: str, pos: str, synsets: list) -> list[str]:
        scores: dict[str, int] = {}
        sense: dict[str, int] = {}

        def add(lemma_obj, rank: int):
            name = lemma_obj.name()
            if not single_word(name):
                return
            word = name.lower()
            if word == lemma or (self.usual_senses and not self.usual_sense(lemma_obj, pos)):
                return
            sense.setdefault(word, rank)
            scores[word] = scores.get(word, 0) + counts.get(lemma_obj.key(), 0)

        counts = self.sense_tables().counts
        kinds = [r for r in self.kinds if pos in RELATIONS[r]]
        for rank, syn in enumerate(synsets):
            for kind in kinds:
                for other in related(syn, kind):
                    for l in other.lemmas():
                        add(l, rank)
        # the most frequent sense's neighbours first, then by sense-tagged frequency, then
        # alphabetically (NLTK's relation lists come in hash order: never rely on it)
        return sorted(scores, key=lambda w: (sense[w], -scores[w], w))

    def usual_sense(self, lemma, pos: str) -> bool:
        """Whether ``lemma`` (an NLTK lemma: a word in one of its senses) is in a sense its word
        usually has: one of the word's :data:`DOMINANT_SENSES` most frequent senses, in the part of
        speech ``pos`` that the word usually takes (sense-tagged counts; a word WordNet never
        counted passes this test). The sense's number comes from index.sense where WordNet has it
        (no synset is read), else from the order of NLTK's synsets, looked up once per word."""
        word = lemma.name().lower()
        own, other = self.pos_counts(word, pos)
        if own < other:
            return False
        rare = self.sense_tables().rare
        if rare is not None:
            synset = lemma.synset()
            return (word, _data_file(synset.pos()), synset.offset()) not in rare
        key = (word, pos)
        if key not in self._usual:
            self._usual[key] = frozenset(self.wn.synsets(word, pos=WN_POS[pos][0])[:DOMINANT_SENSES])
        return lemma.synset() in self._usual[key]

    def pos_counts(self, word: str, pos: str) -> tuple[int, int]:
        """How often WordNet's sense-tagged corpus uses ``word`` in the part of speech ``pos``
        (``NOUN``, ``ADJ``), and in any other: what ``Lemma.count()`` gives for each of
        ``wn.lemmas(word)``, added up by part of speech."""
        own = other = 0
        for kind, n in self._lemma_pos_counts(word.lower()).items():
            if kind in WN_POS[pos]:
                own += n
            else:
                other += n
        return own, other

    def _lemma_pos_counts(self, word: str) -> dict[str, int]:
        # {part of speech: count} of the senses of lemmas named ``word``: from the sense keys that
        # index.sense lists (no synset is read), or where WordNet lacks that file, from NLTK's
        # lemmas, each sense key once (NLTK lists forest.n.01 twice among the synsets of "woods"):
        # slower, the same counts. cntlist.rev also holds keys of senses WordNet 3.0 no longer has
        # ("mutual%5:00:00:reciprocal:00"), which neither way counts
        tables = self.sense_tables()
        if tables.pos_counts is not None:
            return tables.pos_counts.get(word, {})
        out: dict[str, int] = {}
        for lemma in {l.key(): l for l in self.wn.lemmas(word)}.values():
            kind = lemma.synset().pos()
            out[kind] = out.get(kind, 0) + tables.counts.get(lemma.key(), 0)
        return out

    def sense_tables(self) -> SenseTables:
        """The sense-tagged frequencies by sense key, read once from ``cntlist.rev`` (what NLTK's
        ``Lemma.count()`` binary-searches on disk at every call), and what index.sense adds to
        them (:func:`_read_sense_index`)."""
        if self._tables is None:
            counts: dict[str, int] = {}
            path = self._wordnet_file("cntlist.rev")
            if path.exists():
                with open(path, encoding="utf-8", errors="replace") as fh:
                    for line in fh:
                        parts = line.split()
                        if len(parts) >= 3 and parts[2].isdigit():
                            counts[parts[0]] = counts.get(parts[0], 0) + int(parts[2])
            self._tables = SenseTables(counts, *_read_sense_index(counts, self._wordnet_file("index.sense")))
        return self._tables

    def _wordnet_file(self, name: str):
        from pathlib import Path

        return Path(self.root) / "corpora" / "wordnet" / name

    # -- what the natural-substitute checks ask (sit.perturb.naturalness) ----------------------
    def lexicon_for_checks(self) -> "WordNetPerturber":
        return self

    def verb_form(self, word: str, pos: str) -> bool:
        """Whether ``word``, standing as a ``NOUN`` or ``ADJ``, is a verb's gerund or participle
        rather than a word of that part of speech in its own right: it ends in -ing, -ed or -en,
        WordNet reduces it to another verb lemma, and WordNet's sense-tagged corpus uses it in
        part of speech ``pos`` fewer than :data:`VERB_FORM_USES` times ("funding", "selling",
        "closing", "compelling" are; "building", "meeting", "training", "interested" are not)."""
        word = word.lower()
        if not word.endswith(("ing", "ed", "en")):
            return False
        base = self.wn.morphy(word, "v")
        return base is not None and base != word and self.pos_counts(word, pos)[0] < VERB_FORM_USES

    def singular(self, word: str) -> str:
        """The singular WordNet gives for the noun ``word`` (``word`` itself where it gives none)."""
        return self.wn.morphy(word.lower(), "n") or word.lower()

    def article(self, word: str) -> str:
        """``a`` or ``an``, as English writes it before ``word``."""
        return self.lexicon.article(word)

    def plural(self, word: str) -> str:
        """The plural of the noun ``word`` (``word`` itself where none is known)."""
        return self.lexicon.plural(word.lower())

    def inflect(self, word: str, tag: str) -> str:
        """``word`` (a lemma) inflected like a word tagged ``tag``: a plural noun, a verb's
        tense, person or participle ("approve" as VBD -> "approved"; "seek" as VBZ -> "seeks")."""
        if tag in VERB_TAGS:
            return self.lexicon.verb_form(word, tag)
        return self.lexicon.plural(word) if tag in ("NNS", "NNPS") else word

    def _propose(self, docs: list, slots_of: list[list[Slot]]) -> list[list[Iterable[str]]]:
        """WordNet neighbours of each slot's lemma (inflected like the slot, lazily: a perturber
        takes only its first ``num_perturb`` acceptable ones, so most are never inflected);
        comparatives, superlatives and proper-noun tags are left alone (they would need
        re-inflection)."""
        senses = self._disambiguate(docs, slots_of)
        for n, doc_slots in enumerate(slots_of):
            for k, slot in enumerate(doc_slots):
                frame = complement(docs[n][slot.index]) if slot.pos == "VERB" else None
                if frame is not None:  # only the senses in which the verb takes that complement
                    senses[n][k] = [syn for syn in senses[n][k] if FRAMES[frame] & set(syn.frame_ids())]
        out = []
        for n, doc_slots in enumerate(slots_of):
            out.append([
                map(partial(self.inflect, tag=slot.tag), self.neighbours(slot.lemma, slot.pos, senses[n][k]))
                if slot.tag in ("JJ", "NN", "NNS", "", *VERB_TAGS) else []
                for k, slot in enumerate(doc_slots)
            ])
        return out

    def _disambiguate(self, docs: list, slots_of: list[list[Slot]]) -> list[list[list]]:
        """The senses to draw each slot's neighbours from. With ``wsd`` and a sentence encoder,
        the one sense whose gloss (lemmas and definition) the encoder finds closest to the
        sentence (one batched call for the whole batch): the political ``minister``, the sports
        ``coach``; otherwise every sense of :meth:`senses_of`."""
        senses = [[self.senses_of(slot.lemma, slot.pos) for slot in doc_slots] for doc_slots in slots_of]
        encoder = self.quality.encoder
        if not self.wsd or encoder is None:
            return senses
        asks = [(n, k, syn) for n, row in enumerate(senses) for k, syns in enumerate(row) if len(syns) > 1
                for syn in syns]
        sims = encoder.similarity([(docs[n].text, gloss(syn)) for n, k, syn in asks])
        best: dict[tuple[int, int], tuple[float, Any]] = {}
        for (n, k, syn), sim in zip(asks, sims):
            if (n, k) not in best or sim > best[(n, k)][0]:  # ties keep the more frequent sense
                best[(n, k)] = (sim, syn)
        for (n, k), (_, syn) in best.items():
            senses[n][k] = [syn]
        return senses

# ---------------------------------------------------------------------------------------------
# the WordNet engine the noise catalogue's word_synonym uses (one reader, one lemma rule, one
# plural inflection)


def single_word(name: str) -> bool:
    """Whether a WordNet lemma name can replace a word: one alphabetic word (no multi-word ``_``
    or hyphenated lemma, no digit) that is no proper name (no capital first letter)."""
    return name.isalpha() and not name[0].isupper()


class WordNetLexicon:
    """WordNet as sit reads it: the data directory (resolved at construction, so a missing WordNet
    fails before any work, with its install hint), its version, NLTK's reader (loaded on first
    use: a re-run answered from the cache needs none) and English plurals for re-inflection."""

    def __init__(self, root: Optional[str] = None):
        from ..models import wordnet_root, wordnet_version

        self.root = wordnet_root(root)  # raises with an install hint when missing
        self.version = wordnet_version(self.root)
        self._reader = None
        self._inflect = None
        self._plurals: dict[str, str] = {}

    @property
    def reader(self):
        if self._reader is None:
            from ..models import wordnet

            self._reader = wordnet(self.root)
        return self._reader

    def release(self) -> None:
        """Let go of NLTK's reader, here and in the process (:func:`sit.models.forget_wordnet`);
        the next lookup reads WordNet again."""
        if self._reader is not None:
            from ..models import forget_wordnet

            self._reader = None
            forget_wordnet()

    def synonyms(self, lemma: str, pos: str, senses: int) -> list[str]:
        """The single-word lemmas (lower-case, :func:`single_word`) of the ``senses`` most
        frequent senses of ``lemma`` with WordNet part of speech ``pos`` (``n``, ``v``, ``a``,
        ``r``), in WordNet's order, without ``lemma`` itself or repeats."""
        out: list[str] = []
        for syn in self.reader.synsets(lemma, pos=pos)[:senses]:
            for lem in syn.lemmas():
                word = lem.name().lower()
                if single_word(lem.name()) and word != lemma and word not in out:
                    out.append(word)
        return out

    def article(self, word: str) -> str:
        """``a`` or ``an`` before ``word`` ("an hour", "a union"), by ``inflect``'s rules."""
        return self._engine().a(word).split(" ", 1)[0].lower()

    def _engine(self):
        if self._inflect is None:
            import inflect

            self._inflect = inflect.engine()
        return self._inflect

    def verb_form(self, lemma: str, tag: str) -> str:
        """The verb ``lemma`` in the form the Penn tag ``tag`` names (``VBD``: "told"), by
        lemminflect's lexicon (its rules for a verb it lacks); ``lemma`` itself where it gives none."""
        from lemminflect import getInflection

        forms = getInflection(lemma, tag=tag)
        return forms[0] if forms else lemma

    def plural(self, word: str) -> str:
        """The plural of the noun ``word`` (``word`` itself where none is known); each word is
        inflected once (``inflect`` checks its argument types at every call, which is slow)."""
        if word not in self._plurals:
            self._plurals[word] = self._engine().plural_noun(word) or word
        return self._plurals[word]
