#!/usr/bin/env bash
# Data larger than RAM: random reads of 1 KB … 256 KB documents from ~3 GiB of text,
# with the reader confined to a 1 GiB memory cgroup (page cache included) and caches
# dropped first; quire on SQLite against the same rows in the local PostgreSQL,
# whose server processes (and the sqlx client) run in the same kind of cgroup.
#
#   sudo benches/larger-than-ram.sh      (needs root: cgroups, drop_caches, pg_ctlcluster)
#
# Settings (defaults in brackets):
#   QUIRE_LTR_TEXT [words]              words: quire's generated Markdown; random:
#                                       uniformly random characters (incompressible)
#   QUIRE_LTR_DIR [/tmp/quire-ltr, /tmp/quire-ltr_random]   SQLite database, ids, results
#   QUIRE_LTR_TOTAL_BYTES [3 GiB]       document text, split evenly between sizes
#   QUIRE_LTR_SIZES [1024,8192,65536,262144]
#   QUIRE_LTR_MEM_LIMIT [1 GiB]         memory.limit_in_bytes of the cgroup
#   QUIRE_LTR_READS [40000] / QUIRE_LTR_SECONDS [180]   per engine, whichever ends first
#   QUIRE_LTR_PG_URL [postgres://postgres@localhost/quire_ltr(_random)?host=/var/run/postgresql]
#   QUIRE_LTR_PLOT_PYTHON               a python3 with matplotlib: also draw the plot
#   QUIRE_LTR_ENGINES [sqlite postgres] the engines to read (the report needs both)
#   QUIRE_LTR_PAGE_SIZES                e.g. "4096 16384": afterwards the same rows,
#                                       rewritten by VACUUM INTO at each page size, read
#                                       by quire on SQLite (4096 again shows what the
#                                       rewrite alone does); copies kept in page-SIZE/
# Idempotent: the database and the PostgreSQL copy are reused when complete, the
# cgroup is re-created, and PostgreSQL is put back where it was on exit.
set -euo pipefail

cd "$(dirname "$0")/.."
export QUIRE_LTR_TEXT=${QUIRE_LTR_TEXT:-words}
suffix=${QUIRE_LTR_TEXT/#words/}
suffix=${suffix:+_$suffix}
export QUIRE_LTR_DIR=${QUIRE_LTR_DIR:-/tmp/quire-ltr$suffix}
# The 256 KB class sits exactly on the default cap; raise it so no size is refused.
export QUIRE_MAX_DOC_BYTES=${QUIRE_MAX_DOC_BYTES:-1048576}
export QUIRE_LOG=${QUIRE_LOG:-warn}
limit=${QUIRE_LTR_MEM_LIMIT:-$((1 << 30))}
cgroup=/sys/fs/cgroup/memory/quire-bench
pg_version=$(ls /etc/postgresql | sort -n | tail -1)
pg_data=/var/lib/postgresql/$pg_version/main
bin=${CARGO_TARGET_DIR:-target}/release/examples/storage-read

pg() { pg_ctlcluster --skip-systemctl-redirect "$pg_version" main "$@"; }
postmaster() { head -1 "$pg_data/postmaster.pid"; }
memory_cgroup_of() { sed -n 's/^[0-9]*:memory:\(.*\)$/\1/p' "/proc/$1/cgroup"; }
# Runs a command with the subshell (and so the command) moved into a memory cgroup.
in_cgroup() {
    local dir=$1
    shift
    (echo "$BASHPID" >"$dir/cgroup.procs" && exec "$@")
}
drop_caches() { sync && echo 3 >/proc/sys/vm/drop_caches; }
cgroup_report() {
    local peak cache
    peak=$(($(cat "$cgroup/memory.max_usage_in_bytes") >> 20))
    cache=$(($(sed -n 's/^total_cache //p' "$cgroup/memory.stat") >> 20))
    echo "cgroup: limit $((limit >> 20)) MiB, peak usage $peak MiB, page cache at end $cache MiB," \
        "limit hit $(cat "$cgroup/memory.failcnt") times"
}

echo "== build"
cargo build --release --example storage-read

pg status >/dev/null || pg start
home_cgroup=$(memory_cgroup_of "$(postmaster)")
if [[ $home_cgroup == /quire-bench ]]; then
    # A previous run died before it put PostgreSQL back; fall back to our own cgroup.
    home_cgroup=$(memory_cgroup_of $$)
fi
restore_pg() {
    if [[ $(memory_cgroup_of "$(postmaster)" 2>/dev/null) == /quire-bench ]] ||
        ! pg status >/dev/null; then
        echo "== putting PostgreSQL back (memory cgroup $home_cgroup)"
        pg stop || true
        if [[ -d /sys/fs/cgroup/memory$home_cgroup ]]; then
            in_cgroup "/sys/fs/cgroup/memory$home_cgroup" pg_ctlcluster \
                --skip-systemctl-redirect "$pg_version" main start
        else
            pg start
        fi
    fi
}
trap restore_pg EXIT

echo "== seed $QUIRE_LTR_TEXT text (SQLite, quire's own seeder; reused when complete)"
"$bin" seed
ls -l "$QUIRE_LTR_DIR"/quire.db*
engines=" ${QUIRE_LTR_ENGINES:-sqlite postgres} "
if [[ $engines == *" postgres "* ]]; then
    echo "== load PostgreSQL (reused when complete)"
    "$bin" load-pg
fi

mkdir -p "$cgroup"
echo "$limit" >"$cgroup/memory.limit_in_bytes"
echo "== machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)," \
    "$(free -m | awk '/^Mem/ {print $2}') MiB RAM"

if [[ $engines == *" sqlite "* ]]; then
    echo "== quire on SQLite, reader in the cgroup, caches dropped"
    drop_caches
    echo 0 >"$cgroup/memory.max_usage_in_bytes"
    in_cgroup "$cgroup" "$bin" read sqlite
    cgroup_report
fi

if [[ $engines == *" postgres "* ]]; then
    echo "== PostgreSQL restarted inside the cgroup, client in it too, caches dropped"
    pg stop
    in_cgroup "$cgroup" pg_ctlcluster --skip-systemctl-redirect "$pg_version" main start
    drop_caches
    echo 0 >"$cgroup/memory.max_usage_in_bytes"
    in_cgroup "$cgroup" "$bin" read postgres
    cgroup_report
    restore_pg
fi

if [[ $engines == *" sqlite "* && $engines == *" postgres "* ]]; then
    echo "== results (ms; $QUIRE_LTR_DIR/results.csv)"
    "$bin" report
    if [[ -n ${QUIRE_LTR_PLOT_PYTHON:-} ]]; then
        "$QUIRE_LTR_PLOT_PYTHON" benches/larger-than-ram-plot.py "$QUIRE_LTR_DIR/results.csv" \
            "docs/perf/larger-than-ram${suffix/_/-}.png"
    fi
fi

for size in ${QUIRE_LTR_PAGE_SIZES:-}; do
    echo "== the same rows at $size bytes a page (VACUUM INTO; reused when there), caches dropped"
    "$bin" copy "$size"
    drop_caches
    echo 0 >"$cgroup/memory.max_usage_in_bytes"
    QUIRE_LTR_DIR="$QUIRE_LTR_DIR/page-$size" in_cgroup "$cgroup" "$bin" read sqlite
    cgroup_report
done
