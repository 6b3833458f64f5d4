#!/usr/bin/env bash
# What `make test` needs beyond Go and Node, installed when missing.
#
#   scripts/test-deps.sh             install what is missing (see below)
#   scripts/test-deps.sh --has SUITE exit 0 when SUITE's packages are there
#
# As root (CI, a fresh container) missing Debian packages are installed with
# apt-get (one `apt-get update` first, only when something is missing). As
# another user nothing is installed: one line per suite that will be skipped
# or fail says what to install. The reference ast-grep for the differential
# tests is installed with `npm ci` at the repository root when it is missing
# or package-lock.json changed since the last install. Every step checks
# before it acts, so a second run does nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

# The Python standard library and its test suite, pinned (a corpus of the
# differential and parity tests).
python_version=3.11.2-6+deb12u9
python_pkgs=(libpython3.11-stdlib libpython3.11-testsuite)

# suite name, what it is for, its Debian packages.
suites=(grammars-check cgo browser shells editors rust-src)
declare -A about=(
  [grammars-check]="the grammar modules' byte-identical rebuild (make grammars-check), loupe grammar build's tests and the custom-language differential test (with cgo's gcc)"
  [cgo]="the race detector runs and native tree-sitter parity (cgo: a C compiler)"
  [browser]="the npm package's browser test (js/test/browser.test.mjs)"
  [shells]="the completion scripts loaded in their shells (cmd/loupe TestCompletions*)"
  [editors]="the Neovim configuration of docs/lsp.md run in Neovim (tests/docs TestNeovimConfig)"
  [rust-src]="the project index's manifests on the Rust source's Cargo workspace (index/manifest TestRustSource, make bench-index)"
)
declare -A pkgs=(
  [grammars-check]="clang-19 lld-19 wasi-libc libclang-rt-19-dev-wasm32 libc++-19-dev-wasm32 libc++abi-19-dev-wasm32"
  [cgo]="gcc g++"
  [browser]="chromium"
  [shells]="zsh fish elvish"
  [editors]="neovim"
  [rust-src]="rust-src"
)

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
version_of() { installed "$1" && dpkg-query -W -f='${Version}' "$1"; }

missing_of() { # the packages of suite $1 that are not installed
  local p out=()
  for p in ${pkgs[$1]}; do installed "$p" || out+=("$p"); done
  echo "${out[*]}"
}

if [ "${1:-}" = --has ]; then
  [ -n "${2:-}" ] && [ -n "${pkgs[$2]+x}" ] || { echo "test-deps: --has takes one of: ${suites[*]}" >&2; exit 2; }
  command -v dpkg-query >/dev/null && [ -z "$(missing_of "$2")" ]
  exit
fi

for tool in go node npm; do
  command -v "$tool" >/dev/null || { echo "test-deps: $tool not found: make test needs Go 1.26 and Node 18+ on PATH" >&2; exit 1; }
done

if ! command -v dpkg-query >/dev/null || ! command -v apt-get >/dev/null; then
  for s in "${suites[@]}"; do
    echo "test-deps: not a Debian system: ${about[$s]} is skipped; install the equivalents of: ${pkgs[$s]}"
  done
  echo "test-deps: not a Debian system: the Python corpus needs Python 3.11's standard library and test suite in /usr/lib/python3.11"
else
  python_wrong=()
  for p in "${python_pkgs[@]}"; do
    [ "$(version_of "$p" || true)" = "$python_version" ] || python_wrong+=("$p")
  done
  if [ "$(id -u)" != 0 ]; then
    for s in "${suites[@]}"; do
      m=$(missing_of "$s")
      [ -z "$m" ] || echo "test-deps: not root: ${about[$s]} is skipped; install it with: apt-get install -y $m"
    done
    if [ "${#python_wrong[@]}" -gt 0 ]; then
      echo "test-deps: not root: the Python corpus of the differential tests is missing or not the pinned one; install it with: apt-get install -y ${python_pkgs[*]/%/=$python_version}"
    fi
  else
    export DEBIAN_FRONTEND=noninteractive
    missing=()
    for s in "${suites[@]}"; do
      m=$(missing_of "$s")
      [ -z "$m" ] || missing+=($m)
    done
    if [ "${#missing[@]}" -gt 0 ] || [ "${#python_wrong[@]}" -gt 0 ]; then
      apt-get update -q
    fi
    if [ "${#python_wrong[@]}" -gt 0 ]; then
      # The pin when the archive still has it (a security update replaces
      # the old version), else the current one, said out loud.
      available=1
      for p in "${python_pkgs[@]}"; do
        apt-cache policy "$p" | grep -Eq "^[ *]+${python_version//+/\\+} " || available=0
      done
      if [ "$available" = 1 ]; then
        missing+=("${python_pkgs[@]/%/=$python_version}")
      else
        missing+=("${python_pkgs[@]}")
        echo "test-deps: the pinned Python corpus $python_version is not available from apt; installing the candidate version $(apt-cache policy libpython3.11-stdlib | awk '/Candidate:/ {print $2}') instead"
      fi
    fi
    if [ "${#missing[@]}" -gt 0 ]; then
      apt-get install -y -q --allow-downgrades "${missing[@]}"
    fi
  fi
fi

# The reference ast-grep, the LSP client library of the language server
# tests, and the TypeScript compiler and pyright the structural_analysis
# measurement takes as its truth (dev dependencies of the repository root only). npm writes
# node_modules/.package-lock.json at the end of an install, so a
# package-lock.json newer than it has changed since.
if [ ! -e node_modules/@ast-grep/cli/package.json ] || [ ! -e node_modules/vscode-languageserver-protocol/package.json ] ||
  [ ! -e node_modules/typescript/package.json ] || [ ! -e node_modules/pyright/package.json ] ||
  [ ! -e node_modules/.package-lock.json ] ||
  [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
