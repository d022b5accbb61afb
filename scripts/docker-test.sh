#!/usr/bin/env bash
# The Docker deploy, built and run for real: the image from the Dockerfile, the
# stack from compose.yaml (quire + Litestream sidecar) and compose.postgres.yaml,
# driven over HTTP on 127.0.0.1 the way a self-hoster meets them. Called by the test
# command. Idempotent: installs Debian's docker.io and docker-compose when missing,
# starts dockerd when none runs (and stops it again at the end), makes local
# stand-ins for base images no registry can provide (scripts/docker-standins.sh).
# Skips, loudly, only where no Docker engine can be started at all.
# `grep >/dev/null` rather than `grep -q` after a pipe: grep -q stops reading at the
# first match, and under pipefail the writer it leaves (compose logs, curl) may
# then fail on SIGPIPE, failing a check that matched.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/docker-lib.sh

step "Docker engine"
ensure_engine || { skip_loudly; exit 0; }
trap cleanup EXIT
echo "compose: $COMPOSE_DESC"

# A run that was cut off may have left its stacks behind: start from nothing.
for project in quire-test quire-pg-test; do
  ids=$(docker ps -aq --filter "label=com.docker.compose.project=$project")
  [ -z "$ids" ] || docker rm -f $ids >/dev/null
  vols=$(docker volume ls -q --filter "label=com.docker.compose.project=$project")
  [ -z "$vols" ] || docker volume rm $vols >/dev/null
done

step "base images"
./scripts/docker-standins.sh

step "image"
started=$SECONDS
DOCKER_BUILDKIT=0 docker build -q -t quire:latest . >/dev/null
size=$(docker image inspect -f '{{.Size}}' quire:latest)
echo "built quire:latest in $((SECONDS - started)) s: $((size / 1000000)) MB"
# debian:bookworm-slim (75 MB) + Litestream's static binary (39 MB) + quire (28 MB;
# 16 MB before math rendering and single sign-on's HTTPS client and signature checks,
# 23 MB before Mermaid, embedded gzip-compressed, and this turn's features, 26 MB
# before reading the text of attached PDFs for search; link-time optimisation makes
# it no smaller): the 100 MB goal is out of reach while the image carries
# Litestream; fail on growth.
[ "$size" -le 145000000 ] || fail "the image weighs $((size / 1000000)) MB; the budget is 145 MB"
ids=$(docker run --rm --entrypoint id quire:latest)
[ "$ids" = "uid=10001(quire) gid=10001(quire) groups=10001(quire)" ] || fail "the image runs as: $ids"
echo "runs as $ids"
docker run --rm quire:latest --version >/dev/null || fail "quire --version in the image"
docker run --rm --entrypoint litestream quire:latest version >/dev/null || fail "litestream is not in the image"
# The image's quire is the optimised build the page budget measures (scripts/test.sh):
# the suite builds it once, here, and measures what is deployed.
mkdir -p target/image
cid=$(docker create quire:latest)
docker cp -q "$cid:/usr/local/bin/quire" target/image/quire
docker rm "$cid" >/dev/null

step "compose.yaml: up on an empty volume and an empty replica"
work=$(mktemp -d)
export QUIRE_BACKUP_DIR="$work/backup" QUIRE_REPLICA_URL=file:///backup/quire
export QUIRE_COOKIE_SECURE=false QUIRE_PORT=$(free_port) QUIRE_RESTORE_TIMESTAMP=
mkdir -p "$QUIRE_BACKUP_DIR" && chown 10001:10001 "$QUIRE_BACKUP_DIR"
BASE=http://127.0.0.1:$QUIRE_PORT
stack() { compose -p quire-test -f compose.yaml "$@"; }
STACKS+=("stack")
started=$SECONDS
stack up -d --no-build
wait_healthy quire-test quire
echo "healthy in $((SECONDS - started)) s"
wait_running quire-test litestream
owner=$(stack exec -T quire stat -c '%u:%g' /data /data/quire.db | sort -u)
[ "$owner" = "10001:10001" ] || fail "/data and quire.db belong to $owner"

step "the first administrator, sign-in and a saved document"
printf '%s\n' "$PASSWORD" | stack exec -T quire quire user add alice --admin --password-stdin
jar=$work/jar
sign_in "$BASE" "$jar"
doc=$(create_doc "$BASE" "$jar" "Docker note" "written through the container")
read_doc "$BASE" "$jar" "$doc" | grep >/dev/null "written through the container" || fail "the new document reads back"
wait_replicated quire-test
echo "saved $doc; the replica holds it"

step "kill -9 of the server: the restart policy brings it back, nothing lost"
pid=$(docker inspect -f '{{.State.Pid}}' "$(container quire-test quire)")
kill -9 "$pid"
wait_restarted quire-test quire "$pid"
wait_healthy quire-test quire
read_doc "$BASE" "$jar" "$doc" | grep >/dev/null "written through the container" || fail "document after kill -9"
echo "restarted; the document and the session are there"

