"""Text checks the production relations share, each in one place (docs/relations.md):

- :mod:`.numbers`: numbers, amounts and percentages of a source and how the target language
  writes them (Babel's CLDR data);
- :mod:`.tokens`: pass-through tokens (URLs, e-mail addresses, handles, hashtags, emoji, inline
  code, placeholders, markup tags);
- :mod:`.language`: language identification of a translation (py3langid);
- :mod:`.untranslated`: the untranslated-word rule (a word standing verbatim in a translation
  that is not the target language's own), shared by the ``sit`` and ``language`` relations;
- :mod:`.compare`: how two translations are compared (words that differ).
"""
