"""Credentials of the cloud translators: environment variables first, then a TOML file.

The file is ``$SIT_CONFIG`` when set, else ``$XDG_CONFIG_HOME/sit/credentials.toml`` (by default
``~/.config/sit/credentials.toml``), resolved each time it is read. One table per provider::

    [baidu]
    appid = "2015063000000001"
    secret = "12345678"

    [bing]
    key = "..."
    region = "westeurope"
    endpoint = "https://my-proxy.example/translate"   # optional, like SIT_BING_ENDPOINT

Values are never logged, cached or written into a run directory.
"""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path
from typing import Mapping, Optional

from .errors import ConfigError

log = logging.getLogger("sit.translators")


def config_path(env: Optional[Mapping[str, str]] = None) -> Path:
    """Where the credentials file is looked for, resolved now."""
    env = os.environ if env is None else env
    explicit = env.get("SIT_CONFIG")
    if explicit:
        return Path(explicit).expanduser()
    base = env.get("XDG_CONFIG_HOME") or str(Path("~/.config").expanduser())
    return Path(base).expanduser() / "sit" / "credentials.toml"


def load_section(provider: str, env: Optional[Mapping[str, str]] = None) -> dict[str, str]:
    """The ``[provider]`` table of the credentials file as strings ({} when there is no file).

    A file that is not UTF-8 or not valid TOML is a :class:`ConfigError` naming the file (never
    its content). An explicit ``$SIT_CONFIG`` that does not exist is an error too: the user asked
    for it."""
    path = config_path(env)
    data = read_all(env)
    section = data.get(provider, {})
    if not isinstance(section, dict):
        raise ConfigError(f"in {path}, {provider!r} must be a table ([{provider}]), not a {type(section).__name__}")
    return {str(k): str(v) for k, v in section.items() if not isinstance(v, (dict, list))}


def read_all(env: Optional[Mapping[str, str]] = None, *, warn: bool = True) -> dict[str, dict[str, str]]:
    """Every table of the credentials file ({} when there is no file), values as strings; the
    errors of :func:`load_section`. With ``warn``, a file others can read is warned about."""
    path = config_path(env)
    env = os.environ if env is None else env
    if not path.exists():
        if env.get("SIT_CONFIG"):
            raise ConfigError(f"SIT_CONFIG names {path}, which does not exist; fix the path or unset SIT_CONFIG")
        return {}
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10: the same parser, published as tomli
        import tomli as tomllib  # type: ignore[no-redef]

    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except OSError as exc:
        raise ConfigError(f"cannot read the credentials file {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"the credentials file {path} is not UTF-8 text (byte {exc.start + 1}); save it as "
                          "UTF-8 or set the SIT_* environment variables instead") from None
    except (tomllib.TOMLDecodeError, RecursionError) as exc:
        # the decoder's message names a line and column, never the secret values
        why = exc if isinstance(exc, tomllib.TOMLDecodeError) else "nested too deeply"
        raise ConfigError(f"the credentials file {path} is not valid TOML ({why}); fix it or set the "
                          "SIT_* environment variables instead") from None
    try:
        mode = path.stat().st_mode
        if warn and mode & (stat.S_IRGRP | stat.S_IROTH):
            log.warning("the credentials file %s is readable by other users; chmod 600 it", path)
    except OSError:
        pass
    return {name: ({str(k): str(v) for k, v in table.items() if not isinstance(v, (dict, list))}
                   if isinstance(table, dict) else table) for name, table in data.items()}
