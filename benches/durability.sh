#!/usr/bin/env bash
# Loss windows with real processes: kill -9 of quire and its Litestream sidecar
# (20 runs), and kill -9 of quire alone under 100 writers (50 runs).
# Needs what ./scripts/test.sh installs (.venv/bin/litestream).
set -euo pipefail
cd "$(dirname "$0")/.."
export QUIRE_LITESTREAM="$PWD/.venv/bin/litestream"
QUIRE_REPLICA_RUNS=${QUIRE_REPLICA_RUNS:-20} QUIRE_CRASH_RUNS=${QUIRE_CRASH_RUNS:-50} \
  cargo test --release --test replication kill_9 -- --nocapture --test-threads 1 2>&1 \
  | grep -E '^run |loss window|test result'
