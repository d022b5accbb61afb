#!/bin/sh
# Writes an empty `fn main() {}` at every target path Cargo.toml names (lib, bins,
# benches, examples, tests), so the image build can compile the dependencies in a
# layer of their own before the sources are copied in. Read from Cargo.toml, so a
# new bench or example never breaks the build.
set -eu
manifest=${1:-Cargo.toml}
awk '
function flush() {
  if (kind != "") {
    p = path
    if (p == "" && kind == "lib") p = "src/lib.rs"
    if (p == "" && kind == "bin") p = "src/main.rs"
    if (p == "" && kind == "bench") p = "benches/" name ".rs"
    if (p == "" && kind == "example") p = "examples/" name ".rs"
    if (p == "" && kind == "test") p = "tests/" name ".rs"
    print p
  }
  kind = ""; name = ""; path = ""
}
/^\[\[?(lib|bin|bench|example|test)\]\]?[ \t]*$/ { flush(); kind = $0; gsub(/[][ \t]/, "", kind); next }
/^\[/ { flush(); next }
kind != "" && /^name[ \t]*=/ { split($0, a, "\""); name = a[2] }
kind != "" && /^path[ \t]*=/ { split($0, a, "\""); path = a[2] }
END { flush() }
' "$manifest" | sort -u | while read -r target; do
  mkdir -p "$(dirname "$target")"
  echo 'fn main() {}' >"$target"
done
# A package always has src/lib.rs or src/main.rs; make both exist.
mkdir -p src
[ -f src/main.rs ] || echo 'fn main() {}' >src/main.rs
[ -f src/lib.rs ] || : >src/lib.rs
