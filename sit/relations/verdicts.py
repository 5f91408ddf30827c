"""What a check found on one (source, translation) pair, through the cache.

A re-run answered from the cache translates nothing, yet its single-translation checks (the
``language`` relation's identifier and copied-word rules, the ``numbers`` relation's CLDR forms)
judged every text again, and the ``sit`` relation aligned and counted every pair's trees again:
most of a cached run's time. :class:`Verdicts` keeps each verdict (a
JSON value the relation makes its findings from, without what depends on where the text came
from) under the pair ``(source, translation)``, in a store whose namespace names the relation,
its options, the languages, the versions of the libraries the verdict reads (wordfreq, py3langid,
Babel, Python) and a fingerprint of the check's code and of sit's data files
(:func:`code_fingerprint`): a change to any of them re-keys the store, so a verdict made by other
code or options is never read back. A
verdict is stored only once computed without error; where the code cannot be read (no source
files), nothing is cached.
"""

from __future__ import annotations

import hashlib
import json
from importlib import util
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Optional

from ..records import package_versions

#: the modules every single-translation check reads, besides its relation's own
CHECK_MODULES = ("sit.textcheck", "sit.words", "sit.text", "sit.records", "sit.relations.verdicts")
#: the folders of the sit package whose data files a check may read (CLDR's grouping digits)
CHECK_DATA = ("data",)
#: the libraries whose data a verdict may read
CHECK_LIBRARIES = ("wordfreq", "py3langid", "babel")


def code_fingerprint(modules: Iterable[str], data: Iterable[str] = CHECK_DATA) -> Optional[str]:
    """A hash of the source of ``modules`` (a package: every ``.py`` file in its folder) and of the
    files in the folders ``data`` of the sit package, or None where a module has no readable
    source file."""
    digest = hashlib.sha256()
    files: list[tuple[str, Path]] = []
    for name in sorted(set(modules)):
        spec = util.find_spec(name)
        origin = Path(spec.origin) if spec is not None and spec.origin else None
        if origin is None or origin.suffix != ".py":
            return None
        files += [(name, path) for path in (sorted(origin.parent.glob("*.py")) if origin.name == "__init__.py"
                                            else [origin])]
    root = Path(__file__).resolve().parent.parent
    files += [(folder, path) for folder in sorted(set(data)) for path in sorted((root / folder).glob("*"))
              if path.is_file()]
    for name, path in files:
        try:
            digest.update(f"{name}/{path.name}\0".encode() + path.read_bytes() + b"\0")
        except OSError:
            return None
    return digest.hexdigest()


class Verdicts:
    """One relation's verdicts on (source, translation) pairs, read from and written to the
    run's cache (none: computed every time)."""

    def __init__(self, cache, relation: str, options: Mapping[str, Any], source_lang: str, target_lang: str,
                 modules: Iterable[str] = ()):
        self.store = None
        if cache is not None:
            code = code_fingerprint((*modules, *CHECK_MODULES))
            if code is not None:
                self.store = cache.store("verdicts", {"relation": relation, "options": dict(options),
                                                      "source": source_lang, "target": target_lang,
                                                      "versions": package_versions(CHECK_LIBRARIES), "code": code})

    def many(self, pairs: Iterable[tuple[str, ...]],
             compute: Callable[[list[tuple[str, ...]]], list[Any]]) -> dict[tuple[str, ...], Any]:
        """(source, translation) -> its verdict, for each of ``pairs`` (or any tuple of the texts a
        verdict depends on: ``sit``'s two translations and the edit's two words): read from the
        cache in one query per 500, the others given to ``compute`` in one batch (which returns
        their verdicts in order) and cached."""
        keys = {json.dumps(pair, ensure_ascii=False): pair for pair in dict.fromkeys(pairs)}
        known = self.store.get_many(keys) if self.store is not None and keys else {}
        out = {keys[key]: value for key, value in known.items()}
        todo = [(key, pair) for key, pair in keys.items() if key not in known]
        if todo:
            values = compute([pair for _, pair in todo])
            out.update((pair, value) for (_, pair), value in zip(todo, values))
            if self.store is not None:
                self.store.put_many((key, value) for (key, _), value in zip(todo, values))
        return out


__all__ = ["CHECK_DATA", "CHECK_LIBRARIES", "CHECK_MODULES", "Verdicts", "code_fingerprint"]
