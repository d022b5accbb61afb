#!/bin/sh
# The image's entrypoint (/usr/local/bin/quire-entrypoint).
#   serve       restore from the replica first when the data volume is empty, then serve:
#                 data present            -> serve it
#                 no data, replica exists -> restore (QUIRE_RESTORE_TIMESTAMP: the state
#                                            at that time), then serve
#                 no data, no replica     -> start empty
#   replicate   the Litestream sidecar: check the replica can be written, then replicate
#   anything else runs that quire command (`user add ...`, `doctor`, `restore ...`).
# A replica that is set but cannot be read or written stops here with a clear line:
# quire never serves unreplicated, or empty over a replica, by accident.
set -eu
QUIRE_BIN=${QUIRE_BIN:-quire}
LITESTREAM=${LITESTREAM:-litestream}
: "${QUIRE_DB_PATH:=/data/quire.db}"
: "${QUIRE_LITESTREAM_SOCKET:=/tmp/litestream.sock}"
: "${QUIRE_LITESTREAM_CONFIG:=/etc/litestream.yml}"
# exec: Litestream runs quire as its child in this container; sidecar: another
# container replicates (compose.yaml), this one only restores and serves.
: "${QUIRE_LITESTREAM_MODE:=exec}"
export QUIRE_DB_PATH QUIRE_LITESTREAM_SOCKET

say() { echo "entrypoint: $*"; }
die() { echo "entrypoint: ERROR: $*" >&2; exit 1; }

role=${1:-serve}
case "$role" in
  serve | replicate) ;;
  *) exec "$QUIRE_BIN" "$@" ;;
esac

case "${QUIRE_DATABASE_URL:-}" in
  postgres://* | postgresql://*)
    [ "$role" = serve ] || die "PostgreSQL keeps and replicates its data itself; nothing to replicate"
    # PostgreSQL keeps and replicates the data itself: nothing to restore here.
    say "serving from PostgreSQL"
    exec "$QUIRE_BIN" serve ;;
esac
export QUIRE_DATABASE_URL="sqlite://$QUIRE_DB_PATH"

# The replica must be reachable before anything else happens. A file:// replica is
# checked by writing into it; any other kind by listing it through Litestream.
check_replica() {
  url=$QUIRE_REPLICA_URL
  case "$url" in
    file://*)
      dir=${url#file://}
      err=$(mkdir -p "$dir" 2>&1 && touch "$dir/.quire-write-check" 2>&1 && rm -f "$dir/.quire-write-check" 2>&1) \
        || die "the replica $url cannot be written as uid $(id -u):$(id -g): $err. Give that user the folder (e.g. chown -R 10001:10001 on the host) or fix QUIRE_REPLICA_URL; refusing to run without replication."
      ;;
    *)
      err=$("$LITESTREAM" ltx "$url" 2>&1 >/dev/null) \
        || die "the replica $url cannot be read: $err. Refusing to run without replication."
      ;;
  esac
}

if [ -z "${QUIRE_REPLICA_URL:-}" ]; then
  [ "$role" = serve ] || die "QUIRE_REPLICA_URL is not set: there is nowhere to replicate to"
  say "QUIRE_REPLICA_URL is not set; serving WITHOUT replication"
  exec "$QUIRE_BIN" serve
fi
check_replica

if [ "$role" = replicate ]; then
  [ -f "$QUIRE_DB_PATH" ] || die "$QUIRE_DB_PATH does not exist; start quire first"
  say "replicating $QUIRE_DB_PATH to $QUIRE_REPLICA_URL"
  exec "$LITESTREAM" replicate -config "$QUIRE_LITESTREAM_CONFIG"
fi

if [ -f "$QUIRE_DB_PATH" ]; then
  say "$QUIRE_DB_PATH exists; serving it"
else
  mkdir -p "$(dirname "$QUIRE_DB_PATH")"
  if [ -n "${QUIRE_RESTORE_TIMESTAMP:-}" ]; then
    say "no database; restoring the state at $QUIRE_RESTORE_TIMESTAMP from $QUIRE_REPLICA_URL"
    "$LITESTREAM" restore -if-replica-exists -timestamp "$QUIRE_RESTORE_TIMESTAMP" \
      -o "$QUIRE_DB_PATH" "$QUIRE_REPLICA_URL" || die "the restore failed; nothing was started"
  else
    say "no database; restoring from $QUIRE_REPLICA_URL if it has one"
    "$LITESTREAM" restore -if-replica-exists -o "$QUIRE_DB_PATH" "$QUIRE_REPLICA_URL" \
      || die "the restore failed; nothing was started"
  fi
  if [ -f "$QUIRE_DB_PATH" ]; then
    say "restored from the replica"
  else
    say "the replica is empty; starting a new database"
  fi
fi
if [ "$QUIRE_LITESTREAM_MODE" = exec ]; then
  # One process tree: Litestream replicates and runs quire; when quire exits,
  # Litestream syncs one last time and exits too.
  exec "$LITESTREAM" replicate -config "$QUIRE_LITESTREAM_CONFIG" -exec "$QUIRE_BIN serve"
fi
exec "$QUIRE_BIN" serve
