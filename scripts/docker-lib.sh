# Helpers for scripts/docker-test.sh: the engine, compose v1 or v2, waiting on
# containers, and quire's sign-in and documents over HTTP with curl.
# shellcheck shell=bash

PASSWORD="correct horse battery staple"
STACKS=()
DOCKERD_PID=

step() { echo "== docker: $*"; }
fail() {
  echo "docker test FAILED: $*" >&2
  for s in "${STACKS[@]}"; do "$s" ps >&2 || true; "$s" logs --tail 40 >&2 || true; done
  exit 1
}
skip_loudly() {
  cat >&2 <<'EOF'
########################################################################
# SKIPPED: the Docker deploy test. No Docker engine could be started here
# (installing docker.io needs root and Debian's packages). The image and the
# compose files were NOT built or run by this test run.
########################################################################
EOF
}

ensure_engine() {
  if ! command -v dockerd >/dev/null 2>&1 || ! command -v docker-compose >/dev/null 2>&1 \
    || ! command -v debootstrap >/dev/null 2>&1; then
    [ "$(id -u)" = 0 ] || return 1
    echo "installing Debian's docker.io, docker-compose and debootstrap"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io docker-compose debootstrap >/dev/null || return 1
  fi
  if ! docker info >/dev/null 2>&1; then
    [ "$(id -u)" = 0 ] || return 1
    mkdir -p target/docker
    dockerd >target/docker/dockerd.log 2>&1 &
    DOCKERD_PID=$!
    echo "started dockerd (pid $DOCKERD_PID, log target/docker/dockerd.log)"
    for _ in $(seq 60); do docker info >/dev/null 2>&1 && break; sleep 1; done
    docker info >/dev/null 2>&1 || { tail -20 target/docker/dockerd.log >&2; return 1; }
  fi
  if docker compose version >/dev/null 2>&1; then
    COMPOSE=(docker compose); COMPOSE_DESC="docker compose (v2)"
  else
    COMPOSE=(docker-compose); COMPOSE_DESC="docker-compose $(docker-compose version --short) (v1)"
  fi
}

compose() { "${COMPOSE[@]}" "$@"; }

cleanup() {
  local s
  for s in "${STACKS[@]}"; do "$s" down -v --remove-orphans >/dev/null 2>&1 || true; done
  [ -n "${work:-}" ] && rm -rf "$work"
  if [ -n "$DOCKERD_PID" ]; then
    kill "$DOCKERD_PID" 2>/dev/null || true
    wait "$DOCKERD_PID" 2>/dev/null || true
    echo "stopped the dockerd this test started"
  fi
}

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

container() { docker ps -aq --filter "label=com.docker.compose.project=$1" --filter "label=com.docker.compose.service=$2" | head -1; }

# Waits until the service's health check passes (3 minutes at most).
wait_healthy() {
  local c state
  for _ in $(seq 360); do
    c=$(container "$1" "$2")
    state=$([ -n "$c" ] && docker inspect -f '{{if .State.Health}}{{.State.Health.Status}}{{end}}' "$c" 2>/dev/null || true)
    [ "$state" = healthy ] && return 0
    sleep 0.5
  done
  fail "$1/$2 did not become healthy (last: ${state:-no container})"
}

wait_running() {
  local c
  for _ in $(seq 120); do
    c=$(container "$1" "$2")
    [ -n "$c" ] && [ "$(docker inspect -f '{{.State.Running}}' "$c")" = true ] && return 0
    sleep 0.5
  done
  fail "$1/$2 is not running"
}

# Waits until the service's main process is another one than `$3`.
wait_restarted() {
  local c pid
  for _ in $(seq 120); do
    c=$(container "$1" "$2")
    pid=$(docker inspect -f '{{.State.Pid}}' "$c")
    [ "$pid" != 0 ] && [ "$pid" != "$3" ] && return 0
    sleep 0.5
  done
  fail "$1/$2 was not restarted"
}

wait_logged() {
  for _ in $(seq 120); do
    docker logs "$(container "$1" "$2")" 2>&1 | grep >/dev/null "$3" && return 0
    sleep 0.5
  done
  fail "$1/$2 never logged: $3"
}

# Forces the sidecar to upload now, then asks quire doctor (in the quire container)
# that the replica holds the newest transaction.
wait_replicated() {
  local report
  docker exec "$(container "$1" litestream)" litestream sync -wait -socket /tmp/litestream.sock /data/quire.db >/dev/null
  for _ in $(seq 60); do
    report=$(docker exec "$(container "$1" quire)" quire doctor 2>&1 || true)
    grep -q " 0 transaction(s) behind" <<<"$report" && return 0
    sleep 0.5
  done
  fail "the replica did not catch up: $report"
}

csrf_in() { sed -n 's/.*name="csrf" value="\([^"]*\)".*/\1/p' | head -1; }

sign_in() {
  local base=$1 jar=$2 csrf code
  csrf=$(curl -fsS -c "$jar" -b "$jar" "$base/login" | csrf_in)
  code=$(curl -sS -o /dev/null -w '%{http_code}' -c "$jar" -b "$jar" \
    --data-urlencode username=alice --data-urlencode "password=$PASSWORD" \
    --data-urlencode "csrf=$csrf" --data-urlencode next=/ "$base/login")
  [ "$code" = 303 ] || fail "sign-in at $base answered $code"
}

# Creates a document through the editor's form; prints its id.
create_doc() {
  local base=$1 jar=$2 csrf location
  csrf=$(curl -fsS -c "$jar" -b "$jar" "$base/new" | csrf_in)
  location=$(curl -sS -o /dev/null -w '%{redirect_url}' -c "$jar" -b "$jar" \
    --data-urlencode "title=$3" --data-urlencode "body=$4" --data-urlencode "csrf=$csrf" "$base/docs")
  location=${location#"$base"}
  location=${location#/d/}
  [ -n "$location" ] || fail "creating '$3' at $base gave no document"
  echo "${location%%\?*}"
}

read_doc() { curl -fsS -b "$2" "$1/d/$3" 2>/dev/null || true; }

status_of() { curl -sS -o /dev/null -w '%{http_code}' -b "$2" "$1$3"; }
