#!/usr/bin/env bash
# Installs a test folder's pinned npm packages (npm ci), again only when its lock
# file changed since the last install: scripts/npm-install.sh tests/oidc
set -euo pipefail
dir=$1
lock_sum=$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)
stamp="$dir/node_modules/.quire-lock-sha256"
if [ "$(cat "$stamp" 2>/dev/null)" != "$lock_sum" ]; then
  echo "== npm ci ($dir)"
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
  echo "$lock_sum" >"$stamp"
fi
