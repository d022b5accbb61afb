#!/usr/bin/env bash
# HTTP on loopback, in one run: a signed-in GET /d/{id} (random ids) beside
# GET /healthz (the server's own ceiling), at 1, 10 and 50 connections.
# Requests/s from wrk; p50/p99 from every request's latency in an HDR histogram
# (benches/loadgen.rs, closed loop); the server's CPU time (user + system, both
# cores) per page over that closed-loop run, which moves far less from run to
# run than a rate on a shared machine. Peak RSS of the server at the end.
#
# The server logs at QUIRE_LOG (default here: warn, no line per request; set
# QUIRE_LOG=info for an access line per request) into a temporary file; the
# report says which level ran and how many lines it wrote.
#
# Page views are measured warm: WARM seconds (default 5; 0 for none) of random
# views first fill the page cache, as a server that has been up a while has it.
#
# Usage: [WARM=5] benches/http.sh DB_PATH [SECONDS] [CONNECTIONS...]
#   seed first, e.g.: quire seed --count 10000 --size 8192
# Writes target/perf/http.csv.
set -euo pipefail
cd "$(dirname "$0")/.."
db=${1:?database path}
secs=${2:-10}
shift $(( $# >= 2 ? 2 : 1 ))
conns=("$@")
[ ${#conns[@]} -gt 0 ] || conns=(1 10 50)
bin=${QUIRE_BIN:-./target/release/quire}
port=${PORT:-18182}
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; }
cargo build --release --locked --quiet --bin quire --example loadgen
loadgen=./target/release/examples/loadgen
export QUIRE_DATABASE_URL="sqlite://$db" QUIRE_LOG=${QUIRE_LOG:-warn}
echo "bench password 1234" | "$bin" user add bench --admin --password-stdin >/dev/null 2>&1 || true
paths=$(mktemp); health=$(mktemp); jar=$(mktemp); log=$(mktemp)
python3 - "$db" > "$paths" <<'PY'
import sqlite3, sys
for (i,) in sqlite3.connect(sys.argv[1]).execute("SELECT id FROM documents WHERE deleted_at IS NULL"):
    print("/d/" + i)
PY
echo /healthz > "$health"
QUIRE_BIND="127.0.0.1:$port" "$bin" serve > "$log" &
pid=$!
trap 'kill -TERM $pid 2>/dev/null; rm -f "$paths" "$health" "$jar" "$log"' EXIT
until curl -sf "http://127.0.0.1:$port/readyz" >/dev/null 2>&1; do sleep 0.01; done
csrf=$(curl -s -c "$jar" "http://127.0.0.1:$port/login" | sed -n 's/.*name="csrf" value="\([0-9a-f]*\)".*/\1/p' | head -1)
curl -s -b "$jar" -c "$jar" -o /dev/null -d "username=bench&password=bench+password+1234&csrf=$csrf" "http://127.0.0.1:$port/login"
cookie=$(awk '$6 ~ /^quire_/ {printf "%s=%s; ", $6, $7}' "$jar")
first=$(head -1 "$paths")
status=$(curl -s -o /dev/null -w '%{http_code}' -H "Cookie: $cookie" "http://127.0.0.1:$port$first")
[ "$status" = 200 ] || { echo "signed-in document page answered $status" >&2; exit 1; }
ids=$(mktemp); sed 's|^/d/||' "$paths" > "$ids"

mkdir -p target/perf
csv=target/perf/http.csv
echo "connections,path,tool,requests_per_s,p50_ms,p99_ms,cpu_us_per_request" > "$csv"
tick=$(getconf CLK_TCK)
cpu_ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
warm=${WARM:-5}
if [ "$warm" -gt 0 ]; then
  IDS="$ids" COOKIE="$cookie" wrk -t1 -c10 -d"${warm}s" -s benches/random-doc.lua "http://127.0.0.1:$port" >/dev/null
fi
echo "documents: $(wc -l < "$paths"), ${secs}s per measurement, signed in, server workers: default, ${warm}s of page views first"
printf '| conns | /healthz req/s | /d/{id} req/s | ratio | /d/{id} p50 ms | /d/{id} p99 ms | /d/{id} CPU µs | /healthz p99 ms |\n'
printf '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n'
for c in "${conns[@]}"; do
  h_rps=$(wrk -t1 -c"$c" -d"${secs}s" "http://127.0.0.1:$port/healthz" | awk '/Requests\/sec/ {print $2}')
  d_rps=$(IDS="$ids" COOKIE="$cookie" wrk -t1 -c"$c" -d"${secs}s" -s benches/random-doc.lua "http://127.0.0.1:$port" | awk '/Requests\/sec/ {print $2}')
  read -r _ _ hp50 _ hp99 _ _ < <("$loadgen" "127.0.0.1:$port" "$health" "$c" "$secs")
  before=$(cpu_ticks)
  read -r _ lrps dp50 _ dp99 _ _ < <("$loadgen" "127.0.0.1:$port" "$paths" "$c" "$secs" "$cookie")
  cpu_us=$(python3 -c "print(f'{($(cpu_ticks) - $before) * 1e6 / $tick / ($lrps * $secs):.0f}')")
  {
    echo "$c,/healthz,wrk,$h_rps,,"
    echo "$c,/d/{id},wrk,$d_rps,,"
    echo "$c,/healthz,loadgen,,$hp50,$hp99"
    echo "$c,/d/{id},loadgen,$lrps,$dp50,$dp99,$cpu_us"
  } >> "$csv"
  ratio=$(python3 -c "print(f'{100*$d_rps/$h_rps:.1f} %')")
  printf '| %s | %.0f | %.0f | %s | %s | %s | %s | %s |\n' "$c" "$h_rps" "$d_rps" "$ratio" "$dp50" "$dp99" "$cpu_us" "$hp99"
done
rm -f "$ids"
echo "log level $QUIRE_LOG: the server wrote $(wc -l < "$log") log lines"
echo "server peak RSS: $(awk '/VmHWM/ {printf "%.1f MiB", $2/1024}' /proc/$pid/status)"
