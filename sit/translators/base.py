"""The ``Translator`` face: public :meth:`Translator.translate` does de-duplication, caching and
batching; each adapter implements only :meth:`Translator._translate_batch`."""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from typing import Any, Optional, Sequence

from ..batching import BatchJob, BatchStats, cached_batches
from ..cache import EMPTY_TRANSLATION, Cache
from ..errors import ResponseMismatchError, TranslationError
from ..stage import Stage
from ..validate import check_number
from .answers import failed
from .company import Held, Unplaced

log = logging.getLogger("sit.translators")


def _encode(translation: str) -> Any:
    """A translation as cached: the translator's empty answer marked (:data:`EMPTY_TRANSLATION`)."""
    return dict(EMPTY_TRANSLATION) if translation == "" else translation


def _decode(value: Any) -> str:
    return "" if value == EMPTY_TRANSLATION else value


def _short(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:37] + "...")


@dataclass
class TranslatorStats(BatchStats):
    """:class:`~sit.batching.BatchStats` of a translator; ``translated`` is the texts it translated,
    ``empty`` those of them it answered emptily twice (kept as its answer, ``""``)."""

    empty: int = 0

    @property
    def translated(self) -> int:
        return self.computed

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "translated": self.computed, "empty": self.empty}


class Translator(Stage):
    """Base class of every translator adapter (a :class:`~sit.stage.Stage`).

    Subclasses set ``name`` and ``default_batch_size``, may override :meth:`model_id` and
    :meth:`version`, and implement :meth:`_translate_batch` (a list of non-empty texts in, the same
    number of translations out, in order; ``None`` for a text the backend answered emptily or
    refused: it is left untranslated and uncached, so a re-run asks again).

    ``option_specs`` (:class:`sit.options.Option`: typed, with a rule and help) are the
    constructor keywords a user may set with ``--translator-option`` (``option_names``, a tuple of
    names, is the untyped form of old, still read); :meth:`options` returns those of them that change the translations (they join the cache key
    and the run signature).
    """

    name: str = "base"
    kind = "translations"
    verb = "translate"
    unit = "text"
    default_batch_size: int = 32
    option_specs: tuple = ()
    option_names: tuple[str, ...] = ()  # of old: names alone, untyped
    #: whether a text's translation is the same whatever else is in its batch. Only then may a
    #: run translate batches as the perturber finishes them (``--jobs``): a local model's output
    #: depends on the padding of its batch, and an Apertium mode run whole (eng-cat) on the lines
    #: before it in the same call, so for them that would change results.
    batch_independent: bool = False
    #: the target language of a run that names none (``--target-lang``)
    default_target: str = "es"

    def __init__(
        self,
        source_lang: str = "en",
        target_lang: str = "es",
        *,
        model: Optional[str] = None,
        cache: Optional[Cache] = None,
        batch_size: Optional[int] = None,
        progress: bool = False,
        qps: Optional[float] = None,
        timeout: Optional[float] = None,
        concurrency: Optional[int] = None,
        device: Optional[str] = None,
    ):
        # qps (requests per second), timeout (seconds per request) and concurrency (requests in
        # flight) matter to network adapters, device (torch's) to local models; each adapter
        # accepts and ignores the others so the pipeline can pass one set of options.
        # checked here, for every translator alike, whether it uses them or not
        self.device = device
        self.qps = check_number(qps, "--qps", above=0, what="requests per second")
        self.timeout = check_number(timeout, "--timeout", above=0, what="seconds per request")
        self.concurrency = check_number(concurrency, "--concurrency", minimum=1, integer=True,
                                        what="requests in flight")
        batch_size = check_number(batch_size, "--batch-size", minimum=1, integer=True)
        super().__init__(cache=cache, progress=progress)
        self.source_lang = source_lang
        self.target_lang = target_lang
        self.model = model
        self.batch_size = batch_size or self.default_batch_size
        self.stats = TranslatorStats()
        #: the deliberate re-translations of :meth:`translate_in_batch`, counted apart from the
        #: run's one pass (whose ``stats`` the run's summary reports)
        self.batch_stats = TranslatorStats()

    # -- identity ------------------------------------------------------------------------------
    def model_id(self) -> str:
        """The model or engine this adapter translates with (recorded in signatures and cache keys)."""
        return self.model or self.name

    def signature(self) -> dict[str, Any]:
        sig: dict[str, Any] = {
            "name": self.name,
            "model": self.model_id(),
            "version": self.version(),
            "source_lang": self.source_lang,
            "target_lang": self.target_lang,
        }
        if self.options():  # only where there are any: older caches keep their keys
            sig["options"] = self.options()
        return sig

    def batch_job(self, hook: str, *, valid, **how: Any) -> BatchJob:
        """:meth:`Stage.batch_job` with a translation's cached form: the translator's empty answer
        is cached marked (:data:`~sit.cache.EMPTY_TRANSLATION`), so that a cached empty string is
        known for damage."""
        return super().batch_job(hook, valid=valid, encode=_encode, decode=_decode, **how)

    # -- the public face -----------------------------------------------------------------------
    def translate(self, texts: Sequence[str], *, strict: bool = True) -> list[Optional[str]]:
        """Translate ``texts`` in order.

        Identical texts are translated once; cached texts cost no backend call; each finished
        batch is written to the cache before the next one is sent. With ``strict=False`` a
        :class:`TranslationError` (a batch answered with the wrong number of translations is one)
        stops the work but does not propagate: the texts left untranslated come back as ``None``
        and are counted in :attr:`stats`.

        A text answered emptily (or refused: ``None``) is asked once more, in a batch of its own
        kind; an empty answer again is the translator's answer (Apertium answers the bare word
        "will" with nothing, every time): it comes back as ``""`` and is cached marked
        (:data:`~sit.cache.EMPTY_TRANSLATION`: a re-run asks no more, and an empty string found in
        the cache is damage, translated again; ``sit cache prune --empty`` deletes such entries),
        and is counted in ``stats.empty``. A refusal again stays untranslated and uncached (a re-run asks again).

        An answer whose place in its batch the adapter's order check cannot prove
        (:class:`~sit.translators.company.Unplaced`) is held, not cached, and its text asked again
        in other company, then alone where its answer depends on the company
        (:meth:`_second_look`).
        """
        texts = list(texts)
        wanted = [t for t in texts if t.strip()]
        retry: set[str] = set()
        held = Held()
        result = cached_batches(wanted, self._job(strict, retry=retry, held=held))
        again = [t for t in dict.fromkeys(wanted) if t in retry and t not in result]
        if again:
            log.info("%s: %d text(s) answered emptily or refused; asking once more", self.name, len(again))
            result.update(cached_batches(again, self._job(strict, retry=None, held=held)))
        if held:
            result.update(self._second_look(held, strict))
        return [result.get(t) if t.strip() else t for t in texts]

    def _job(self, strict: bool, *, retry: Optional[set[str]], held: Held):
        """The batch job of :meth:`translate`: on the first pass (``retry`` a set) an empty or
        refused answer is left for a second pass (its text joins ``retry``); on the second
        (``retry`` None) an empty answer is kept as ``""`` and a refusal is left untranslated.
        Answers the order check cannot place join ``held``."""
        def unanswered(keys: list[str]) -> Optional[TranslationError]:
            left = [k for k in keys if (retry is None or k not in retry) and k not in held]
            return self._unanswered(left) if left else None

        job = self.batch_job("_translate_batch", valid=lambda t: isinstance(t, str), recoverable=(TranslationError,),
                             finish=lambda batch, answers: held.take(batch, self.check_answer(batch, answers, retry=retry)),
                             strict=strict, unanswered=unanswered, claim=True)
        job.plan = self._plan
        return job

    def _second_look(self, held: Held, strict: bool) -> dict[str, str]:
        """The held answers' texts asked again in other company (each confirmed when its answer
        comes back the same), then the rest alone (:mod:`sit.translators.company`)."""
        log.info("%s: %d answer(s) the order check could not place in their batch; asking %d of their texts "
                 "again in other company", self.name, len(held.first), len(held.asked))
        job = self.batch_job("_translate_again", valid=lambda t: isinstance(t, str), recoverable=(TranslationError,),
                             finish=lambda batch, answers: held.compare(batch, self.check_answer(batch, answers)),
                             strict=strict, claim=True,
                             unanswered=lambda keys: None if all(k in held.alone for k in keys) else self._unanswered(keys))
        job.plan = lambda todo: held.spread(todo, self.batch_size)
        result = cached_batches(held.asked, job) if held.asked else {}
        settled = held.settled()
        if settled:  # no backend call: counted as translated, not as a call
            counts = TranslatorStats()
            result.update(cached_batches(list(settled), replace(job, compute=lambda batch: [settled[t] for t in batch],
                                                                remote=None, finish=None, stats=counts,
                                                                plan=None, batch_size=len(settled))))
            self.stats.computed += counts.computed
        alone = [t for t in held.alone if t not in result]
        if alone:
            log.warning("%s: %d answer(s) not confirmed in other company; asking their texts alone", self.name, len(alone))
            result.update(cached_batches(alone, replace(
                job, finish=lambda batch, answers: self.check_answer(batch, held.answered(batch, answers)),
                plan=None, batch_size=1, unanswered=self._unanswered)))
        if held.moves:
            self._answers_moved()
        return result

    def _translate_again(self, texts: list[str]) -> list[Optional[str]]:
        """The second look's hook (:meth:`_second_look`): texts asked again in other company. As
        :meth:`_translate_batch`; an adapter whose answers are order-checked leaves the check out
        (each answer there is compared with its first)."""
        return self._translate_batch(texts)

    def _plan(self, texts: list[str]) -> Optional[list[list[str]]]:
        """The batches of the texts to translate (None: in order, :attr:`batch_size` at a time)."""
        return None

    def _answers_moved(self) -> None:
        """Hook: texts asked alone showed that this translator moved answers within a batch."""

    def check_answer(self, texts: list[str], answers: Sequence[Any], *,
                     retry: Optional[set[str]] = None) -> list[Any]:
        """The one check of an answer before anything of it is cached: an answer that is not text
        becomes ``None``, left untranslated and uncached (a re-run asks again). An empty answer for
        a non-empty text, and a refusal (``None``), join ``retry`` where it is given (the first
        pass of :meth:`translate`: they are asked once more) and become ``None``; without
        ``retry`` an empty answer is the translator's answer, kept as ``""`` and counted in
        ``stats.empty``. A count that differs from the texts' is left for the batch loop to refuse
        (:meth:`_mismatch`). Adapters that can retry (the cloud ones) apply the same rule to each
        answer first and ask again."""
        answers = list(answers)
        if len(answers) != len(texts):
            return answers
        out = []
        for text, answer in zip(texts, answers):
            why = self.answer_fault(text, answer)
            if retry is not None and (answer is None or why == "empty"):
                retry.add(text)
                out.append(None)
            elif why == "empty":
                log.warning("%s: the answer to %s was empty twice; it is kept as the translator's answer",
                            self.name, _short(text))
                self.stats.empty += 1
                out.append("")
            else:
                if why:
                    log.warning("%s: the answer to %s was %s; it is left untranslated and not cached",
                                self.name, _short(text), why)
                out.append(None if why else answer)
        return out

    def answer_fault(self, text: str, answer: Any) -> Optional[str]:
        """Why ``answer`` is not a translation of ``text`` (None: it may be one): the per-text rule
        (:func:`~sit.translators.answers.failed`), then the adapter's own (:meth:`_answer_fault`)."""
        return failed(text, answer) or self._answer_fault(answer)

    def _answer_fault(self, answer: Any) -> Optional[str]:
        """Hook: what else makes ``answer`` no translation for this adapter (a cloud one's: an echo
        of its credentials)."""
        return None

    # -- deliberate re-translations in chosen company (the batch relation) ----------------------
    def translate_in_batch(self, texts: Sequence[str], neighbourhood: str) -> list[Optional[str]]:
        """Translate ``texts`` together, as one batch in this order (the batch relation's test of
        whether a text's translation depends on its neighbours).

        Each text is cached under a key that names ``neighbourhood`` (a tag the caller makes from
        the batch, such as a hash of its texts) in a namespace of its own: a re-translation in
        other company is never answered by the plain translation of the text, nor by another
        neighbourhood's. Runs in this process through the one cached batch loop; texts left
        untranslated come back as None, as with ``translate(strict=False)``, and so do answers the
        order check cannot place (:class:`~sit.translators.company.Unplaced`: asking them again
        would change the company under test)."""
        if "\n" in neighbourhood:
            raise ValueError("a neighbourhood tag is one line")
        texts = list(texts)
        keys = [f"{neighbourhood}\n{t}" for t in texts if t.strip()]
        store = self.cache.store("translations", {**self.signature(), "neighbourhood": True}) if self.cache else None
        unplaced: set[str] = set()  # answers the order check cannot place: left out, said once

        def finish(batch: list[str], answers: Sequence[Any]) -> list[Any]:
            checked = self.check_answer([k.partition("\n")[2] for k in batch], answers)
            unplaced.update(k for k, a in zip(batch, checked) if isinstance(a, Unplaced))
            return [None if isinstance(a, Unplaced) else a for a in checked]

        def unanswered(keys: list[str]) -> Optional[TranslationError]:
            left = [k.partition("\n")[2] for k in keys if k not in unplaced]
            if len(left) < len(keys):
                log.info("%s: %d answer(s) in chosen company the order check could not place are left out",
                         self.name, len(keys) - len(left))
            return self._unanswered(left) if left else None

        job = BatchJob(
            compute=lambda batch: self._translate_batch([k.partition("\n")[2] for k in batch]),
            mismatch=self._mismatch, stats=self.batch_stats, store=store, batch_size=max(1, len(keys)),
            desc=f"translate in batches ({self.name})", unit="text", show_progress=False,
            valid=lambda t: isinstance(t, str), recoverable=(TranslationError,), strict=False,
            unanswered=unanswered, finish=finish, encode=_encode, decode=_decode,
        )
        result = cached_batches(keys, job)
        return [result.get(f"{neighbourhood}\n{t}") if t.strip() else t for t in texts]

    def _mismatch(self, n: int, total: int, sent: int, got: int) -> ResponseMismatchError:
        return ResponseMismatchError(
            f"{self.name}: batch {n} of {total} sent {sent} text(s) and got {got} translation(s) back "
            "(expected one text per text sent)",
            translator=self.name,
        )

    def _unanswered(self, texts: list[str]) -> TranslationError:
        return TranslationError(
            f"{self.name}: {len(texts)} text(s) got an empty or refused answer, or one cut short (first {_short(texts[0])}); "
            "they are left untranslated and not cached: run again to ask again",
            translator=self.name,
        )

    # -- the adapter hook ----------------------------------------------------------------------
    def _translate_batch(self, texts: list[str]) -> list[str]:
        raise NotImplementedError

