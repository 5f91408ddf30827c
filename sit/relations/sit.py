"""``sit``: substituting one noun or adjective by a similar word should keep the structure of the
translation (Structure-Invariant Testing, ICSE 2020).

Cases are the run's substitution pairs; both translations are parsed in the target language and
compared by relation counts (:mod:`sit.distance`). With ``surface`` (the default), a pair is a
structure finding only if the translations also differ on the surface beyond the substitute's own
translation and agreement (:func:`sit.distance.surface_change`): parallel translations that the
parser labels differently are parser noise, counted as ``parallel``. With ``phrases`` (the default),
nor is a difference that the substitute's own phrase, translated alone on both sides, explains
("ministros de asuntos exteriores" / "embajadores extranjeros": :mod:`sit.relations.phrases`),
counted as ``phrase``. A substitute the translator left as it was
(the word itself in the translation where the original's translation did not have it, and no
word of the target language by its frequencies there and in the source language: option
``untranslated``, :func:`target_language_word`) is an ``untranslated_substitute`` finding (the
substitute's case: it is no word of the input), and an original word left as it was where the
substitute was translated an ``untranslated`` finding (a word of the input): useful, but not
structure violations, so they never take a place in the structure ranking.
"""

from __future__ import annotations

import json
from array import array
from dataclasses import replace
from functools import partial
from typing import Any, Mapping, Optional, Sequence

from ..distance import DISTANCES, relation_diff, surface_change
from ..errors import ConfigError
from ..options import Option
from .rank import natural_tier, rank_issues
from ..records import Issue, Pair, RelationCounts
from ..runmeta import Figure, FigureTable
from ..textcheck.untranslated import (  # noqa: F401  (the rule's one copy; names kept importable here)
    COMMON_TARGET_ZIPF, LOAN_ZIPF_GAP, TARGET_WORD_ZIPF, UNTRANSLATED_RULES, left_untranslated,
    source_language_gap, target_language_word, untranslated, verbatim_count)
from ..text import quoted
from ..words import stop_words, word_key

#: what TEAPOT's reference-less success means, said where a success rate is shown
SUCCESS_RULE = ("TEAPOT's rule: a perturbation succeeds when s_src / s_tgt > 1, that is when it changed the "
                "translation more than the source (chrF); a rate of such perturbations, not a bug rate")

#: cases a check compares at a time (their trees and comparisons held, then let go)
WINDOW = 2000

from .base import Checked, Relation
from .phrases import Phrase, explained, nmod_before, source_phrase


def _phrase_key(pair: Pair) -> str:
    """A case's key in the phrase cache: the two sentences and where the word stands."""
    e = pair.edit
    return json.dumps([pair.original, pair.perturbed, e.level, e.position, e.char_start, e.char_end])


def _may_have_phrase(pair: Pair) -> bool:
    """Whether ``pair``'s edit puts a word in (a character's or a sentence's edit has no phrase)."""
    return pair.edit.level == "word" and bool(pair.edit.after)


