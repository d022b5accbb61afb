#!/usr/bin/env bash
# Makes sure a local PostgreSQL server answers for the tests (idempotent): installs
# Debian's server if there is none, starts the cluster if it is stopped, and drops
# the throwaway databases (`quire_t_*`) earlier runs left. Prints nothing on success
# but the server URL, e.g. postgres://postgres@127.0.0.1:5432.
set -euo pipefail
URL="${QUIRE_TEST_POSTGRES:-postgres://postgres@127.0.0.1:5432}"
HOSTPORT="${URL#*@}"; HOST="${HOSTPORT%%:*}"; PORT="${HOSTPORT##*:}"; PORT="${PORT%%/*}"

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

if ! command -v pg_isready >/dev/null 2>&1 || ! ls /etc/postgresql/*/main >/dev/null 2>&1; then
  if ! pg_isready -q -h "$HOST" -p "$PORT" 2>/dev/null; then
    echo "== installing PostgreSQL (Debian packages)" >&2
    as_root apt-get update -qq >&2
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql postgresql-contrib >&2
  fi
fi
if ! pg_isready -q -h "$HOST" -p "$PORT"; then
  echo "== starting PostgreSQL" >&2
  for version in $(ls /etc/postgresql); do
    as_root pg_ctlcluster --skip-systemctl-redirect "$version" main start >&2 || true
  done
  for _ in $(seq 1 50); do pg_isready -q -h "$HOST" -p "$PORT" && break; sleep 0.2; done
  pg_isready -h "$HOST" -p "$PORT" >&2
fi
# A fresh install authenticates local users by password: let the tests in.
if ! psql "$URL/postgres" -Atqc "SELECT 1" >/dev/null 2>&1; then
  echo "== allowing local test connections (trust on 127.0.0.1)" >&2
  for hba in /etc/postgresql/*/main/pg_hba.conf; do
    grep -q "quire tests" "$hba" || as_root sed -i \
      '1i host all all 127.0.0.1/32 trust # quire tests' "$hba"
  done
  for version in $(ls /etc/postgresql); do
    as_root pg_ctlcluster --skip-systemctl-redirect "$version" main reload >&2 || true
  done
  sleep 1
fi
psql "$URL/postgres" -Atqc "SELECT datname FROM pg_database WHERE datname LIKE 'quire\_t\_%'" |
  while read -r db; do
    psql "$URL/postgres" -qc "DROP DATABASE IF EXISTS \"$db\" WITH (FORCE)" >/dev/null
  done
echo "$URL"