step "volume gone (down -v): up restores from the replica"
stack down -v --remove-orphans
stack up -d --no-build
wait_healthy quire-test quire
stack logs quire | grep >/dev/null "restored from the replica" || fail "the entrypoint did not restore"
read_doc "$BASE" "$jar" "$doc" | grep >/dev/null "written through the container" || fail "document after restore (old session)"
sign_in "$BASE" "$work/jar2"
read_doc "$BASE" "$work/jar2" "$doc" | grep >/dev/null "written through the container" || fail "document after restore (new sign-in)"
owner=$(stack exec -T quire stat -c '%u:%g' /data /data/quire.db | sort -u)
[ "$owner" = "10001:10001" ] || fail "restored files belong to $owner"
wait_running quire-test litestream
echo "restored; sign-in works; files owned by 10001:10001"

step "point in time: A, then B; restore to a moment between them"
a=$(create_doc "$BASE" "$jar" "Note A" "kept: written before the moment")
wait_replicated quire-test
sleep 2
moment=$(date -u +%Y-%m-%dT%H:%M:%SZ)
sleep 2
b=$(create_doc "$BASE" "$jar" "Note B" "the wrong thing, written after the moment")
wait_replicated quire-test
# The command-line path: stop both, restore over the volume with --force, start.
stack stop
stack run --rm --no-deps quire restore --from-replica --timestamp "$moment" --force
stack up -d --no-build
wait_healthy quire-test quire
read_doc "$BASE" "$jar" "$a" | grep >/dev/null "kept: written before the moment" || fail "A after restore --timestamp"
gone=$(status_of "$BASE" "$jar" "/d/$b")
[ "$gone" = 404 ] || fail "B after restore --timestamp: $gone"
echo "quire restore --from-replica --timestamp $moment: A there, B not"
# Replication goes on from the restored state: a new save reaches the replica.
c=$(create_doc "$BASE" "$jar" "Note C" "written after the restore")
wait_replicated quire-test
stack down -v
stack up -d --no-build
wait_healthy quire-test quire
read_doc "$BASE" "$jar" "$c" | grep >/dev/null "written after the restore" || fail "C was not replicated after the restore"
read_doc "$BASE" "$jar" "$a" | grep >/dev/null "kept: written before the moment" || fail "A after restoring the restored state"
gone=$(status_of "$BASE" "$jar" "/d/$b")
[ "$gone" = 404 ] || fail "B came back from the replica: $gone"
echo "after the restore, new saves replicate: the replica's newest state is A + C, without B"
# The compose path: an empty volume with QUIRE_RESTORE_TIMESTAMP.
stack down -v
QUIRE_RESTORE_TIMESTAMP=$moment stack up -d --no-build
wait_healthy quire-test quire
read_doc "$BASE" "$jar" "$a" | grep >/dev/null "kept: written before the moment" || fail "A after QUIRE_RESTORE_TIMESTAMP"
gone=$(status_of "$BASE" "$jar" "/d/$b")
[ "$gone" = 404 ] || fail "B after QUIRE_RESTORE_TIMESTAMP: $gone"
echo "QUIRE_RESTORE_TIMESTAMP=$moment on an empty volume: A there, B not"

step "SIGTERM: exit 0 within the stop grace period"
started=$SECONDS
stack stop -t 40 quire
code=$(docker inspect -f '{{.State.ExitCode}}' "$(container quire-test quire)")
[ "$code" = 0 ] || fail "quire exited $code on SIGTERM"
echo "stopped in $((SECONDS - started)) s, exit 0"

step "a replica that cannot be read or written: the stack refuses to start"
stack down -v
chown root:root "$QUIRE_BACKUP_DIR" && chmod 700 "$QUIRE_BACKUP_DIR"
timeout 120 "${COMPOSE[@]}" -p quire-test -f compose.yaml up -d --no-build >"$work/up.log" 2>&1 || true
wait_logged quire-test quire "cannot be written"
if curl -fsS -o /dev/null "$BASE/healthz" 2>/dev/null; then fail "quire serves without its replica"; fi
[ -z "$(container quire-test litestream)" ] || [ "$(docker inspect -f '{{.State.Running}}' "$(container quire-test litestream)")" = false ] \
  || fail "the sidecar runs without quire"
# What it said, for the log (grep stops at the first; a closed pipe is no failure).
stack logs quire 2>&1 | grep -m1 "ERROR" || true
stack down -v
chown 10001:10001 "$QUIRE_BACKUP_DIR"

step "compose.postgres.yaml: two instances on one PostgreSQL"
export QUIRE_PG_PASSWORD=pg-$RANDOM-$RANDOM QUIRE_PORT_A=$(free_port) QUIRE_PORT_B=$(free_port)
pg() { compose -p quire-pg-test -f compose.postgres.yaml "$@"; }
STACKS+=("pg")
pg up -d --no-build
wait_healthy quire-pg-test quire-a
wait_healthy quire-pg-test quire-b
printf '%s\n' "$PASSWORD" | pg exec -T quire-a quire user add alice --admin --password-stdin
jar=$work/pgjar
sign_in "http://127.0.0.1:$QUIRE_PORT_A" "$jar"
doc=$(create_doc "http://127.0.0.1:$QUIRE_PORT_A" "$jar" "Shared" "made on instance A")
read_doc "http://127.0.0.1:$QUIRE_PORT_B" "$jar" "$doc" | grep >/dev/null "made on instance A" \
  || fail "instance B does not read A's document with A's session"
echo "a session made on A reads A's document on B"
pg down -v

echo "docker: all passed (image $((size / 1000000)) MB)"
