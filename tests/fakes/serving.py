"""Serving a fake on 127.0.0.1: one helper for every fake HTTP server (the providers, the hub)."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Optional


class LoopbackServer(ThreadingHTTPServer):
    """A threaded HTTP server on 127.0.0.1 whose handlers reach the fake as ``self.server.fake``;
    a client that gave up (a timeout) is no error here."""

    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request, client_address):
        pass


class Served:
    """Start and stop a fake's server (``start()``, ``stop()`` or a ``with`` block) on a free port
    of 127.0.0.1, serving in a daemon thread; subclasses name their :attr:`handler`."""

    handler: type[BaseHTTPRequestHandler]
    _server: Optional[LoopbackServer] = None

    @property
    def address(self) -> str:
        """``http://127.0.0.1:PORT`` of the running server."""
        assert self._server is not None, f"start() the {type(self).__name__} first"
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def start(self):
        self._server = LoopbackServer(("127.0.0.1", 0), self.handler)
        self._server.fake = self  # type: ignore[attr-defined]
        threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
