#!/usr/bin/env bash
# Back up a directory tree with rotation, to exercise the Bash grammar.
set -euo pipefail
IFS=$'\n\t'

readonly SCRIPT_NAME="${0##*/}"
readonly GREETING="Grüße — こんにちは — 🗄"
BACKUP_ROOT="${BACKUP_ROOT:-/var/backups}"
KEEP=7
declare -a SOURCES=()
declare -A SIZES=()

usage() {
  cat <<USAGE
Usage: $SCRIPT_NAME [-k keep] [-r root] dir...
  -k  number of backups to keep (default: $KEEP)
  -r  backup root (default: $BACKUP_ROOT)
USAGE
}

log() {
  local level=$1
  shift
  printf '%s [%s] %s\n' "$(date '+%F %T')" "$level" "$*" >&2
}

die() {
  log ERROR "$@"
  exit 1
}

cleanup() {
  local rc=$?
  [[ -n "${TMPDIR_CREATED:-}" && -d "$TMPDIR_CREATED" ]] && rm -rf -- "$TMPDIR_CREATED"
  exit "$rc"
}
trap cleanup EXIT INT TERM

while getopts ':k:r:h' opt; do
  case "$opt" in
    k) KEEP=$OPTARG ;;
    r) BACKUP_ROOT=$OPTARG ;;
    h)
      usage
      exit 0
      ;;
    \?) die "unknown option -$OPTARG" ;;
    :) die "option -$OPTARG needs a value" ;;
  esac
done
shift $((OPTIND - 1))

(($# > 0)) || { usage; exit 2; }
SOURCES=("$@")

if ! [[ $KEEP =~ ^[0-9]+$ ]]; then
  die "keep must be a number, got '$KEEP'"
fi

TMPDIR_CREATED=$(mktemp -d)
stamp=$(date +%Y%m%d-%H%M%S)

for src in "${SOURCES[@]}"; do
  if [[ ! -d $src ]]; then
    log WARN "skipping $src: not a directory"
    continue
  fi
  name=$(basename -- "$src")
  archive="$TMPDIR_CREATED/${name}-${stamp}.tar.gz"
  tar -czf "$archive" -C "$(dirname -- "$src")" "$name"
  SIZES[$name]=$(stat -c %s "$archive")
  mkdir -p "$BACKUP_ROOT/$name"
  mv -- "$archive" "$BACKUP_ROOT/$name/"
  log INFO "saved $name (${SIZES[$name]} bytes)"

  # Rotate: keep only the newest $KEEP archives.
  mapfile -t old < <(ls -1t "$BACKUP_ROOT/$name"/*.tar.gz | tail -n +$((KEEP + 1)))
  for f in "${old[@]}"; do
    rm -f -- "$f" && log INFO "removed ${f##*/}"
  done
done

total=0
for key in "${!SIZES[@]}"; do
  total=$((total + SIZES[$key]))
done
echo "$GREETING: ${#SIZES[@]} archives, $total bytes" | tee -a "$BACKUP_ROOT/log.txt"

function summary {
  local count=0
  while read -r line; do
    ((count++)) || true
  done < "$BACKUP_ROOT/log.txt"
  echo "log has $count lines"
}
summary
