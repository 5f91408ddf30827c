"""The substitute's own phrase (issue 32): a structure difference that the two phrases translated
alone explain is no finding; a phrase whose translation changes category stays one."""

from __future__ import annotations

import json

import pytest

from conftest import requires_apertium
from sit.records import Edit, Pair, Tree
from sit.relations.phrases import agreement_outside, inflection, nmod_before, nominal, phrase_span, source_phrase
from sit.words import stop_words

ES = stop_words("es")


def _pair(tagger, n, text, before, after) -> Pair:
    """Case ``n``: ``text`` with the word ``before`` replaced by ``after``, as the WordNet perturber
    makes it (the word's token position from spaCy, its characters in the perturbed text)."""
    at = text.index(before)
    position = next(t.i for t in tagger.tag([text])[0] if t.idx == at)
    edit = Edit(position, before, after, "wordnet", char_start=at, char_end=at + len(after))
    return Pair(n, text, text[:at] + after + text[at + len(before):], edit, relation="sit")


@pytest.mark.parametrize("text, word, phrase", [
    ("Volunteers set up shelters in school gyms and churches.", "school", "school gyms and churches"),
    ("Foreign ministers from the Group of Seven met in Rome on Thursday.", "Foreign", "Foreign ministers"),
    ("The president will promote his infrastructure plan next week.", "infrastructure", "infrastructure plan"),
    ("I have dreamed about it since I was a little kid.", "little", "little kid"),
    ("Astronomers using a powerful new telescope found water.", "powerful", "powerful new telescope"),
])
def test_the_phrase_is_the_noun_with_its_premodifiers_and_conjuncts(english_tagger, text, word, phrase):
    doc = english_tagger.tag([text], entities=True)[0]
    i = next(t.i for t in doc if t.text == word)
    start, end = phrase_span(doc, i)
    assert doc[start:end].text == phrase


def test_the_perturbed_phrase_is_the_same_span_with_the_new_word(english_tagger):
    text = "Volunteers set up shelters in school gyms and churches."
    doc = english_tagger.tag([text], entities=True)[0]
    new = text.replace("school", "hotel")
    at = text.index("school")
    phrase = source_phrase(doc, text, new, 5, at, at + len("hotel"))
    assert phrase.texts() == ("school gyms and churches", "hotel gyms and churches")
    assert source_phrase(doc, text, new, 5, at + 1, at + 6) is None, "a span that does not line up"


@pytest.mark.parametrize("a, b, same", [
    ("X fue cortada ayer", "X fue cortado ayer", True),  # gender agreement
    ("de la X del norte", "del X del norte", True),  # function words beside the phrase
    ("dirigentes reunieron para X", "dirigentes reunieron para X", True),
    ("cumbre enfocó encima X", "cumbre enfocada en X", False),  # a finite verb became a participle
    ("dijo que un X colocaría", "dijo un X colocaría", False),  # a function word away from the phrase
    ("el gobernador ordenó X encima", "el gobernador X ordenado encima", False),  # a word moved
])
def test_only_agreement_may_change_outside_the_phrase(a, b, same):
    mark = lambda s: tuple("\x00phrase" if w == "X" else w for w in s.split())  # noqa: E731
    assert agreement_outside(mark(a), mark(b), ES) is same


def test_inflection_is_an_ending_of_gender_or_number():
    assert inflection("cortado", "cortada") and inflection("nuevo", "nuevos") and inflection("Grande", "grandes")
    assert not inflection("enfocó", "enfocada") and not inflection("un", "una"), "a tense; a stem too short"


def tree(tokens, heads, rels):
    return Tree(tuple(tokens.split()), tuple(heads), tuple(rels.split()))


def test_a_nominal_phrase_has_one_head_and_the_relations_of_a_noun_phrase():
    nouns = frozenset({"ADJ", "NOUN"})
    # "... en gimnasios de hotel e iglesias ." : the phrase is tokens 1-5
    t = tree("en gimnasios de hotel e iglesias .", [2, 0, 4, 2, 6, 2, 2], "case obl case nmod cc conj punct")
    assert nominal(t, 1, 6, nouns)
    # "un poco niño": an adverb where English has none
    t = tree("era un poco niño", [0, 4, 4, 1], "root det advmod obj")
    assert not nominal(t, 2, 4, nouns) and nominal(t, 2, 4, nouns | {"ADV"})
    # "intimidad defiende": a verb with its subject
    t = tree("crítica de intimidad defiende", [0, 3, 1, 1], "root case nmod acl")
    assert not nominal(t, 2, 4, nouns)
    # "en todo el mundo crecimiento" for "worldwide growth": a prepositional phrase
    t = tree("doler en todo el mundo crecimiento", [0, 5, 5, 5, 1, 5], "root case det det obl amod")
    assert not nominal(t, 1, 6, nouns)
    # an nmod on the side of its head the language does not put it
    t = tree("la por noche operación", [0, 3, 4, 1], "root case nmod nmod")
    assert not nominal(t, 2, 4, nouns) and nominal(t, 2, 4, nouns, nmod_first=True)


