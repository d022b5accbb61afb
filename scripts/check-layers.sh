#!/usr/bin/env bash
# The data layer is one room: only src/db/ names the database crates (sqlx,
# SeaORM) and only src/db/ writes SQL (each aggregate's statements live in its
# module there). Everything else calls the functions of quire::db.
set -euo pipefail
cd "$(dirname "$0")/.."
found="$(grep -rnE 'sqlx::|sea_orm::|use sqlx\b|use sea_orm\b' src --include='*.rs' | grep -v '^src/db/' || true)"
if [ -n "$found" ]; then
  echo "only src/db/ may name sqlx or sea_orm; found:" >&2
  echo "$found" >&2
  exit 1
fi
sql="$(grep -rnE 'db::(query|query_as|query_scalar)(::<[^>]*>)?\(' src --include='*.rs' | grep -v '^src/db/' || true)"
if [ -n "$sql" ]; then
  echo "only src/db/ may run SQL; found statements in:" >&2
  echo "$sql" >&2
  exit 1
fi
echo "ok: only src/db/ names sqlx or sea_orm, and only src/db/ runs SQL"
