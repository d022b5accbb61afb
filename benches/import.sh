#!/usr/bin/env bash
# Import speed: generates COUNT Markdown files of SIZE bytes (quire's seed
# generator, kept between runs), imports them into an empty database with the
# release binary and prints documents/s. Extra arguments go to `quire import`
# (e.g. --render-later).
# Usage: benches/import.sh [COUNT] [SIZE] [-- IMPORT-ARGS...]
# Build first: cargo build --release
set -euo pipefail
count=${1:-100000}
size=${2:-4096}
shift $(( $# > 2 ? 3 : $# ))
bin=${QUIRE_BIN:-./target/release/quire}
work=${QUIRE_BENCH_DIR:-/tmp/quire-import-bench}
files="$work/files-$count-$size"
export QUIRE_LOG=warn

if [ ! -d "$files" ]; then
    "$bin" seed --count "$count" --size "$size" --into "$files.tmp"
    mv "$files.tmp" "$files"
fi
echo "files: $(find "$files" -name '*.md' | wc -l), $(du -sh "$files" | cut -f1)"
cat "$files"/0000/*.md > /dev/null # warm the page cache like the rest

rm -f "$work"/q.db*
export QUIRE_DATABASE_URL="sqlite://$work/q.db"
"$bin" migrate > /dev/null
start=$(date +%s.%N)
out=$("$bin" import "$files" "$@")
end=$(date +%s.%N)
echo "$out" | tail -2
python3 - "$start" "$end" "$count" <<'PY'
import sys
start, end, count = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
print(f"wall clock {end - start:.2f} s for {count} files: {count / (end - start):,.0f} documents/s (process start to exit)")
PY
ls -la "$work"/q.db* | awk '{print $5, $9}'
