#!/usr/bin/env bash
# Requests/s for a signed-in GET /d/{id} (random ids) beside GET /healthz, in one
# run, with wrk on loopback. Usage: benches/http.sh DB_PATH [CONNECTIONS] [SECONDS]
# (seed first: quire seed --count 10000). Creates the user `bench` if missing.
set -euo pipefail
db=${1:?database path}
conns=${2:-10}
secs=${3:-10}
bin=${QUIRE_BIN:-./target/release/quire}
port=${PORT:-18182}
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; }
export QUIRE_DATABASE_URL="sqlite://$db" QUIRE_LOG=warn
echo "bench password 1234" | "$bin" user add bench --admin --password-stdin >/dev/null 2>&1 || true
ids=$(mktemp); jar=$(mktemp)
python3 - "$db" > "$ids" <<'PY'
import sqlite3, sys
for (i,) in sqlite3.connect(sys.argv[1]).execute("SELECT id FROM documents WHERE deleted_at IS NULL"):
    print(i)
PY
QUIRE_BIND="127.0.0.1:$port" "$bin" serve &
pid=$!
trap 'kill -TERM $pid; rm -f "$ids" "$jar"' EXIT
until curl -sf "http://127.0.0.1:$port/readyz" >/dev/null 2>&1; do sleep 0.01; done
csrf=$(curl -s -c "$jar" "http://127.0.0.1:$port/login" | sed -n 's/.*name="csrf" value="\([0-9a-f]*\)".*/\1/p' | head -1)
curl -s -b "$jar" -c "$jar" -o /dev/null -d "username=bench&password=bench+password+1234&csrf=$csrf" "http://127.0.0.1:$port/login"
cookie=$(awk '$6 ~ /^quire_/ {printf "%s=%s; ", $6, $7}' "$jar")
status=$(curl -s -o /dev/null -w '%{http_code}' -H "Cookie: $cookie" "http://127.0.0.1:$port/d/$(head -1 "$ids")")
[ "$status" = 200 ] || { echo "signed-in document page answered $status" >&2; exit 1; }
echo "documents: $(wc -l < "$ids"), connections: $conns, ${secs}s each, signed in"
for what in healthz doc healthz doc; do
  if [ "$what" = healthz ]; then
    rps=$(wrk -t1 -c"$conns" -d"${secs}s" "http://127.0.0.1:$port/healthz" | awk '/Requests\/sec/ {print $2}')
  else
    rps=$(IDS="$ids" COOKIE="$cookie" wrk -t1 -c"$conns" -d"${secs}s" -s benches/random-doc.lua "http://127.0.0.1:$port" | awk '/Requests\/sec/ {print $2}')
  fi
  printf '%-8s %10s req/s\n' "$what" "$rps"
done
