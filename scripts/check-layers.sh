#!/usr/bin/env bash
# The data layer is one room: only src/db/ names the database crates (sqlx,
# SeaORM) and only src/db/ writes SQL (each aggregate's statements live in its
# module there). Everything else calls the functions of quire::db, and the web
# layer not even those: it calls the domain (documents, accounts, transfer),
# holding only the handle `crate::Db` and its change counter `crate::Changes`.
# The data layer reaches up to nothing of the command line (progress bars).
set -euo pipefail
cd "$(dirname "$0")/.."
# refuse WHAT FOUND: fails with WHAT and the lines found, if any.
refuse() {
  if [ -n "$2" ]; then
    echo "$1; found:" >&2
    echo "$2" >&2
    exit 1
  fi
}
refuse "only src/db/ may name sqlx or sea_orm" \
  "$(grep -rnE 'sqlx::|sea_orm::|use sqlx\b|use sea_orm\b' src --include='*.rs' | grep -v '^src/db/' || true)"
refuse "only src/db/ may run SQL" \
  "$(grep -rnE 'db::(query|query_as|query_scalar)(::<[^>]*>)?\(' src --include='*.rs' | grep -v '^src/db/' || true)"
refuse "src/web/ may not use the data layer (crate::db) but through the domain" \
  "$(grep -rnE '(crate|quire)::db\b' src/web --include='*.rs' || true)"
refuse "src/web/ acts for the signed-in person only: quire itself (Caller::Quire, full access) is for the command line and background work" \
  "$(grep -rnE 'Caller::Quire' src/web --include='*.rs' || true)"
refuse "src/db/ may not reach up to the command line or the web layer" \
  "$(grep -rnE 'crate::(progress|cli|ops|web)\b' src/db --include='*.rs' || true)"
echo "ok: only src/db/ names sqlx or sea_orm and runs SQL; src/web/ goes through the domain, for the signed-in person only; src/db/ reaches up to nothing"
