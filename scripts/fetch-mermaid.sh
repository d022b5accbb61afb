#!/usr/bin/env bash
# Refetches the pinned Mermaid from the npm registry, verifies its bundle byte for
# byte and writes it gzip-compressed to static/vendor/mermaid.min.js.gz (quire
# embeds it compressed: 1 MB in the binary instead of 3.6 MB, sent as it is to
# browsers). Run it to check or to upgrade (change both the version and the hash
# together); a unit test checks the file against the hash below.
set -euo pipefail
VERSION=11.17.2
SHA256=581ed7d74bd9048d0e3a91363927d72ef22942d7722546b27f7cc29e35390eb8
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "mermaid@$VERSION" >/dev/null 2>&1)
tar -xzf "$tmp"/mermaid-"$VERSION".tgz -C "$tmp" package/dist/mermaid.min.js
got=$(sha256sum "$tmp/package/dist/mermaid.min.js" | cut -d' ' -f1)
if [ "$got" != "$SHA256" ]; then
  echo "mermaid@$VERSION: sha256 $got does not match the pinned $SHA256" >&2
  exit 1
fi
mkdir -p static/vendor
gzip -9 -n -c "$tmp/package/dist/mermaid.min.js" > static/vendor/mermaid.min.js.gz
echo "static/vendor/mermaid.min.js.gz is mermaid@$VERSION (sha256 $got, uncompressed)"
