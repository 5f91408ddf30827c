"""``sentence_paraphrase``: one sentence of a text rewritten by a seq2seq paraphrase model.

A model must be given (``model=``: a directory or a hub id such as a T5 paraphraser); without one
the constructor raises :class:`~sit.errors.ConfigError`. Generation is beam search, so the output
depends only on the text, the model and the options; the rng only picks the sentence when
``target="random"``. A paraphrase identical to the sentence (spaces aside) is not a perturbation.
"""

from __future__ import annotations

import random
from typing import Any, Optional, Sequence

from ..models import hf
from ..errors import ConfigError
from .noise import WORD_SELECTION, NoisePerturber, Outcome, draw_seeds, not_applied
from .text import sentences
from ..text import squeeze


class SentenceParaphrase(NoisePerturber):
    name = "sentence_paraphrase"
    uses_gpu = True  # an engine gives its workers --gpus-per-worker
    level = "sentence"
    unit = "sentence"
    ignored_options = WORD_SELECTION

    def __init__(
        self,
        *,
        model: Optional[str] = None,
        target: str = "first",
        num_beams: int = 4,
        max_new_tokens: int = 64,
        prefix: Optional[str] = None,
        device: Optional[str] = None,
        **options: Any,
    ):
        super().__init__(**options)
        if not model:
            raise ConfigError(
                "sentence_paraphrase needs a paraphrase model: pass model=NAME_OR_DIRECTORY (on the command line: "
                "--paraphrase-model NAME_OR_DIRECTORY), e.g. a T5 paraphraser such as "
                "humarin/chatgpt_paraphraser_on_T5_base where the model hub is reachable"
            )
        if target not in ("first", "random"):
            raise ConfigError(f"sentence_paraphrase: target must be 'first' or 'random', not {target!r}")
        self.model = model
        self.target = target
        self.num_beams = num_beams
        self.max_new_tokens = max_new_tokens
        self.prefix = prefix
        from ..models import checked_device

        self.device = checked_device(device, "the paraphrase model")  # a bad one fails now, before any work
        self._loaded = None

    def model_id(self) -> str:
        """The model, with its weights' stamp where it is a local directory (retrained in place,
        it keys new cache entries)."""
        from ..stage import weights_stamp

        stamp = weights_stamp(self.model)
        return f"{self.model}@{stamp}" if stamp else self.model

    def options(self) -> dict[str, Any]:
        return {
            "num_perturb": self.num_perturb, "target": self.target, "num_beams": self.num_beams,
            "max_new_tokens": self.max_new_tokens, "prefix": self.prefix,
        }

    def describe(self) -> str:
        return f"sentence_paraphrase ({self.model}, {self.target} sentence)"

    def _load(self):
        if self._loaded is None:
            self._loaded = hf.load(self.model, what="the paraphrase model", device=self.device)
        return self._loaded

    def perturb_detailed(
        self, texts: Sequence[str], rng: Optional[random.Random] = None, *, seeds: Optional[Sequence[int]] = None
    ) -> list[list[Outcome]]:
        texts = list(texts)
        seeds = draw_seeds(texts, rng, seeds)
        picks: dict[int, Any] = {}
        out: list[Optional[list[Outcome]]] = [None] * len(texts)
        for i, text in enumerate(texts):
            if not text.strip():
                out[i] = [not_applied(text, "empty text")]
                continue
            sents = sentences(text)
            r = random.Random(seeds[i])
            picks[i] = sents[0] if self.target == "first" else r.choice(sents)
        if picks:
            tokenizer, net, device = self._load()
            prefix = self.prefix
            if prefix is None:
                prefix = "paraphrase: " if getattr(net.config, "model_type", "") in ("t5", "mt5") else ""
            order = sorted(picks)
            k = self.num_perturb
            gens = hf.generate(
                tokenizer, net, device, [prefix + picks[i].text for i in order],
                num_return_sequences=k, num_beams=max(self.num_beams, k), max_new_tokens=self.max_new_tokens,
            )
            for i, cands in zip(order, gens):
                s = picks[i]
                outcomes, seen = [], set()
                for c in cands:
                    if not c.strip() or squeeze(c) == squeeze(s.text) or c in seen:
                        continue
                    seen.add(c)
                    outcomes.append(self._replaced(texts[i], [(s.start, s.end, c, s.index, f"paraphrase of sentence {s.index}")]))
                out[i] = outcomes or [not_applied(texts[i], "the model returned the sentence unchanged")]
        return [o for o in out if o is not None]
