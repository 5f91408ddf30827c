"""The small exception tree of sit.

Library code raises these; only :mod:`sit.cli` turns them into one-line messages and exit codes.
Every message says what went wrong *and* what to do about it.
"""

from __future__ import annotations


class SitError(Exception):
    """Base of every error sit raises on purpose. ``exit_code`` is what the CLI exits with."""

    exit_code = 1


class InputError(SitError):
    """Bad user input: unreadable, empty, non-UTF-8 or oversized files, mismatched lengths."""

    exit_code = 2


class ConfigError(SitError):
    """An unknown name (dataset, translator, parser, scorer) or an inconsistent set of options."""

    exit_code = 2


class MissingDependencyError(ConfigError):
    """A component needs a package, a model or a system program that is not installed."""

    exit_code = 3


class MissingCredentialsError(ConfigError):
    """A cloud adapter has no credentials; the message names the environment variables."""

    exit_code = 3


class CacheError(SitError):
    """The on-disk cache cannot be read or written."""

    exit_code = 4


class CorruptCacheError(CacheError):
    """A cache file holds data that is not valid; the message names the file."""

    def __init__(self, message: str, path: str | None = None):
        super().__init__(message)
        self.path = path


class OutputError(SitError):
    """An output (run directory, report, perturbed file) cannot be written; checked before the work."""

    exit_code = 4


class TranslationError(SitError):
    """A translator failed. What was translated before the failure is already in the cache."""

    exit_code = 5

    def __init__(self, message: str, *, translator: str | None = None, retryable: bool = False):
        super().__init__(message)
        self.translator = translator
        self.retryable = retryable
        #: translations the failing batch finished before the error (source -> translation);
        #: ``Translator.translate`` caches and returns them
        self.partial: dict[str, str] = {}


class ProviderError(TranslationError):
    """A cloud provider answered with an error (HTTP status or provider error code)."""

    def __init__(
        self,
        message: str,
        *,
        translator: str | None = None,
        status: int | None = None,
        code: str | None = None,
        retryable: bool = False,
        retry_after: float | None = None,
    ):
        super().__init__(message, translator=translator, retryable=retryable)
        self.status = status
        self.code = code
        self.retry_after = retry_after


class AuthError(ProviderError):
    """Credentials were refused. Never retried."""


class RateLimitError(ProviderError):
    """The provider asked us to slow down (HTTP 429 or a provider quota code)."""


class ResponseMismatchError(TranslationError):
    """A response does not match its request (count mismatch, missing field)."""


class IncompleteRunError(SitError):
    """A run finished and wrote its reports but left texts untranslated (a provider refused or
    failed); running the same command again resumes from the cache."""

    exit_code = 6


class ModelError(SitError):
    """A model (masked LM, MarianMT, parser pipeline) could not be loaded or run."""

    exit_code = 3


class WorkerLostError(TranslationError, ModelError):
    """An engine's workers died on a batch every time it was retried (a crash, a machine lost, out
    of memory). A translator leaves the texts untranslated (a re-run resumes); any other stage
    stops the run. Raised only by engines (:mod:`sit.engine`)."""
