"""The noise catalogue: character-, word-, sentence- and document-level perturbations.

Every perturber here is driven only by the ``random.Random`` passed to
:meth:`~sit.perturb.base.Perturber.perturb` (never the global random state): each input text
draws one 64-bit seed from it and works from its own ``random.Random``, so the same seed and
input give the same output on any machine, and one text's output does not depend on how many
draws the texts before it needed.

A perturbation that cannot apply (a one-letter word, a one-sentence document, only stop words)
returns the input unchanged with the reason in :attr:`Outcome.reason` (and in ``Edit.note``,
with ``Edit.position == -1``), never an unchanged text posing as a perturbation.

Options common to the catalogue (keyword arguments of every constructor, so
``sit run --perturber NAME`` can create any of them):

- ``n``: how many edits per text (default 1); ``rate``: instead of ``n``, the fraction of the
  eligible units to edit (at least one);
- ``num_perturb``: how many distinct perturbed variants per text (default 1);
- which words are eligible: ``skip_stopwords`` (default True; False for ``word_reorder``; the
  stop words are :func:`sit.words.noise_stop_words`), ``skip_numbers`` (default True),
  ``skip_entities`` (default False; needs the English spaCy pipeline), ``min_word_length``
  (default 2), ``protect`` (regular expressions: words overlapping a match are never edited).

The modules: :mod:`.outcome` (what a perturbation did), :mod:`.base` (:class:`NoisePerturber`),
and one module a level: :mod:`.character`, :mod:`.word`, :mod:`.document` (sentence and document
reorderings). The registry names them here, ``sit.perturb.noise:<Class>``.
"""

from .base import WORD_SELECTION, NoisePerturber, WordEditor
from .character import (ALPHABET, CharacterDelete, CharacterInsert, CharacterPerturber, CharacterRepeat,
                        CharacterReplace, CharacterSwap, Homoglyph)
from .document import DocumentReorder, SentenceReorder
from .outcome import Outcome, apply_replacements, draw_seeds, not_applied
from .word import WordDelete, WordHomograph, WordReorder, WordSynonym

__all__ = [
    "ALPHABET", "WORD_SELECTION", "CharacterDelete", "CharacterInsert", "CharacterPerturber", "CharacterRepeat",
    "CharacterReplace", "CharacterSwap", "DocumentReorder", "Homoglyph", "NoisePerturber", "Outcome",
    "SentenceReorder", "WordDelete", "WordEditor", "WordHomograph", "WordReorder", "WordSynonym", "apply_replacements",
    "draw_seeds", "not_applied",
]
