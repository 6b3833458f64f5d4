#!/usr/bin/env bash
set -euo pipefail

ROOT="$(cd "$(dirname "$0")" && pwd)"
OUT="${ROOT}/out"

log() {
  echo "[build] $*" >&2
}

build_one() {
  local name="$1"
  log "building $name"
  if [ -f "$ROOT/$name.c" ]; then
    cc -O2 -o "$OUT/$name" "$ROOT/$name.c"
  else
    echo "missing $name" >&2
    return 1
  fi
}

mkdir -p "$OUT"
for f in alpha beta gamma; do
  build_one "$f" || exit 1
done

if [[ -n "${VERBOSE:-}" ]]; then
  ls -l "$OUT"
fi

case "${1:-all}" in
  all) echo "built all" ;;
  clean) rm -rf "$OUT" ;;
  *) echo "unknown: $1"; exit 2 ;;
esac

count=$(ls "$OUT" | wc -l)
echo "$count binaries"
echo $HOME
