#!/usr/bin/env bash
# The data layer is one room: only src/db/ names the database crates (sqlx,
# SeaORM). Everything else speaks to the database through quire::db.
set -euo pipefail
cd "$(dirname "$0")/.."
found="$(grep -rnE 'sqlx::|sea_orm::|use sqlx\b|use sea_orm\b' src --include='*.rs' | grep -v '^src/db/' || true)"
if [ -n "$found" ]; then
  echo "only src/db/ may name sqlx or sea_orm; found:" >&2
  echo "$found" >&2
  exit 1
fi
echo "ok: only src/db/ names sqlx or sea_orm"