def test_the_side_of_nmod_is_read_from_the_trees():
    spanish = tree("plan de infraestructura", [0, 3, 1], "root case nmod")
    chinese = tree("城市 的 市长", [3, 1, 0], "nmod case root")
    assert not nmod_before([spanish, spanish]) and nmod_before([chinese, chinese, spanish])


@requires_apertium
def test_a_difference_the_phrases_explain_is_no_finding(tmp_path, english_tagger):
    """Real Apertium and spaCy: "foreign ministers" / "foreign ambassadors" ("ministros de asuntos
    exteriores" / "embajadores extranjeros") is two right renderings, no finding; "a little kid" /
    "a small kid" ("un poco niño": an adverb) stays one; ``sit.phrases=false`` is the check before."""
    from sit.cache import Cache
    from sit.parse import get_parser
    from sit.relations import RunContext, create_relation
    from sit.translators import get_translator

    def pair(n, text, before, after):
        return _pair(english_tagger, n, text, before, after)

    pairs = [pair(0, "Foreign ministers from the Group of Seven met in Rome on Thursday to discuss the war.",
                  "ministers", "ambassadors"),
             pair(1, "\"I've dreamed about this moment since I was a little kid,\" the goalkeeper said.",
                  "little", "small")]
    cache = Cache(tmp_path)
    ctx = RunContext(cache, "en", "es", make_perturber=lambda: (None, ""),
                     make_parser=lambda: (get_parser("spacy", "es", cache=cache), "spacy", ""))
    ctx.english([p.original for p in pairs])
    on, off = create_relation("sit", ctx, {}), create_relation("sit", ctx, {"phrases": False})
    assert on.signature()["phrases"] is True and off.probes(pairs) == []
    probes = on.probes(pairs)
    assert probes == ["Foreign ministers", "Foreign ambassadors", "little kid", "small kid"]
    texts = [t for p in pairs for t in (p.original, p.perturbed)] + probes
    translation = dict(zip(texts, get_translator("apertium", target_lang="es", cache=cache).translate(texts)))
    found = on.check(pairs, translation)
    assert found.counts.own["phrase_pairs"] == 1
    assert [i.pair.source_id for i in found.issues] == [1]
    evidence = found.issues[0].evidence["phrase"]
    assert evidence["original"] == "little kid" and evidence["explained"] is False
    assert sorted(i.pair.source_id for i in off.check(pairs, {t: translation[t] for t in texts[:4]}).issues) == [0, 1]


class _Perturber:
    """What the phrase cache reads of the run's perturber: its signature (the namespace), and its
    tagger, which ``parses`` says may be used (a re-run from the cache must parse nothing)."""

    def __init__(self, tagger, parses: bool):
        self._tagger, self.parses = tagger, parses

    def signature(self):
        return {"name": "wordnet", "model": "test", "v": 1}

    @property
    def tagger(self):
        assert self.parses, "the phrases were parsed again, not read from the cache"
        return self._tagger


