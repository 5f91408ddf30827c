"""``language``: a translation is in the target language (py3langid, :mod:`sit.textcheck.language`),
and no word of the source stands in it verbatim where the target language has its own word (the
untranslated-word rule the ``sit`` relation uses, :func:`sit.textcheck.untranslated.copied_words`).

One case per sentence (its own translation; nothing new to translate); every other text the run
translated (the variants of every relation) is checked by itself too (:mod:`sit.relations.every`).
Findings: ``untranslated`` (the source came back as it was, with a word far more common in the
source language than in the target: :func:`sit.textcheck.untranslated.returned_words`),
``wrong_language`` (the identifier gives another language at least ``confidence`` probability and
the target language less than ``1 - confidence``, on translations of at least ``min_words``
words), ``copied`` (source words copied verbatim, a stretch of three or more source words, source text
in a script the target language is not written in, ``script``, the source language's CLDR name
of a day or a month, ``calendar``, or of a country or region, ``places``; on a
variant, only words the sentence itself writes in lower case: a ``sit`` substitute left as it was
is ``sit.untranslated``'s, a word lower-cased by ``case`` is ``case``'s).
"""

from __future__ import annotations

import re
from typing import Any, Mapping, Optional, Sequence

from ..records import Edit, Issue, Pair
from ..textcheck.language import NEIGHBOURS, Identified, LanguageIdentifier
from ..textcheck.software import internal_names, prose, software_tokens, usage_synopsis
from ..textcheck.targetword import PROSE_WORD, TargetWords, cldr_names, lone_word
from ..textcheck.tokens import TOKEN
from ..words import COPY_CANDIDATE, word_key
from ..textcheck.untranslated import (SOURCE_WORD_ZIPF, UNTRANSLATED_RULES, WRITTEN_GAP, calendar_words, copied_runs,
                                      copied_words, foreign_script_runs, place_names, returned_words,
                                      shared_words, source_language_gap)
from .base import Checked, Relation
from .every import Origin, merged, other_texts, text_issue
from .verdicts import Verdicts


