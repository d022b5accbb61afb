#!/usr/bin/env bash
# Refetches the pinned htmx from the npm registry and verifies it byte for byte
# before replacing static/vendor/htmx.min.js. Run it to check or to upgrade (change
# both the version and the hash together).
set -euo pipefail
VERSION=2.0.11
SHA256=d6fdc75f204e6bdefa99b69bf1e6d4ac69b8a364f77929f45c13476b4000f717
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "htmx.org@$VERSION" >/dev/null 2>&1)
tar -xzf "$tmp"/htmx.org-"$VERSION".tgz -C "$tmp" package/dist/htmx.min.js
got=$(sha256sum "$tmp/package/dist/htmx.min.js" | cut -d' ' -f1)
if [ "$got" != "$SHA256" ]; then
  echo "htmx.org@$VERSION: sha256 $got does not match the pinned $SHA256" >&2
  exit 1
fi
mkdir -p static/vendor
cp "$tmp/package/dist/htmx.min.js" static/vendor/htmx.min.js
echo "static/vendor/htmx.min.js is htmx.org@$VERSION (sha256 $got)"
