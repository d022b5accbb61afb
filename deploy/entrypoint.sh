#!/bin/sh
# Starts quire, restoring from the replica first when the data volume is empty.
#   data present            -> serve it
#   no data, replica exists -> restore, then serve
#   no data, no replica     -> start empty
# A failed restore stops here: quire never starts empty over a replica by accident.
set -eu
QUIRE_BIN=${QUIRE_BIN:-quire}
case "${QUIRE_DATABASE_URL:-}" in
  postgres://*|postgresql://*)
    # PostgreSQL keeps and replicates the data itself: nothing to restore here.
    echo "entrypoint: serving from PostgreSQL"
    exec "$QUIRE_BIN" serve ;;
esac
: "${QUIRE_DB_PATH:=/data/quire.db}"
: "${QUIRE_LITESTREAM_SOCKET:=/tmp/litestream.sock}"
: "${QUIRE_LITESTREAM_CONFIG:=/etc/litestream.yml}"
: "${QUIRE_LITESTREAM_MODE:=exec}"
LITESTREAM=${LITESTREAM:-litestream}
export QUIRE_DB_PATH QUIRE_LITESTREAM_SOCKET
export QUIRE_DATABASE_URL="sqlite://$QUIRE_DB_PATH"

if [ -n "${QUIRE_REPLICA_URL:-}" ]; then
  if [ -f "$QUIRE_DB_PATH" ]; then
    echo "entrypoint: $QUIRE_DB_PATH exists; serving it"
  else
    echo "entrypoint: no database; restoring from $QUIRE_REPLICA_URL if it has one"
    mkdir -p "$(dirname "$QUIRE_DB_PATH")"
    "$LITESTREAM" restore -if-replica-exists -o "$QUIRE_DB_PATH" "$QUIRE_REPLICA_URL"
    if [ -f "$QUIRE_DB_PATH" ]; then
      echo "entrypoint: restored from the replica"
    else
      echo "entrypoint: the replica is empty; starting a new database"
    fi
  fi
  if [ "$QUIRE_LITESTREAM_MODE" = exec ]; then
    # One process tree: Litestream replicates and runs quire; when quire exits,
    # Litestream syncs one last time and exits too.
    exec "$LITESTREAM" replicate -config "$QUIRE_LITESTREAM_CONFIG" -exec "$QUIRE_BIN serve"
  fi
else
  echo "entrypoint: QUIRE_REPLICA_URL is not set; serving without replication"
fi
exec "$QUIRE_BIN" serve
