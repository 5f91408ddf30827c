"""pytest fixtures for the cloud tests: import them into a test module to use them."""

from __future__ import annotations

import random
import threading

import pytest

from . import FAKES, FakeProvider

SIT_VARS = ("SIT_GOOGLE_API_KEY", "SIT_BING_KEY", "SIT_BING_REGION", "SIT_BAIDU_APPID", "SIT_BAIDU_SECRET",
            "SIT_YOUDAO_APPKEY", "SIT_YOUDAO_SECRET", "SIT_GOOGLE_ENDPOINT", "SIT_BING_ENDPOINT",
            "SIT_BAIDU_ENDPOINT", "SIT_YOUDAO_ENDPOINT", "SIT_CONFIG", "SIT_HTTP_MAX_RETRIES", "SIT_HTTP_BACKOFF",
            "SIT_OPENAI_API_KEY", "SIT_OPENAI_BASE_URL", "OPENAI_API_KEY", "OPENAI_BASE_URL", "SIT_DEEPL_KEY",
            "SIT_DEEPL_ENDPOINT")


class FakeClock:
    """A monotonic clock that only moves when someone sleeps; records the sleeps."""

    def __init__(self, start: float = 1000.0):
        self.now = start
        self.sleeps: list[float] = []
        self._lock = threading.Lock()

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        with self._lock:
            self.sleeps.append(seconds)
            self.now += seconds


@pytest.fixture(autouse=True)
def _no_real_credentials(monkeypatch, tmp_path):
    """No credentials, endpoints or config file of the machine leak into a test."""
    for var in SIT_VARS:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    for var in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "all_proxy"):
        monkeypatch.delenv(var, raising=False)


@pytest.fixture
def serve():
    """``serve("baidu", **options)`` starts a fake; at teardown the fakes stop and the test fails
    if any request was not exactly what the provider expects."""
    started: list[FakeProvider] = []

    def _serve(name: str, **kw) -> FakeProvider:
        fake = FAKES[name](**kw).start()
        started.append(fake)
        return fake

    yield _serve
    for fake in started:
        fake.stop()
    problems = [p for fake in started for p in fake.problems]
    assert not problems, "requests the real provider would refuse:\n" + "\n".join(problems)


@pytest.fixture
def clock():
    return FakeClock()


def make(fake: FakeProvider, *, cache=None, clock: FakeClock | None = None, target: str = "es", **kw):
    """The real adapter, built through the registry, pointed at ``fake`` by its environment."""
    from sit.translators import get_translator

    clock = clock or FakeClock()
    kw.setdefault("rng", random.Random(0))
    kw.setdefault("env", fake.env())
    return get_translator(fake.name, source_lang="en", target_lang=target, cache=cache, clock=clock,
                          sleep=clock.sleep, **kw)
