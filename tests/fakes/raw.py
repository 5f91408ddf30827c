"""A raw HTTP server on 127.0.0.1 for the faults a well-behaved server library cannot play: a
body trickled one byte a second, a chunked body cut short. ``answers`` is a list of functions,
one per connection in order, each given the socket after the request was read."""

from __future__ import annotations

import socket
import threading
import time
from typing import Callable


class RawServer:
    def __init__(self, answers: list[Callable[[socket.socket], None]]):
        self.answers = list(answers)
        self.connections = 0
        self._sock = socket.socket()
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen(8)
        self._stop = threading.Event()
        threading.Thread(target=self._serve, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._sock.getsockname()[1]}/language/translate/v2"

    def _serve(self):
        while not self._stop.is_set():
            try:
                conn, _ = self._sock.accept()
            except OSError:
                return
            answer = self.answers[min(self.connections, len(self.answers) - 1)]
            self.connections += 1
            threading.Thread(target=self._answer, args=(conn, answer), daemon=True).start()

    def _answer(self, conn, answer):
        with conn:
            data = b""
            while b"\r\n\r\n" not in data:
                data += conn.recv(65536)
            head, _, body = data.partition(b"\r\n\r\n")
            length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                           if line.lower().startswith(b"content-length:")), 0)
            while len(body) < length:
                body += conn.recv(65536)
            try:
                answer(conn)
            except OSError:  # the client gave up
                pass

    def close(self):
        self._stop.set()
        self._sock.close()


def trickle(body: bytes, seconds_per_byte: float = 1.0, stop: float = 30.0):
    def answer(conn):
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                     + str(len(body)).encode() + b"\r\n\r\n")
        start = time.monotonic()
        for i in range(len(body)):
            if time.monotonic() - start > stop:
                return
            conn.sendall(body[i:i + 1])
            time.sleep(seconds_per_byte)
    return answer


def chunked_cut_short(body: bytes):
    def answer(conn):
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                     + f"{len(body):x}\r\n".encode() + body[: len(body) // 2])
        conn.shutdown(socket.SHUT_WR)
    return answer


def whole(body: bytes):
    def answer(conn):
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: "
                     + str(len(body)).encode() + b"\r\n\r\n" + body)
    return answer
