#!/usr/bin/env bash
# The whole test suite, from a fresh machine: installs what the tests need (idempotent),
# checks formatting and lints, then runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v cargo >/dev/null 2>&1; then
  echo "quire needs a Rust toolchain (cargo) on PATH: https://rustup.rs" >&2
  exit 1
fi
rustup component add rustfmt clippy >/dev/null 2>&1 || true

echo "== format"
cargo fmt --all -- --check
echo "== lint"
cargo clippy --all-targets --locked -- -D warnings
echo "== tests"
cargo test --all-targets --locked