class LanguageRelation(Relation):
    blockwise = True  # a sentence's cases alone; every other text checked once, where first met
    name = "language"
    title = "the translation is not in the target language"
    kinds = {"untranslated": "the translation is the source as it was, in the source language",
             "wrong_language": "the translation is in another language than the target",
             "copied": "source words stand verbatim in the translation where the target language has its own"}
    sides = ("source", "source")
    measured = {"copied": (20, 20, "production-news.jsonl")}
    severity = {"": 3.0, "copied": 2.0}
    alone = 3
    alone_options = {"software": True}
    mqm = {"untranslated": ("major", "Accuracy/Untranslated"), "wrong_language": ("critical", "Accuracy/Untranslated"),
           "copied": ("minor", "Accuracy/Untranslated")}
    alone_needs = ("py3langid for the target language (wrong_language); wordfreq's word lists for both "
                   "languages (untranslated, copied)")

    @classmethod
    def cluster_keys(cls, issue: Issue, stops: frozenset[str]):
        """Source words copied: each word (the cluster takes the one most findings share)."""
        if issue.kind != "copied":
            return None
        named = [("word", word_key(str(w))) for w in issue.evidence.get("words") or []]
        return named, named[0] if named else ("group", issue.group)

    @classmethod
    def without_file_terms(cls, issue: Issue, kept: frozenset) -> Optional[Issue]:
        """A message returned as it was whose every word the file's translated messages keep, twice
        or more, keeps the file's terms (git's ``remote``, psql's ``Large objects``): no finding."""
        words = issue.evidence.get("words") or ()
        return None if issue.kind == "untranslated" and words and set(words) <= kept else issue

    def __init__(self, ctx, *, confidence: float = 0.9, min_words: int = 4, copied: bool = True,
                 min_zipf: float = SOURCE_WORD_ZIPF, untranslated: str = "as-written", software: bool = False):
        super().__init__(ctx)
        from ..errors import ConfigError
        from ..validate import check_bool, check_number

        self.confidence = check_number(confidence, "language.confidence", above=0.5, maximum=1)
        self.min_words = check_number(min_words, "language.min_words", integer=True, minimum=1)
        self.copied = check_bool(copied, "language.copied")
        self.min_zipf = check_number(min_zipf, "language.min_zipf", minimum=0)
        #: read texts as a program's messages: software text (options, identifiers, paths, format
        #: specifiers, quoted code terms, command synopses) is no prose (sit.textcheck.software)
        self.software = check_bool(software, "language.software")
        if untranslated not in UNTRANSLATED_RULES:
            raise ConfigError(f"unknown language.untranslated rule {untranslated!r}; choose one of: "
                              f"{', '.join(UNTRANSLATED_RULES)}")
        self.untranslated = untranslated
        self.identifier = LanguageIdentifier((ctx.target_lang, ctx.source_lang, *NEIGHBOURS), cache=ctx.cache)
        #: a program's message of one word returned is untranslated unless the word is the target's too
        self.target_words = TargetWords(ctx.target_lang) if self.software else None
        self.verdicts = Verdicts(ctx.cache, self.name, self.signature(), ctx.source_lang, ctx.target_lang,
                                 (type(self).__module__,))

    def signature(self) -> dict[str, Any]:
        return {"confidence": self.confidence, "min_words": self.min_words, "copied": self.copied,
                "min_zipf": self.min_zipf, "untranslated": self.untranslated, "software": self.software,
                "identifier": "py3langid", "languages": list(self.identifier.languages),
                **({"target_words": self.target_words.identity()} if self.target_words else {})}

    def describe(self) -> str:
        known = "" if self.identifier.knows(self.ctx.target_lang) else \
            f" (py3langid does not know {self.ctx.target_lang!r}: only copied words are checked)"
        return (f"language: py3langid over {', '.join(self.identifier.languages)} at {self.confidence:g}"
                + (", source words copied verbatim" if self.copied else "") + known)

    def cases(self, ids: Sequence[int], texts: Sequence[str]) -> list[Pair]:
        return [Pair(sid, text, text, Edit(0, "", "", self.name, level="sentence"), relation=self.name)
                for sid, text in zip(ids, texts)]

    def sources(self, cases: Sequence[Pair]) -> list[str]:
        return [p.original for p in cases]

    def check(self, cases: Sequence[Pair], translation: Mapping[str, Optional[str]]) -> Checked:
        done = [(pair.original, y, Origin(pair.source_id)) for pair in cases
                if (y := translation.get(pair.original)) and y.strip()]
        compared = len(done)
        # every other text the run translated (variants of every relation), each by itself
        done += [(x, y, o) for x, y, o in other_texts(self.ctx.origins, translation, (p.original for p in cases))
                 if y.strip()]
        verdicts = self.verdicts.many(((x, y) for x, y, _ in done), self._verdicts)  # through the cache
        found = [issue for x, y, origin in done for issue in self._issues(x, y, origin, verdicts[(x, y)])]
        return self.checked(merged(found, self.ctx.origins), cases=len(cases), compared=compared,
                            kinds=list(self.kinds))

    def _verdicts(self, pairs: list[tuple[str, str]]) -> list[dict[str, Any]]:
        """The verdicts (:meth:`_verdict`) on ``pairs`` of (text, translation) the cache lacks:
        the identifier and the words' frequencies asked in one batch each, through the cache."""
        target = self.ctx.target_lang
        read = {y: self._own(x, y) for x, y in pairs}  # what tells the language
        long = ([y for y in read if len(read[y].split()) >= self.min_words] if self.identifier.knows(target) else [])
        said = dict(zip(long, self.identifier.identify_all([read[y] for y in long], target)))
        zipf = self.ctx.frequencies()
        zipf.prefetch((w for x, y in pairs for w in shared_words(x, y)), (self.ctx.source_lang, target))
        return [self._verdict(x, y, said.get(y), zipf) for x, y in pairs]

    def _verdict(self, text: str, y: str, said: Optional[Identified], zipf) -> dict[str, Any]:
        """What the checks find on ``text`` translated ``y`` by themselves (JSON, cached): a
        finding's ``kind``, ``distance`` and ``evidence``; for ``copied``, the ``words`` copied
        and the ``more`` runs, scripts and calendar words (a variant keeps only its sentence's
        words: :meth:`_issues`); ``{}`` for none."""
        target, source = self.ctx.target_lang, self.ctx.source_lang
        if self.software and usage_synopsis(text):
            return {}  # a command's synopsis: its words are the command's, in no language
        x0, y0 = (prose(text), prose(y)) if self.software else (_untokened(text), _untokened(y))
        if self.software and (self._target_word(x0, y0, zipf) or self._internal(text, y)):
            return {}
        returned = (returned_words(x0, y0, source, target, min_zipf=self.min_zipf, zipf=zipf, names=False,
                                   terms=not said_of_code(text))
                    if self.software else returned_words(text, y, source, target, min_zipf=self.min_zipf, zipf=zipf))
        if returned:  # the source came back as it was
            return {"kind": "untranslated", "distance": 2.0 + len(returned), "evidence": {"words": returned}}
        if self.software and self._returned_prose(x0, y0, said):
            return {"kind": "untranslated", "distance": 2.0,
                    "evidence": {"words": [], "language": said.language, "probability": round(said.probability, 4)}}
        if (said is not None and said.language != target and said.expected <= 1 - self.confidence
                and not (self.software and _words(y0) <= _words(x0))  # the source's own words: names kept
                and (said.probability >= self.confidence  # such a translation copies words anyway
                     or self.software and said.expected <= (1 - self.confidence) / 2)):
            # a program's message is short: another language likelier, the target's all but ruled out
            return {"kind": "wrong_language", "distance": 1.0 + said.probability,
                    "evidence": {"language": said.language, "probability": round(said.probability, 4),
                                 "target_probability": round(said.expected, 4)}}
        if not self.copied:
            return {}
        # a program's message: a single English word kept is its term as often as not (shells, prompt,
        # Padding: 7 of 10 such findings on message catalogues were none, docs/check.md); a stretch of
        # three words or more (copied_runs) still counts
        words = [] if self.software else copied_words(x0, y0, source, target, min_zipf=self.min_zipf,
                                                      rule=self.untranslated, zipf=zipf)
        more = {"runs": copied_runs(x0, y0, source, target, min_zipf=self.min_zipf, zipf=zipf),
                "script": foreign_script_runs(x0, y0, target), "calendar": calendar_words(x0, y0, source, target),
                "places": place_names(x0, y0, source, target)}
        more = {key: found for key, found in more.items() if found}
        return {"kind": "copied", "words": words, "more": more} if words or more else {}

    def _own(self, text: str, y: str) -> str:
        """What of ``y`` (translating ``text``) tells its language: a program's message, its prose
        less the words the source writes too that the target language does not (kept terms,
        commands: ``leer refs de stdin``), but where it came back as it was; any other text whole."""
        if not self.software:
            return y
        if " ".join(text.split()) == " ".join(y.split()):
            return prose(y)
        kept = {w.casefold() for w in re.findall(r"[\w'-]+", text)}
        return " ".join(w for w in prose(y).split() if w.strip(".,:;!?()'\"").casefold() not in kept
                        or self.target_words.knows(w.strip(".,:;!?()'\"")))

    def _internal(self, text: str, y: str) -> bool:
        """Whether a program's message came back as it was and names the program's internals (an
        identifier: ``pop_scope:``, ``shell_variables``): a developer's message, left in English on purpose."""
        return " ".join(text.split()) == " ".join(y.split()) and bool(internal_names(text))

    def _returned_prose(self, x0: str, y0: str, said: Optional[Identified]) -> bool:
        """Whether a program's message came back as it was (its prose ``x0``, translated ``y0``)
        with ``min_words`` words or more besides names (a word capitalised mid-sentence), in the
        source language by the identifier, the target's all but ruled out (as ``wrong_language``):
        untranslated though each word may be the target's too (German ``Unaligned block (%lu byte)
        in archive``: ``Block``, ``Byte``, ``Archive``)."""
        if said is None or " ".join(x0.casefold().split()) != " ".join(y0.casefold().split()):
            return False
        words = PROSE_WORD.findall(re.sub(r"(?<=[\w,;)] )[A-Z]\w*", " ", x0))
        return (len(words) >= self.min_words and said.language == self.ctx.source_lang
                and said.expected <= 1 - self.confidence
                and (said.probability >= self.confidence or said.expected <= (1 - self.confidence) / 2))

    def _target_word(self, x0: str, y0: str, zipf) -> bool:
        """Whether a program's message (its prose ``x0``) kept its one word, which is the target
        language's own as written (its hunspell dictionary's or CLDR's: German ``Distribution``,
        ``Operator``, ``Feb``, ``Tamil``; Spanish ``may``): no language finding."""
        word = lone_word(y0)
        if word is None or word.casefold() not in x0.casefold() or not self.target_words.knows(word):
            return False
        # a dictionary's rare form of a source-language word ("removed", Spanish remover's vosotros
        # imperative) is no target word where the source language writes it far more (the as-written gap)
        return (word.casefold() in cldr_names(self.ctx.target_lang)
                or source_language_gap(word, self.ctx.source_lang, self.ctx.target_lang, zipf=zipf) <= WRITTEN_GAP)

    def _issues(self, text: str, y: str, origin: Origin, verdict: Mapping[str, Any]) -> list[Issue]:
        """The findings of ``verdict`` (:meth:`_verdict`) on ``text`` translated ``y``, which came
        from ``origin``."""
        kind = verdict.get("kind")
        if kind != "copied":
            return [text_issue(self.name, text, y, origin, kind, verdict["distance"], verdict["evidence"])] if kind else []
        words, more = list(verdict["words"]), dict(verdict["more"])
        if origin.pair is not None:  # a variant: only words the sentence itself writes so (a substitute
            # left as it was is sit's finding, "monday" of a lower-cased variant is case's)
            own = set(COPY_CANDIDATE.findall(origin.pair.original))
            words = [w for w in words if w in own]
        if not words and not more:
            return []
        return [text_issue(self.name, text, y, origin, "copied", len(words) + sum(map(len, more.values())),
                           {"words": words, **more})]


def said_of_code(text: str) -> bool:
    """Whether a word of ``text`` says something of the code right before it ("fake_fork() failed",
    "-K requires KEY=VALUE", "`--posix' overrides"): its lone word is a sentence's, not a term."""
    return any(re.match(r"\s+[a-z]{3,}\b", text[t.end:]) for t in software_tokens(text)
               if t.kind in ("identifier", "option", "quoted"))


def _words(text: str) -> set[str]:
    return {w.casefold() for w in TOKEN.sub(" ", text).split() if any(c.isalpha() for c in w)}


def _untokened(text: str) -> str:
    """``text`` without its pass-through tokens (the words of a URL or a hashtag are carried over
    verbatim by right)."""
    return TOKEN.sub(" ", text)
