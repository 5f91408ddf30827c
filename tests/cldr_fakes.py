"""A cldr-json npm package made by a test: what scripts/cldr_min_grouping.py and
scripts/cldr_quotes.py read (``package/package.json`` and ``package/main/LOCALE/FILE.json``)."""

from __future__ import annotations

import io
import json
import tarfile
from pathlib import Path


def npm_package(folder: Path, name: str, file: str, locales: dict[str, dict]) -> Path:
    """``folder/NAME-0.tgz`` holding ``main/LOCALE/FILE.json`` for each of ``locales`` (locale ->
    the body under ``main.LOCALE``) and a package.json naming it version 0."""
    tgz = folder / f"{name}-0.tgz"
    files = {"package/package.json": {"name": name, "version": "0", "license": "Unicode-3.0"}}
    files.update({f"package/main/{locale}/{file}.json": {"main": {locale: body}} for locale, body in locales.items()})
    with tarfile.open(tgz, "w:gz") as tar:
        for path, doc in files.items():
            data = json.dumps(doc, ensure_ascii=False).encode()
            info = tarfile.TarInfo(path)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return tgz
