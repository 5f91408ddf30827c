"""Perturbers, looked up by name without importing their dependencies."""

from __future__ import annotations

from .. import hints
from ..registry import TORCH_INSTALL_HINT, Entry, Registry
from .base import Perturber

PERTURBERS = Registry(
    "perturber",
    {
        "mlm": Entry(
            "sit.perturb.mlm:MaskedLMPerturber",
            TORCH_INSTALL_HINT,
            "SIT: a masked LM replaces one noun/adjective at a time with a same-POS word",
        ),
        "wordnet": Entry(
            "sit.perturb.wordnet:WordNetPerturber",
            f"{hints.WORDNET} (or {hints.WORDNET_NLTK})",
            "same-POS WordNet neighbours of nouns and adjectives (offline)",
        ),
    },
    group="sit.perturbers",
    base="sit.perturb.base:Perturber",
)

# The noise catalogue (sit.perturb.noise): character-, word-, sentence- and document-level.
_NOISE = {
    "character_swap": ("CharacterSwap", "swap two adjacent letters of a word"),
    "character_delete": ("CharacterDelete", "delete a letter of a word"),
    "character_insert": ("CharacterInsert", "insert a random letter into a word"),
    "character_replace": ("CharacterReplace", "replace a letter of a word with a random one"),
    "character_repeat": ("CharacterRepeat", "repeat a letter of a word"),
    "homoglyph": ("Homoglyph", "replace a Latin letter with a look-alike Cyrillic/Greek code point"),
    "word_delete": ("WordDelete", "delete a word"),
    "word_synonym": ("WordSynonym", "replace a word with a same-POS WordNet synonym"),
    "word_homograph": ("WordHomograph", "rewrite a whole word with look-alike code points"),
    "word_reorder": ("WordReorder", "swap two adjacent words"),
    "sentence_reorder": ("SentenceReorder", "shuffle the sentences of a document"),
    "document_reorder": ("DocumentReorder", "shuffle the documents of a multi-document text"),
}
for _name, (_cls, _desc) in _NOISE.items():
    PERTURBERS.register(
        _name,
        f"sit.perturb.noise:{_cls}",
        f"{hints.WORDNET}; {hints.SPACY_FROM_PYPI['en']}"
        if _name == "word_synonym" else "",
        _desc,
    )
PERTURBERS.register(
    "sentence_paraphrase",
    "sit.perturb.paraphrase:SentenceParaphrase",
    TORCH_INSTALL_HINT,
    "paraphrase a sentence with a seq2seq paraphrase model (model=NAME_OR_PATH)",
)

__all__ = ["PERTURBERS", "Perturber"]
