#!/usr/bin/env bash
# Start-up time: process start to the first 200 on /readyz, over an existing database.
# Usage: benches/startup.sh DB_PATH [RUNS]   (seed one first: quire seed --count N)
set -euo pipefail
db=${1:?database path}
runs=${2:-5}
bin=${QUIRE_BIN:-./target/release/quire}
port=${PORT:-18181}
for _ in $(seq "$runs"); do
  start=$(date +%s%N)
  QUIRE_DATABASE_URL="sqlite://$db" QUIRE_BIND="127.0.0.1:$port" QUIRE_LOG=warn "$bin" serve &
  pid=$!
  until curl -sf "http://127.0.0.1:$port/readyz" >/dev/null 2>&1; do sleep 0.002; done
  end=$(date +%s%N)
  echo "ready in $(( (end - start) / 1000000 )) ms"
  kill -TERM "$pid"; wait "$pid" 2>/dev/null || true
done