def test_the_phrases_come_from_the_cache_and_a_damaged_one_is_found_again(tmp_path, english_tagger):
    from sit.cache import Cache
    from sit.relations import RunContext, create_relation

    pairs = [_pair(english_tagger, 0, "Foreign ministers from the Group of Seven met in Rome on Thursday.",
                   "ministers", "ambassadors"),
             _pair(english_tagger, 1, "The storm closed every road in the county.", "road", "highway")]

    def probes(cache, parses):
        ctx = RunContext(cache, "en", "es", make_perturber=lambda: (_Perturber(english_tagger, parses), ""),
                         make_parser=lambda: (None, "none", ""))
        return create_relation("sit", ctx, {}).probes(pairs)

    expected = ["Foreign ministers", "Foreign ambassadors", "road", "highway"]
    assert probes(Cache(tmp_path), parses=True) == expected
    assert probes(Cache(tmp_path), parses=False) == expected  # a re-run parses nothing

    store = Cache(tmp_path).store("phrase", {"perturber": _Perturber(english_tagger, False).signature(), "v": 1})
    key = json.dumps([pairs[1].original, pairs[1].perturbed, "word", pairs[1].edit.position,
                      pairs[1].edit.char_start, pairs[1].edit.char_end])
    assert store.get_many([key]) == {key: {"phrase": {"original": "road", "perturbed": "highway", "pos": ["NOUN"]}}}
    store.cache.db.write(lambda conn: conn.execute("UPDATE entries SET v = ? WHERE k = ?", ('{"phrase": 7}', key)))
    cache = Cache(tmp_path)
    with pytest.raises(AssertionError, match="parsed again"):  # a damaged entry is never used
        probes(cache, parses=False)
    assert any("phrase" in problem for problem in cache.problems), cache.problems  # it is set aside
    assert probes(Cache(tmp_path), parses=True) == expected  # and found again
    assert probes(Cache(tmp_path), parses=False) == expected


class _CountingTagger:
    """A real English tagger that counts the sentences it tags."""

    def __init__(self, tagger):
        self.inner, self.tagged = tagger, []

    def tag(self, texts, **options):
        texts = list(texts)
        self.tagged.extend(texts)
        return self.inner.tag(texts, **options)


@pytest.mark.parametrize("window", [1, 2])
def test_phrases_found_a_window_at_a_time_are_those_of_one_pass_and_their_docs_are_not_kept(
        window, english_tagger, monkeypatch):
    # sit tags the originals of its cases a window at a time to find their phrases and keeps no
    # English doc: the probes are those found with one window, each original tagged once, and
    # the run's English docs hold none of them afterwards (asked again, they are tagged again)
    import sit.relations.sit as sit_relation
    from sit.relations import RunContext, create_relation

    pairs = [_pair(english_tagger, 0, "Foreign ministers from the Group of Seven met in Rome on Thursday.",
                   "ministers", "ambassadors"),
             _pair(english_tagger, 1, "The storm closed every road in the county.", "road", "highway"),
             _pair(english_tagger, 2, "A little kid waved at the tall soldiers.", "little", "small")]

    class Perturber:
        def __init__(self):
            self.tagger = _CountingTagger(english_tagger)

    def probes(size):
        monkeypatch.setattr(sit_relation, "WINDOW", size)
        perturber = Perturber()
        ctx = RunContext(None, "en", "es", make_perturber=lambda: (perturber, ""),
                         make_parser=lambda: (None, "none", ""))
        found = create_relation("sit", ctx, {}).probes(pairs)
        return found, ctx, perturber.tagger

    whole, _, _ = probes(len(pairs))
    found, ctx, tagger = probes(window)
    assert found == whole == ["Foreign ministers", "Foreign ambassadors", "road", "highway", "little kid", "small kid"]
    assert tagger.tagged == [p.original for p in pairs]  # each once
    ctx.english([pairs[0].original])
    assert tagger.tagged[-1] == pairs[0].original and len(tagger.tagged) == len(pairs) + 1  # not kept


def test_docs_handed_on_by_the_perturber_are_taken_once(english_tagger):
    from sit.perturb.substitution import Tagger

    tagger = Tagger(english_tagger.nlp)
    texts = ["The storm closed every road in the county.", "A little kid waved at the tall soldiers."]
    first = tagger.tag(texts, entities=True, hand_on=True)
    again = tagger.tag([texts[1], texts[0], texts[1]], entities=True)
    assert again[0] is first[1] and again[1] is first[0], "taken, not tagged again"
    assert again[2] is first[1], "a text asked twice in one call gets the doc handed on"
    third = tagger.tag(texts, entities=True)
    assert third[0] is not first[0] and [t.ent_iob_ for t in third[0]] == [t.ent_iob_ for t in first[0]], \
        "taken once: asked again, tagged again"
    many = [f"The school board met on day {n}." for n in range(Tagger.HANDED_ON + 5)]
    docs = tagger.tag(many, entities=True, hand_on=True)
    assert tagger.tag(many[:5], entities=True)[0] is not docs[0], "only the last HANDED_ON are kept"
    assert tagger.tag(many[-1:], entities=True)[0] is docs[-1]
    assert tagger.tag(texts[:1])[0] is not None  # without entities, nothing is taken
