#!/usr/bin/env bash
# loupe's release files, into dist/ (make dist):
#
#   scripts/dist.sh OS/ARCH ...
#
# For each target, loupe built with CGO_ENABLED=0 and -trimpath, its version
# stamped, in loupe_VERSION_OS_ARCH.tar.gz (.zip for windows) with LICENSE
# and README.md; the npm package (npm pack of js/, its package.json at
# VERSION); and SHA256SUMS of them all.
#
# VERSION is $LOUPE_VERSION (make passes `git describe --tags --dirty`)
# without its "v": 0.4.0 on the tag v0.4.0. Without a tag it is
# 0.0.0-dev.gCOMMIT (.dirty with uncommitted changes to tracked files).
#
# Reproducible: the same commit built with the same Go gives the same bytes
# on any machine. Every Go setting that changes a binary is fixed here
# (GOFLAGS, GOAMD64, GOARM64); the archives are made with sorted names, the
# commit's time as every file's time, owner 0, fixed modes, gzip without a
# name or time, zip without extra attributes (in UTC).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
GO=${GO:-go}

fail() { echo "dist: $*" >&2; exit 1; }
need() { command -v "$1" >/dev/null || fail "$1 not found: $2"; }

[ $# -gt 0 ] || fail "name the targets, as OS/ARCH (make dist names them)"
need git "make dist runs in a git checkout"
need "$GO" "make dist needs Go 1.26"
need tar "install GNU tar"
need gzip "install gzip"
need zip "install zip (apt-get install -y zip)"
need sha256sum "install coreutils"
need npm "make dist packs the npm package: install Node 18+ and npm"
tar --version 2>/dev/null | grep -q 'GNU tar' || fail "tar is not GNU tar: the archives need its --sort=name"
git rev-parse --verify -q HEAD >/dev/null || fail "not a git checkout with a commit"

epoch=$(git log -1 --format=%ct)
version=${LOUPE_VERSION:-}
if [ -z "$version" ]; then
  version="0.0.0-dev.g$(git rev-parse --short=12 HEAD)"
  git diff --quiet HEAD -- || version+=".dirty"
fi
version=${version#v}
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$ ]] ||
  fail "version $version is not a semantic version (tag releases vMAJOR.MINOR.PATCH)"

export LC_ALL=C TZ=UTC
export CGO_ENABLED=0 GOFLAGS="-buildvcs=false -mod=readonly" GOAMD64=v1 GOARM64=v8.0
dist=$root/dist
stage=$dist/.stage
rm -rf "$dist"
mkdir -p "$stage"
echo "dist: loupe $version from $(git rev-parse --short=12 HEAD) with $($GO version)"

for target in "$@"; do
  os=${target%/*} arch=${target#*/}
  [ "$os/$arch" = "$target" ] && [ -n "$os" ] && [ -n "$arch" ] || fail "target $target is not OS/ARCH"
  name=loupe_${version}_${os}_${arch}
  exe=loupe
  [ "$os" = windows ] && exe=loupe.exe
  dir=$stage/$name
  mkdir -p "$dir"
  GOOS=$os GOARCH=$arch "$GO" build -trimpath -ldflags "-s -w -X main.version=$version" -o "$dir/$exe" ./cmd/loupe ||
    fail "building loupe for $target failed"
  cp LICENSE README.md "$dir/"
  chmod 0755 "$dir" "$dir/$exe"
  chmod 0644 "$dir/LICENSE" "$dir/README.md"
  touch -d "@$epoch" "$dir" "$dir"/*
  if [ "$os" = windows ]; then
    (cd "$stage" && zip -q -X -D -9 "$dist/$name.zip" "$name/LICENSE" "$name/README.md" "$name/$exe")
  else
    tar --sort=name --format=ustar --mtime="@$epoch" --owner=0 --group=0 --numeric-owner \
      -C "$stage" -cf - "$name" | gzip -n -9 >"$dist/$name.tar.gz"
  fi
  echo "dist: $(basename "$dist"/"$name".*)"
done

# The npm package, from a copy of js/'s package files with package.json's
# version set: its prepack script (make js-build) builds what it ships into
# the copy's dist/, and the committed js/package.json is left as it is.
pkg=$stage/npm
mkdir -p "$pkg/scripts"
cp js/README.md js/LICENSE "$pkg/"
cp js/scripts/prepack.mjs "$pkg/scripts/"
VERSION=$version node -e '
  const fs = require("fs");
  const p = JSON.parse(fs.readFileSync("js/package.json", "utf8"));
  p.version = process.env.VERSION;
  fs.writeFileSync(process.argv[1], JSON.stringify(p, null, 2) + "\n");
' "$pkg/package.json"
tgz=$(cd "$pkg" && LOUPE_REPO=$root npm pack --silent --pack-destination "$dist" | tail -1) ||
  fail "npm pack of the npm package failed (see above)"
[ -f "$dist/$tgz" ] || fail "npm pack wrote no $tgz"
echo "dist: $tgz"

rm -rf "$stage"
shopt -s nullglob
(cd "$dist" && sha256sum -- *.tar.gz *.zip *.tgz >SHA256SUMS)
echo "dist: SHA256SUMS"
cat "$dist/SHA256SUMS"
