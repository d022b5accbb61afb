#!/usr/bin/env bash
# quire in a real browser: installs Debian's Chromium and the pinned npm packages if
# they are missing, builds quire, serves it on a free port over a fresh database with
# one administrator, and runs tests/browser against it with node's test runner.
#   --update-docs   also copy the README's screenshots into docs/screenshots/
#   FILE.test.js    run only these files of tests/browser (all by default)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

update_docs=0
files=()
for arg in "$@"; do
  case "$arg" in
    --update-docs) update_docs=1 ;;
    *.test.js) files+=("$arg") ;;
    *) echo "usage: $0 [--update-docs] [FILE.test.js ...]" >&2; exit 2 ;;
  esac
done
if [ "${#files[@]}" -eq 0 ]; then
  files=(flows.test.js sign_in.test.js first_day.test.js drafts.test.js failures.test.js nojs.test.js writing.test.js rendering.test.js teams.test.js notices.test.js talk.test.js templates.test.js search_live.test.js search_forgives.test.js a11y.test.js screenshots.test.js)
fi

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

if [ ! -x /usr/bin/chromium ]; then
  echo "== installing Debian's chromium"
  as_root apt-get update -q
  as_root env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -q --no-install-recommends chromium </dev/null
fi
# playwright-core needs Node.js 20 or newer (Debian 12's own nodejs is 18).
node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$node_major" -lt 20 ] || ! command -v npm >/dev/null 2>&1; then
  echo "the browser tests need Node.js 20 or newer with npm on PATH" >&2
  exit 1
fi

./scripts/npm-install.sh tests/browser
./scripts/npm-install.sh tests/oidc

echo "== building quire"
cargo build --locked --quiet
target_dir=$(cargo metadata --format-version 1 --no-deps --locked |
  node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).target_directory))')
quire="$target_dir/debug/quire"

work=$(mktemp -d)
server_pid=
idp_pid=
cleanup() {
  for pid in "$server_pid" "$idp_pid"; do
    if [ -n "$pid" ]; then
      kill "$pid" 2>/dev/null || true
      wait "$pid" 2>/dev/null || true
    fi
  done
  rm -rf "$work"
}
trap cleanup EXIT

# A small document cap, so the oversize-paste test sends kilobytes, not megabytes.
export QUIRE_DATABASE_URL="sqlite://$work/quire.db"
export QUIRE_MAX_DOC_BYTES=16384
# The port is chosen first: the OpenID provider must know quire's address.
port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
export QUIRE_BIND="127.0.0.1:$port"
export QUIRE_WORKERS=2
export QUIRE_LOG="error,quire::startup=info"
password="browser-test-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
printf '%s\n' "$password" | "$quire" user add admin --admin --password-stdin >/dev/null

# A real OpenID provider (tests/oidc) with one person, for the single sign-on test.
oidc_password="oidc-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
printf '{"erin": {"sub": "s-erin", "password": "%s", "email": "erin@example.org", "email_verified": true, "name": "Erin", "groups": ["eng"]}}' \
  "$oidc_password" >"$work/people.json"
OIDC_PORT=0 OIDC_CLIENT_ID=quire OIDC_CLIENT_SECRET="secret-$oidc_password" \
  OIDC_REDIRECT_URI="http://127.0.0.1:$port/login/oidc/callback" \
  OIDC_POST_LOGOUT_URI="http://127.0.0.1:$port/login" OIDC_ACCOUNTS="$work/people.json" \
  node tests/oidc/provider.js >"$work/idp.log" 2>&1 &
idp_pid=$!
issuer=
for _ in $(seq 100); do
  issuer=$(sed -n 's/^listening //p' "$work/idp.log" | head -n1)
  [ -n "$issuer" ] && break
  sleep 0.1
done
if [ -z "$issuer" ]; then
  echo "the test OpenID provider did not start; its log:" >&2
  cat "$work/idp.log" >&2
  exit 1
fi
export QUIRE_OIDC_ISSUER="$issuer" QUIRE_OIDC_CLIENT_ID=quire \
  QUIRE_OIDC_CLIENT_SECRET="secret-$oidc_password" QUIRE_OIDC_NAME="Test Provider"

"$quire" serve >"$work/serve.log" 2>&1 &
server_pid=$!
for _ in $(seq 300); do
  ready=$(sed -n 's/.*quire is ready port=\([0-9]*\).*/\1/p' "$work/serve.log" | head -n1)
  [ -n "$ready" ] && break
  if ! kill -0 "$server_pid" 2>/dev/null; then break; fi
  sleep 0.1
done
if [ -z "$ready" ]; then
  echo "quire did not start; its log:" >&2
  cat "$work/serve.log" >&2
  exit 1
fi
shots="$target_dir/screenshots"
rm -rf "$shots"
mkdir -p "$shots"
echo "== browser tests against http://127.0.0.1:$port (screenshots into $shots)"
status=0
(
  cd tests/browser
  QUIRE_TEST_URL="http://127.0.0.1:$port" \
    QUIRE_TEST_ADMIN=admin \
    QUIRE_TEST_PASSWORD="$password" \
    QUIRE_TEST_MAX_DOC_BYTES="$QUIRE_MAX_DOC_BYTES" \
    QUIRE_TEST_OIDC_LOGIN=erin QUIRE_TEST_OIDC_PASSWORD="$oidc_password" \
    QUIRE_SCREENSHOTS="$shots" \
    node --test --test-concurrency=1 --test-timeout=120000 "${files[@]}"
) || status=$?

if [ "$status" -ne 0 ]; then
  echo "browser tests failed; the server's last log lines:" >&2
  tail -n 20 "$work/serve.log" >&2
  exit "$status"
fi

if [ "$update_docs" -eq 1 ]; then
  mkdir -p "$root/docs/screenshots"
  for name in document-desktop-light editor-desktop-dark search-phone-light diff-desktop-light conflict-desktop-light editor-phone-light; do
    cp "$shots/$name.png" "$root/docs/screenshots/$name.png"
  done
  echo "updated docs/screenshots/"
fi