class SitRelation(Relation):
    name = "sit"
    title = "the structure of the translation changed under a similar word"
    kinds = {"untranslated": "a word of the input was left untranslated",
             "untranslated_substitute": "a substitute sit put in (no word of the input) was left untranslated"}
    kind = "structure"
    option_specs = (
        Option("distance", str, "relation", "relation (SIT's relation-count distance) or head-relation",
               choices=tuple(DISTANCES), run_wide=True, flag="--distance"),
        Option("discount", bool, True, "leave out of the relation counts the arcs of the tokens the two translations "
               "replaced one-for-one (the translated substitute), so a parser labelling just the new word differently "
               "is no structure change (default); --no-discount-substitute counts every arc, as the SIT paper does",
               run_wide=True, flag="--discount-substitute"),
        Option("surface", bool, True, "a pair whose translations differ only by the substitute is parser noise"),
        Option("untranslated", str, "source-ratio", "the rule that tells a word left untranslated"),
    )
    uses = frozenset({"perturber", "parser"})
    translates_substitutions = True  # its cases are the run's substitution pairs
    blockwise = True  # its cases are a sentence's pairs, ranked per sentence; TEAPOT's scores are kept
    measured = {"": (18, 23, "labels-untranslated-default.jsonl")}
    severity = {"": 2.0, "untranslated": 2.0}

    def __init__(self, ctx, *, distance: str = "relation", discount: bool = True, surface: bool = True,
                 untranslated: str = "source-ratio", phrases: bool = True):
        super().__init__(ctx)
        from ..validate import check_bool

        self.surface = check_bool(surface, "sit.surface")
        self.phrases = check_bool(phrases, "sit.phrases")
        self._phrase: dict[tuple[str, str], Optional[Phrase]] = {}  # (original, perturbed) -> its phrase
        self._judged = None  # the pairs' verdicts through the cache (_verdicts), opened on first use
        #: TEAPOT's s_src and s_tgt of every pair compared so far in the run (its run-level figures)
        self._scores = (array("d"), array("d"))
        if untranslated not in UNTRANSLATED_RULES:
            raise ConfigError(f"unknown sit.untranslated rule {untranslated!r}; choose one of: "
                              f"{', '.join(UNTRANSLATED_RULES)}")
        self.untranslated = untranslated
        if distance not in DISTANCES:
            raise ConfigError(f"unknown distance {distance!r}; choose one of: {', '.join(DISTANCES)}")
        self.distance = distance
        self.discount = discount
        ctx.perturber()  # build before any work: a missing model or WordNet fails now
        ctx.parser()

    @classmethod
    def tier(cls, issue: Issue) -> int:
        """A structure finding whose perturbation is likely unnatural English never outranks one
        likely natural or not measured (:func:`sit.relations.rank.natural_tier`); the untranslated findings
        keep their order."""
        return 1 if issue.kind else natural_tier(issue)

    @classmethod
    def cluster_keys(cls, issue: Issue, stops: frozenset[str]):
        """A word left untranslated: the word; a structure change: the same slot (source word) of
        one sentence, or the same substitute, else the dependency relation that changed most."""
        if issue.kind in cls.kinds:
            word = issue.evidence.get("word")
            return ([("word", word_key(str(word)))], ("word", word_key(str(word)))) if word else None
        if issue.kind:
            return None
        edit = issue.pair.edit
        slot = ("slot", str(issue.pair.source_id), edit.before.lower())
        return [slot, ("substitute", edit.after.lower())], _structure_key(issue)

    @classmethod
    def cluster_title(cls, key: Sequence[str], issues: Sequence[Issue]) -> str:
        if key[0] == "slot":
            afters = ", ".join(dict.fromkeys(quoted(i.pair.edit.after) for i in issues))
            return (f"{quoted(issues[0].pair.edit.before)} in sentence {key[1]}: every similar word there ({afters}) "
                    "changes the translation's structure")
        if key[0] == "substitute":
            return f"{quoted(issues[0].pair.edit.after)} put for a similar word changes the translation's structure"
        if key[0] == "structure":
            return (f"a similar word changes the translation's structure: {key[2]} {key[1]} dependents "
                    "in the perturbed sentence's translation")
        return ""

    def signature(self) -> dict[str, Any]:
        return {"distance": self.distance, "discount": self.discount, "surface": self.surface,
                "untranslated": self.untranslated, "phrases": self.phrases}

    def describe(self) -> str:
        return (f"sit: {self.distance} distance"
                + (", the substituted token's own arc discounted" if self.discount else ", plain counts")
                + (", parallel translations are no finding" if self.surface else "")
                + (", nor a difference the substitute's phrase translated alone explains" if self.phrases else ""))

    def forget(self) -> None:
        """Let go of the phrases of the block's pairs (TEAPOT's scores stay for the run's figures)."""
        self._phrase.clear()

    def cases(self, ids: Sequence[int], texts: Sequence[str]) -> list[Pair]:
        """The run's substitution pairs (:meth:`RunContext.substitutions`), named this relation's."""
        return [p if p.relation else replace(p, relation=self.name) for p in self.ctx.substitutions(ids, texts)]

    def probes(self, cases: Sequence[Pair]) -> list[str]:
        """With ``phrases`` (the default), the substitute's phrase of every case alone, on both
        sides (:func:`sit.relations.phrases.source_phrase`): "foreign ministers", "foreign
        ambassadors"."""
        if not self.phrases:
            return []
        self._find_phrases(cases)
        return list(dict.fromkeys(t for p in cases if (ph := self.phrase(p)) is not None for t in ph.texts()))

    def _find_phrases(self, cases: Sequence[Pair]) -> None:
        """The phrases of ``cases`` not yet known: from the cache (a re-run parses nothing), else
        from one batch of English parses, then cached (by the perturber's signature, whose English
        pipeline made the cases)."""
        todo = {_phrase_key(p): p for p in cases if _may_have_phrase(p) and (p.original, p.perturbed) not in self._phrase}
        signature = getattr(self.ctx.perturber(), "signature", None)
        store = self.ctx.cache.store("phrase", {"perturber": signature(), "v": 1}) \
            if self.ctx.cache is not None and signature is not None and todo else None
        known = store.get_many(todo) if store is not None else {}
        for key, value in known.items():
            pair = todo.pop(key)
            self._phrase[(pair.original, pair.perturbed)] = Phrase.from_dict(value["phrase"])
        pending = list(todo.items())
        for start in range(0, len(pending), WINDOW):  # a window's English docs at a time, let go after
            part = pending[start:start + WINDOW]
            originals = list(dict.fromkeys(p.original for _, p in part if p.edit.level == "word"))
            docs = dict(zip(originals, self.ctx.english(originals, keep=False)))
            found = [(key, self.phrase(pair, docs)) for key, pair in part]
            if store is not None and found:
                store.put_many((key, {"phrase": ph and ph.to_dict()}) for key, ph in found)

    def phrase(self, pair: Pair, docs: Optional[Mapping[str, Any]] = None) -> Optional[Phrase]:
        """The substitute's :class:`~sit.relations.phrases.Phrase` in ``pair`` (None: a word with no
        phrase to ask alone, or no word substitution), found once per pair; ``docs``: English
        docs of originals at hand (else the run's, :meth:`sit.relations.base.RunContext.english`)."""
        if not _may_have_phrase(pair):  # nothing to look up or to keep
            return None
        key = (pair.original, pair.perturbed)
        if key not in self._phrase:
            edit = pair.edit
            doc = docs[pair.original] if docs and pair.original in docs else self.ctx.english([pair.original])[0]
            self._phrase[key] = doc and source_phrase(doc, pair.original, pair.perturbed, edit.position,
                                                      edit.char_start, edit.char_end) or None
        return self._phrase[key]

    def check(self, cases: Sequence[Pair], translation: Mapping[str, Optional[str]]) -> Checked:
        """Compare the cases :data:`WINDOW` at a time: a window's trees and comparisons are let go
        once its top-k per sentence and TEAPOT's scores are kept, so memory follows the window,
        not the input. The top k of each window's top k are the top k of the whole: the issues are
        those of one pass over all cases, in the same order. TEAPOT's run-level figures are those
        of every case this relation has checked in the run (a run checked a block of sentences at
        a time calls this once per block)."""
        from ..eval import reference_less_summary

        kept: list[Issue] = []
        s_src, s_tgt = self._scores
        n = {"compared": 0, "untranslated": 0, "parallel": 0, "phrase": 0}
        for start in range(0, len(cases), WINDOW):
            compared = self._compare(cases[start:start + WINDOW], translation)
            n["compared"] += len(compared)
            n["untranslated"] += sum(1 for c in compared if c.kind)
            n["parallel"] += sum(1 for c in compared if self._parallel(c) and c.distance > self.ctx.threshold)
            n["phrase"] += sum(1 for c in compared if self._phrase_only(c) and c.distance > self.ctx.threshold)
            keep = rank_issues([c for c in compared if not self._parallel(c) and not self._phrase_only(c)],
                               threshold=self.ctx.threshold, top_k=self.ctx.top_k, tier=self.tier)
            scores, issues = _teapot(compared, keep, self.ctx.cache)
            s_src.extend(scores[0])
            s_tgt.extend(scores[1])
            kept.extend(issues)
        issues = rank_issues(kept, threshold=self.ctx.threshold, top_k=self.ctx.top_k, tier=self.tier)
        teapot = (reference_less_summary(s_src, s_tgt, cache=self.ctx.cache) if len(s_src)
                  else {"n": 0, "success_rate": None})
        structure = [i for i in issues if not i.kind]
        counts = RelationCounts(len(cases), n["compared"], len(structure), len({i.pair.source_id for i in structure}),
                                {"untranslated_pairs": n["untranslated"], "parallel_pairs": n["parallel"],
                                 **({"phrase_pairs": n["phrase"]} if self.phrases else {}),
                                 "untranslated_issues": len(issues) - len(structure)})
        return Checked(issues, counts, {"teapot": teapot})

    @classmethod
    def figures(cls, extra: Mapping[str, Any]) -> list[FigureTable]:
        """TEAPOT's run-level figures (``extra["teapot"]``): the success rate with its rule, then
        s_src and s_tgt, every score on the 0-1 scale; a table without rows where nothing was compared."""
        teapot = extra.get("teapot")
        if not isinstance(teapot, Mapping):
            return []
        rows = []
        if teapot.get("success_rate") is not None:
            rows.append(Figure("success rate", f"{100 * teapot['success_rate']:.2f} % of {teapot.get('n', '?')} "
                                               f"perturbations ({SUCCESS_RULE})"))
            for side in ("s_src", "s_tgt"):
                st = teapot.get(side)
                if isinstance(st, Mapping) and st.get("mean") is not None:
                    rows.append(Figure(f"{side} (chrF, 0-1)", f"mean {st['mean']:.3f}, std {st['std']:.3f}, "
                                                              f"5%-95% {st['p5']:.3f}-{st['p95']:.3f}"))
        return [FigureTable("TEAPOT", tuple(rows), "reference-less, chrF scores on a 0-1 scale", "teapot")]

    def _compare(self, cases: Sequence[Pair], translation: Mapping[str, Optional[str]]) -> list[Issue]:
        """Every case whose two translations parse, compared: its structure (or untranslated) issue.
        What a pair's two trees and words give (:meth:`_judge`) is read from the cache where a run
        judged them before (:class:`~sit.relations.verdicts.Verdicts`)."""
        texts = [x for p in cases for x in (p.original, p.perturbed)] + self.probes(cases)
        done = [t for t in dict.fromkeys(translation.get(x) for x in texts) if t]
        trees = dict(zip(done, self.ctx.parse(done)))
        sentences = [trees[y] for p in cases for x in (p.original, p.perturbed) if (y := translation.get(x)) in trees]
        nmod_first = nmod_before(sentences) if self.phrases else False
        stops = stop_words(self.ctx.target_lang)  # agreement and function words of the surface check
        both = {(y, y2, p.edit.before, p.edit.after): (p, a, b) for p in cases  # an empty translation has no tree
                if (y := translation.get(p.original)) is not None and (y2 := translation.get(p.perturbed)) is not None
                and (a := trees.get(y)) is not None and (b := trees.get(y2)) is not None}
        verdicts = self._verdicts().many(both, partial(self._judge, both, translation, stops))
        compared: list[Issue] = []
        for pair in cases:
            y, y2 = translation.get(pair.original), translation.get(pair.perturbed)
            key = (y, y2, pair.edit.before, pair.edit.after)
            if key not in both:
                continue
            verdict = verdicts[key]
            if verdict.get("missing"):
                compared.append(self._untranslated(pair, y, y2, verdict))
            else:
                diff = {rel: (n, m) for rel, n, m in verdict["diff"]}
                issue = Issue(pair, y, y2, verdict["distance"], diff,
                              evidence={"surface": verdict["surface"]} if self.surface else {})
                compared.append(self._with_phrase(issue, both[key][1:], trees, translation, stops, nmod_first))
        return compared

    def _verdicts(self):
        """The relation's verdicts in the run's cache, keyed also by the parser whose trees they read."""
        if self._judged is None:
            from .verdicts import Verdicts

            self._judged = Verdicts(self.ctx.cache, self.name, {**self.signature(), "parser": self.ctx.parser()[0].signature()},
                                    self.ctx.source_lang, self.ctx.target_lang, (type(self).__module__, "sit.distance"))
        return self._judged

    def _judge(self, both, translation: Mapping[str, Optional[str]], stops: frozenset[str], keys) -> list[dict]:
        """The verdicts (JSON, cached) on pairs ``keys`` (two translations and the edit's two words;
        ``both``: key -> the case and the two trees): the structure distance, then either the word
        left untranslated (``missing``: word, side, times) with its Zipf ``gap``, or the relations whose
        counts differ (``diff``) and, with ``surface``, how the translations differ on the surface."""
        zipf = self._frequencies([both[key][0] for key in keys], translation)
        out = []
        for key in keys:
            pair, a, b = both[key]
            y, y2 = key[0], key[1]
            d = DISTANCES[self.distance](a, b, discount=self.discount)
            missing = untranslated(pair.edit, y, y2, self.ctx.target_lang, self.ctx.source_lang, self.untranslated,
                                   zipf=zipf)
            if missing:
                gap = source_language_gap(missing[0], self.ctx.source_lang, self.ctx.target_lang, zipf=zipf)
                out.append({"distance": d, "missing": list(missing), "gap": gap})
                continue
            diff = [[rel, n, m] for rel, (n, m) in relation_diff(a, b, discount=self.discount).items()]
            surface = {"surface": surface_change(a.tokens, b.tokens, stops)} if self.surface else {}
            out.append({"distance": d, "diff": diff, **surface})
        return out

    def _frequencies(self, cases: Sequence[Pair], translation: Mapping[str, Optional[str]]):
        """The run's Zipf lookup, told the words the untranslated-word rule may ask about
        ``cases``: each edit's two words where they stand in a translation (one cache query)."""
        zipf = self.ctx.frequencies()
        words = [w for p in cases for w in (p.edit.before, p.edit.after)
                 if w and any(w.casefold() in (translation.get(x) or "").casefold() for x in (p.original, p.perturbed))]
        zipf.prefetch(words, (self.ctx.source_lang, self.ctx.target_lang))
        return zipf

    def _untranslated(self, pair: Pair, y: str, y2: str, verdict: Mapping[str, Any]) -> Issue:
        """The finding of a word left untranslated (``verdict["missing"]``): ``untranslated`` where
        it is the input's word (the original's translation kept it), ``untranslated_substitute``
        where it is the substitute (a word sit put in, not the input's: the substitute's case). Its
        distance is how much more the word belongs to the source language than to the target
        (``verdict["gap"]``: wordfreq Zipf, source minus target, at least 0.1), so the surest come first."""
        word, side, count = verdict["missing"]
        gap, d = verdict["gap"], verdict["distance"]
        evidence = {"word": word, "word_of": "input" if side == "original" else "substitute", "side": side,
                    "times": count, "zipf_gap": round(gap, 2), "structure_distance": d}
        if side != "original":
            evidence["input_word"] = pair.edit.before
        kind = "untranslated" if side == "original" else "untranslated_substitute"
        return Issue(pair, y, y2, round(max(gap, 0.1), 2), {}, kind=kind, evidence=evidence)

    def _with_phrase(self, issue: Issue, pair_trees, trees, translation, stops: frozenset[str],
                     nmod_first: bool) -> Issue:
        """``issue`` with ``evidence["phrase"]`` where the translations differ on the surface and
        the substitute has a phrase both of whose translations alone parsed: the English phrases,
        their translations alone, and whether they explain the difference
        (:func:`sit.relations.phrases.explained`; then the pair is no finding). ``pair_trees``: the
        two sentence translations' trees; ``nmod_first``: the window's trees put ``nmod`` before
        its head (:func:`sit.relations.phrases.nmod_before`)."""
        phrase = self.phrase(issue.pair) if self.phrases and issue.evidence.get("surface") else None
        alone = [translation.get(t) for t in phrase.texts()] if phrase else []
        if not alone or not all(alone) or not all(trees.get(t) for t in alone):
            return issue
        ta, tb = (trees[t] for t in alone)
        verdict = {"original": phrase.original, "perturbed": phrase.perturbed, "translations": alone,
                   "explained": explained(*pair_trees, ta.tokens, tb.tokens, phrase.pos, stops, nmod_first)}
        return replace(issue, evidence={**issue.evidence, "phrase": verdict})

    def _phrase_only(self, issue: Issue) -> bool:
        """A structure comparison whose difference the substitute's phrase translated alone
        explains (``evidence["phrase"]["explained"]``): two right renderings of two phrases."""
        return bool(issue.evidence.get("phrase", {}).get("explained"))

    def _parallel(self, issue: Issue) -> bool:
        """A structure comparison whose translations do not differ on the surface (parser noise)."""
        return self.surface and not issue.kind and not issue.evidence.get("surface")


