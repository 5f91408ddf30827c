"""``lead-3``: the first three sentences of a document, the classic offline news baseline."""

from __future__ import annotations

from typing import Any

from ..perturb.text import DOCUMENT_SEPARATOR, documents, sentences
from .base import Summarizer


class LeadSummarizer(Summarizer):
    """The first ``k`` sentences (default 3) of a text; in a multi-document text (documents joined
    by ``separator``) the sentences are counted across the documents in order."""

    name = "lead-3"
    default_batch_size = 256

    def __init__(self, *, k: int = 3, separator: str = DOCUMENT_SEPARATOR, **options: Any):
        super().__init__(**options)
        from ..validate import check_number

        self.k = check_number(k, "lead-k: k", minimum=1, integer=True)
        self.separator = separator

    def model_id(self) -> str:
        return f"lead-{self.k}"

    def options(self) -> dict[str, Any]:
        return {"k": self.k, "separator": self.separator}

    def describe(self) -> str:
        return f"lead-{self.k} (the first {self.k} sentences; offline baseline)"

    def lead(self, text: str) -> str:
        out: list[str] = []
        for doc in documents(text, self.separator):
            for s in sentences(doc.text):
                out.append(s.text)
                if len(out) == self.k:
                    return " ".join(out)
        return " ".join(out)

    def _summarize_batch(self, docs: list[str]) -> list[str]:
        return [self.lead(d) for d in docs]
