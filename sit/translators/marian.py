"""MarianMT (opus-mt) through transformers: local neural MT, batched generation (the shared
seq2seq base, :class:`sit.translators.seq2seq.Seq2SeqTranslator`, without language tokens).

The model loads once, when the first batch that is not cached needs it: a re-run answered from
the cache loads nothing.
"""

from __future__ import annotations

from typing import Any, Optional

from .seq2seq import Seq2SeqTranslator

DEFAULT_MARIAN = "Helsinki-NLP/opus-mt-en-zh"


class MarianTranslator(Seq2SeqTranslator):
    name = "marian"
    family = "MarianMT"
    default_target = "zh"  # the default model, opus-mt-en-zh
    # 32 sentences a generate() call; on a GPU raise it with --batch-size (an H100 translates
    # about 44 sentences/s at 16, 111 at 64, 387 at 200: benchmarks/bench_models.py)
    default_batch_size = 32

    @classmethod
    def hub_model(cls, source_lang: str, target_lang: str, model: Optional[str] = None) -> str:
        return model or (DEFAULT_MARIAN if (source_lang, target_lang) == ("en", "zh")
                         else f"Helsinki-NLP/opus-mt-{source_lang}-{target_lang}")

    def __init__(self, source_lang: str = "en", target_lang: str = "zh", *, model: Optional[str] = None, **kwargs):
        super().__init__(source_lang, target_lang, model=model, **kwargs)

    def language_code(self, code: str) -> str:
        return code

    def language_token(self, code: str) -> None:
        return None  # one model per language pair

    def classes(self):
        from transformers import MarianMTModel, MarianTokenizer

        return MarianTokenizer, MarianMTModel

    def version(self) -> str:
        # the beam size has keyed Marian's cache through its version since before options existed
        mtime = super().version()
        return f"{mtime}|beams-{self.beam_size}" if mtime else f"beams-{self.beam_size}"

    def options(self) -> dict[str, Any]:
        return {}  # in version(): caches written before translator options keep their keys

    def _unavailable(self, why: str) -> str:
        return (
            f"cannot load MarianMT model {self.model!r}: it is neither a local directory nor "
            f"reachable on the model hub ({why}). Download it once where there is internet (e.g. "
            f"`python -c \"from transformers import MarianMTModel, MarianTokenizer as T; "
            f"T.from_pretrained('{self.model}').save_pretrained('opus-mt'); "
            f"MarianMTModel.from_pretrained('{self.model}').save_pretrained('opus-mt')\"`) and pass "
            "--model opus-mt; or use --translator apertium, which works offline"
        )
