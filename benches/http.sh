#!/usr/bin/env bash
# Requests/s for GET /d/{id} (random ids) beside GET /healthz, in one run, with wrk
# on loopback. Usage: benches/http.sh DB_PATH [CONNECTIONS] [SECONDS]
set -euo pipefail
db=${1:?database path}
conns=${2:-10}
secs=${3:-10}
bin=${QUIRE_BIN:-./target/release/quire}
port=${PORT:-18182}
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; }
ids=$(mktemp)
python3 - "$db" > "$ids" <<'PY'
import sqlite3, sys
for (i,) in sqlite3.connect(sys.argv[1]).execute("SELECT id FROM documents WHERE deleted_at IS NULL"):
    print(i)
PY
QUIRE_DATABASE_URL="sqlite://$db" QUIRE_BIND="127.0.0.1:$port" QUIRE_LOG=warn "$bin" serve &
pid=$!
trap 'kill -TERM $pid; rm -f "$ids"' EXIT
until curl -sf "http://127.0.0.1:$port/readyz" >/dev/null 2>&1; do sleep 0.01; done
echo "documents: $(wc -l < "$ids"), connections: $conns, ${secs}s each"
for what in healthz doc healthz doc; do
  if [ "$what" = healthz ]; then
    rps=$(wrk -t1 -c"$conns" -d"${secs}s" "http://127.0.0.1:$port/healthz" | awk '/Requests\/sec/ {print $2}')
  else
    rps=$(IDS="$ids" wrk -t1 -c"$conns" -d"${secs}s" -s benches/random-doc.lua "http://127.0.0.1:$port" | awk '/Requests\/sec/ {print $2}')
  fi
  printf '%-8s %10s req/s\n' "$what" "$rps"
done
