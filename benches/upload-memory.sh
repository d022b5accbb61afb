#!/usr/bin/env bash
# Peak memory of the server while many clients attach large files at once:
# starts `quire serve` on a fresh database, makes an API token, sends N uploads
# of MIB MiB each (different random bytes) through the JSON API at the same
# moment, then prints the answers' status codes and the server's peak resident
# memory (VmHWM from /proc). Not part of the test command.
# Usage: benches/upload-memory.sh [N] [MIB]   (build first: cargo build --release)
# Extra QUIRE_* variables (e.g. QUIRE_UPLOAD_MEMORY_BYTES) reach the server.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-20}
mib=${2:-10}
bin=${QUIRE_BIN:-$PWD/target/release/quire}
port=${QUIRE_BENCH_PORT:-18431}
work=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
export QUIRE_DATABASE_URL="sqlite://$work/quire.db" QUIRE_BIND="127.0.0.1:$port" QUIRE_LOG=warn
base="http://127.0.0.1:$port"

echo "bench password 1234" | "$bin" user add bench --admin --password-stdin > /dev/null
"$bin" serve > "$work/serve.log" 2>&1 &
pid=$!
for _ in $(seq 100); do curl -sf "$base/readyz" > /dev/null && break || sleep 0.1; done

jar="$work/jar"
csrf() { grep -o 'name="csrf" value="[^"]*"' | head -1 | sed 's/.*value="//; s/"$//'; }
token=$(curl -s -c "$jar" "$base/login" | csrf)
curl -s -b "$jar" -c "$jar" -o /dev/null --data-urlencode "username=bench" \
    --data-urlencode "password=bench password 1234" --data-urlencode "csrf=$token" \
    --data-urlencode "next=/" "$base/login"
token=$(curl -s -b "$jar" "$base/" | csrf)
api=$(curl -s -b "$jar" --data-urlencode "name=bench" --data-urlencode "csrf=$token" \
    "$base/account/tokens" | grep -o 'qt_[A-Za-z0-9_-]*' | head -1)
auth="Authorization: Bearer $api"
id=$(curl -s -H "$auth" -H 'Content-Type: application/json' \
    -d '{"title":"Uploads","body":"files"}' "$base/api/v1/documents" |
    grep -o '"id":"[^"]*"' | head -1 | sed 's/.*:"//; s/"$//')

for i in $(seq "$n"); do head -c "$((mib << 20))" /dev/urandom > "$work/f$i.bin"; done
grep VmHWM "/proc/$pid/status" | sed 's/^/before uploads: /'
started=$(date +%s.%N)
for i in $(seq "$n"); do
    curl -s -o "$work/answer$i" -w '%{http_code}\n' -H "$auth" -H 'Expect:' \
        -F "file=@$work/f$i.bin" "$base/api/v1/documents/$id/attachments" > "$work/code$i" &
done
wait $(jobs -p | grep -v "^$pid$")
ended=$(date +%s.%N)
echo "answers: $(cat "$work"/code* | sort | uniq -c | awk '{printf "%s×%s ", $1, $2}')"
echo "seconds: $(awk "BEGIN { printf \"%.1f\", $ended - $started }")"
grep -h '"error"' "$work"/answer* | sort | uniq -c | head -3 || true
grep -E 'VmHWM|VmRSS' "/proc/$pid/status"
