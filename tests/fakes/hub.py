"""A fake model hub on 127.0.0.1: the Hugging Face Hub's download protocol (what huggingface_hub,
and so transformers' ``from_pretrained`` and Stanza's model downloads, request under
``HF_ENDPOINT``) and Stanza's resources index (``STANZA_RESOURCES_URL``).

Served, for repositories held as directories of files:

* ``HEAD``/``GET /{repo_id}/resolve/{revision}/{path}``: the file, with ``X-Repo-Commit``,
  ``ETag`` (the git blob id; large files carry ``X-Linked-Etag`` (sha256) and ``X-Linked-Size``
  as the hub's LFS files do) and ``Content-Length``; ``Range: bytes=N-`` is honoured. A missing file
  is a 404 with ``X-Error-Code: EntryNotFound``, an unknown repository one with ``RepoNotFound``.
* ``GET /api/models/{repo_id}`` and ``/api/models/{repo_id}/revision/{revision}``: the model's
  info with its ``sha`` and ``siblings``.
* ``GET /api/models/{repo_id}/tree/{revision}[/{path}]``: the file listing.
* ``GET /stanza/resources_{version}.json``: Stanza's resources index, whose ``url`` template sends
  Stanza's model downloads to ``https://huggingface.co/stanfordnlp/stanza-{lang}/resolve/
  v{resources_version}/models/{filename}``, as the real index does: Stanza hands such URLs to
  huggingface_hub, which asks ``HF_ENDPOINT``, this hub.

Every request is counted (:attr:`FakeHub.requests`), so that a test can prove that a run made
none. Nothing here reaches beyond 127.0.0.1.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Optional
from urllib.parse import unquote, urlsplit

from .serving import Served

LFS_SUFFIXES = (".safetensors", ".bin", ".pt", ".spm", ".model", ".h5", ".msgpack")
STANZA_URL = "https://huggingface.co/stanfordnlp/stanza-{lang}/resolve/v{resources_version}/models/{filename}"


def git_blob_id(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def _reply(self, method: str) -> None:
        status, headers, body = self.server.fake.answer(method, self.path, self.headers)  # type: ignore[attr-defined]
        self.send_response(status)
        for k, v in headers.items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if method != "HEAD":
            self.wfile.write(body)

    def do_HEAD(self):  # noqa: N802
        self._reply("HEAD")

    def do_GET(self):  # noqa: N802
        self._reply("GET")

    def log_message(self, *args):  # quiet
        pass


class FakeHub(Served):
    """``FakeHub().start()``; :meth:`add_repo` serves a directory as a model repository,
    :meth:`add_stanza` serves tiny Stanza pipelines; :meth:`env` is what points clients here."""

    handler = _Handler

    def __init__(self):
        self.repos: dict[str, dict[str, Path]] = {}
        self.stanza_index: Optional[bytes] = None
        self.requests: list[tuple[str, str]] = []
        self.unknown: list[tuple[str, str]] = []  # requests this fake does not speak (a test may look)
        self._lock = threading.Lock()
        self._env: dict[str, str] = {}

    # -- content ---------------------------------------------------------------------------------
    def add_repo(self, repo_id: str, folder: Path, prefix: str = "") -> "FakeHub":
        files = self.repos.setdefault(repo_id, {})
        for path in sorted(Path(folder).rglob("*")):
            if path.is_file():
                files[prefix + path.relative_to(folder).as_posix()] = path
        return self

    def add_stanza(self, models: dict[str, dict[str, Path]], version: str) -> "FakeHub":
        """Serve Stanza pipelines (language code -> processor -> file) and their index for Stanza
        ``version`` (its resources version)."""
        from tiny_stanza import PACKAGE, stanza_resources

        for code, files in models.items():
            repo = self.repos.setdefault(f"stanfordnlp/stanza-{code}", {})
            for proc, path in files.items():
                repo[f"models/{proc}/{PACKAGE}.pt"] = path
        self.stanza_version = version
        self.stanza_index = json.dumps(stanza_resources(models, STANZA_URL), indent=1).encode()
        return self

    @staticmethod
    def commit(repo_id: str) -> str:
        return hashlib.sha1(repo_id.encode()).hexdigest()

    # -- serving ---------------------------------------------------------------------------------
    @property
    def url(self) -> str:
        return self.address

    def env(self) -> dict[str, str]:
        """The variables that point huggingface_hub and Stanza here."""
        return {"HF_ENDPOINT": self.url, "STANZA_RESOURCES_URL": f"{self.url}/stanza"}

    @property
    def env_when_started(self) -> dict[str, str]:
        """:meth:`env` as it was while the hub ran (its address, now dead, once stopped)."""
        return dict(self._env)

    def start(self) -> "FakeHub":
        super().start()
        self._env = self.env()
        return self

    def count(self) -> int:
        with self._lock:
            return len(self.requests)

    # -- the protocol ----------------------------------------------------------------------------
    def answer(self, method: str, raw_path: str, headers) -> tuple[int, dict[str, str], bytes]:
        path = unquote(urlsplit(raw_path).path)
        with self._lock:
            self.requests.append((method, path))
        if self.stanza_index is not None and path == f"/stanza/resources_{self.stanza_version}.json":
            return 200, {"Content-Type": "application/json", "ETag": f'"{git_blob_id(self.stanza_index)}"'}, self.stanza_index
        api = re.fullmatch(r"/api/models/(.+?)(?:/(revision|tree)/([^/]+)(/.*)?)?", path)
        if api and method == "GET":
            repo = self._repo(api.group(1))
            if repo is None:
                return self._repo_missing()
            return self._api(api.group(1), repo, api.group(2), (api.group(4) or "").strip("/"))
        for repo_id, files in self.repos.items():
            prefix = f"/{repo_id}/resolve/"
            if path.startswith(prefix):
                _, _, filename = path[len(prefix):].partition("/")
                return self._resolve(repo_id, files, filename, method, headers)
        if "/resolve/" in path:
            return self._repo_missing()
        with self._lock:
            self.unknown.append((method, path))
        return 404, {"Content-Type": "text/plain"}, b"Not Found"

    def _repo(self, repo_id: str) -> Optional[dict[str, Path]]:
        return self.repos.get(repo_id)

    @staticmethod
    def _repo_missing() -> tuple[int, dict[str, str], bytes]:
        return 401, {"X-Error-Code": "RepoNotFound", "X-Error-Message": "Repository not found",
                     "Content-Type": "application/json"}, b'{"error": "Repository not found"}'

    def _resolve(self, repo_id, files, filename, method, headers):
        commit = self.commit(repo_id)
        if filename not in files:
            return 404, {"X-Error-Code": "EntryNotFound", "X-Repo-Commit": commit,
                         "X-Error-Message": "Entry not found", "Content-Type": "application/json"}, b'{"error": "Entry not found"}'
        data = files[filename].read_bytes()
        out = {"X-Repo-Commit": commit, "ETag": f'"{git_blob_id(data)}"', "Accept-Ranges": "bytes",
               "Content-Type": "application/octet-stream"}
        if filename.endswith(LFS_SUFFIXES):
            out["X-Linked-Etag"] = f'"{hashlib.sha256(data).hexdigest()}"'
            out["X-Linked-Size"] = str(len(data))
        status = 200
        m = re.fullmatch(r"bytes=(\d+)-", headers.get("Range", "") or "")
        if m and method == "GET":
            start = int(m.group(1))
            out["Content-Range"] = f"bytes {start}-{len(data) - 1}/{len(data)}"
            data, status = data[start:], 206
        return status, out, data

    def _api(self, repo_id, files, kind, sub):
        commit = self.commit(repo_id)
        if kind == "tree":
            entries = [{"type": "file", "oid": git_blob_id(p.read_bytes()), "size": p.stat().st_size, "path": name}
                       for name, p in files.items() if not sub or name.startswith(sub + "/")]
            body = json.dumps(entries).encode()
        else:
            body = json.dumps({"id": repo_id, "modelId": repo_id, "sha": commit, "private": False, "disabled": False,
                               "gated": False, "tags": [], "siblings": [{"rfilename": n} for n in files]}).encode()
        return 200, {"Content-Type": "application/json", "X-Repo-Commit": commit}, body