def _structure_key(issue: Issue) -> tuple[str, ...]:
    """The cluster key of a structure change: the dependency relation whose count changed most,
    and which way (``("structure", "nmod", "more")``)."""
    rows = [(rel, int(a), int(b)) for rel, (a, b) in issue.relation_diff.items() if int(a) != int(b)]
    if not rows:
        return ("group", issue.group)
    rel, a, b = min(rows, key=lambda r: (-abs(r[2] - r[1]), r[0]))
    return ("structure", rel.split(":")[0], "more" if b > a else "fewer")


def _teapot(compared: list[Issue], issues: list[Issue], cache=None):
    """TEAPOT's reference-less scores: s_src (chrF of the perturbed vs the original source) and
    s_tgt (chrF of the two translations) on every compared pair, attached to the issues; scores
    are kept in ``cache`` so a re-run only reads them. Returns ((s_src, s_tgt), scored issues)."""
    from ..eval import reference_less_scores

    if not compared:
        return ([], []), issues
    res = reference_less_scores(
        [c.pair.original for c in compared],
        [c.pair.perturbed for c in compared],
        [c.original_translation for c in compared],
        [c.perturbed_translation for c in compared],
        cache=cache,
    )
    by_key = {
        (c.pair.source_id, c.pair.perturbed): (s, t) for c, s, t in zip(compared, res["s_src"], res["s_tgt"])
    }
    scored = []
    for issue in issues:
        s, t = by_key[(issue.pair.source_id, issue.pair.perturbed)]
        scored.append(replace(issue, scores={**issue.scores, "s_src": s, "s_tgt": t}))
    return (res["s_src"], res["s_tgt"]), scored
