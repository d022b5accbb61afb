#!/usr/bin/env bash
# Real corpora no one here wrote, imported with `quire import` and searched
# through the real server over HTTP (signed in, one client):
# - kernel: the Linux kernel's Documentation tree from Debian's linux-doc-6.1
#   (8,800 reStructuredText and plain-text files, many small, with Chinese,
#   Japanese and Korean translations);
# - python: Python's documentation sources from Debian's python3-doc (~500
#   reStructuredText files, median ~10 KB, a tenth over 60 KB, up to ~210 KB):
#   large documents, whose snippets and checks read long texts.
# For each: the import rate, where the database's bytes go (benches/db-size.py)
# and search latency for 20 queries (words, phrases, parts of words; CJK for
# the kernel). Not part of the test command. Installs the packages with
# apt-get (as root).
# Exits non-zero when a corpus's search p99 is over QUIRE_P99_BUDGET_MS (50),
# the page budget real text is held to.
# QUIRE_COMPARE_BIN=/path/to/other/quire imports each corpus with that build
# too and sends each of its requests right after the same one to this build,
# so both see the same machine (report: both, and this ÷ other).
# Usage: benches/real-corpus.sh [ROUNDS [CORPUS...]]   (build first: cargo build --release)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-10}
shift || true
corpora=("$@")
[ ${#corpora[@]} -gt 0 ] || corpora=(kernel python)
bin=${QUIRE_BIN:-$PWD/target/release/quire}
other=${QUIRE_COMPARE_BIN:-}
work=${QUIRE_BENCH_DIR:-/tmp/quire-real-corpus}
budget=${QUIRE_P99_BUDGET_MS:-50}
mkdir -p "$work"
# The bench's own settings are not the server's (it warns about unknown ones).
unset QUIRE_BIN QUIRE_COMPARE_BIN QUIRE_BENCH_DIR QUIRE_P99_BUDGET_MS
export QUIRE_LOG=warn

install() { # PACKAGE DIR: installs PACKAGE unless DIR is there
    if [ ! -d "$2" ]; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$1" > /dev/null
    fi
}

# Text files as quire imports them (.md, .markdown, .txt), under $work/$1/files.
prepare() {
    local files="$work/$1/files" src
    [ -d "$files" ] && return
    rm -rf "$files.tmp"
    mkdir -p "$files.tmp"
    case "$1" in
    kernel)
        src=/usr/share/doc/linux-doc-6.1/Documentation
        install linux-doc-6.1 "$src"
        # Debian compresses the larger files.
        (cd "$src" && find . -type f) | while read -r f; do
            case "$f" in
            *.png | *.jpg | *.gif | *.svg | *.pdf | *.ico | *.woff* | *.dot.gz | *.dot) continue ;;
            esac
            out="$files.tmp/${f%.gz}"
            case "$out" in *.txt | *.md) ;; *) out="$out.txt" ;; esac
            mkdir -p "$(dirname "$out")"
            case "$f" in
            *.gz) gzip -dc "$src/$f" > "$out" ;;
            *) cp "$src/$f" "$out" ;;
            esac
        done
        ;;
    python)
        # python3-doc points at the default Python's documentation (3.11 on
        # Debian 12); its sources are `.rst.txt` files.
        src=/usr/share/doc/python3/html/_sources
        install python3-doc "$src"
        cp -rL "$src/." "$files.tmp/"
        ;;
    *)
        echo "unknown corpus $1 (kernel, python)" >&2
        exit 2
        ;;
    esac
    mv "$files.tmp" "$files"
}

queries_kernel=(
    'scheduler' 'memory barrier' '"page fault"' 'spinlock' 'rcu_read_lock'
    'devicetree' 'kmalloc' 'interrupt handler' 'sysfs attribute' 'mutex'
    'ftrace' 'cgroup' 'iommu' 'hotplug' 'watchdog timer'
    'alloc' 'ocking' '内存' '调度器' '커널'
)
queries_python=(
    'decorator' 'lambda' 'context manager' '"keyword argument"' 'asyncio'
    'generator expression' 'unicode' 'exception' 'subprocess' 'thread safety'
    'dictionary' 'garbage collection' 'metaclass' 'file descriptor' 'bytearray'
    'decorat' 'serializ' 'ocket' 'ternal' 'format string'
)

# Imports the corpus $1 with the binary $2 into $work/$1/$3.db and starts a
# server on it, signed in: sets base_$3 and jar_$3, appends the server's pid
# to $servers.
servers=""
start() {
    local corpus=$1 quire=$2 name=$3 db="$work/$1/$3.db" port base jar token s e
    rm -f "$db" "$db"-*
    export QUIRE_DATABASE_URL="sqlite://$db"
    "$quire" migrate > /dev/null
    s=$(date +%s.%N)
    "$quire" import "$work/$corpus/files" | grep -E '^imported' | cut -c1-160
    e=$(date +%s.%N)
    echo "[$name] import wall clock: $(python3 -c "print(f'{$e - $s:.2f}')") s"
    python3 benches/db-size.py "$db" | sed "s/^/[$name] /"
    printf '%s\n' 'bench password 1234' | "$quire" user add bench --admin --password-stdin > /dev/null
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    base="http://127.0.0.1:$port"
    QUIRE_BIND="127.0.0.1:$port" "$quire" serve &
    servers="$servers $!"
    for _ in $(seq 100); do curl -sf "$base/readyz" > /dev/null && break || sleep 0.1; done
    jar="$work/$corpus/$name.cookies"
    rm -f "$jar"
    token=$(curl -s -c "$jar" "$base/login" | grep -o 'name="csrf" value="[^"]*"' | head -1 |
        sed 's/.*value="//; s/"$//')
    curl -s -b "$jar" -c "$jar" -o /dev/null --data-urlencode "username=bench" \
        --data-urlencode "password=bench password 1234" --data-urlencode "csrf=$token" \
        --data-urlencode "next=/" "$base/login"
    printf -v "base_$name" '%s' "$base"
    printf -v "jar_$name" '%s' "$jar"
}
stop() {
    for pid in $servers; do kill "$pid" 2> /dev/null || true; done
    for pid in $servers; do wait "$pid" 2> /dev/null || true; done
    servers=""
}
trap stop EXIT

# One request of query $2 to build $1, round $3, as a row of $out.
ask() {
    local base jar t hits page="$work/page.html"
    base=base_$1 jar=jar_$1
    t=$(curl -s -b "${!jar}" -o "$page" -w '%{time_total}' --get \
        --data-urlencode "q=$2" "${!base}/search")
    hits=$(grep -o 'class="snippet"' "$page" | wc -l)
    printf '%s,"%s",%s,%s,%s\n' "$1" "${2//\"/\"\"}" "$3" "$t" "$hits" >> "$out"
}

failed=0
for corpus in "${corpora[@]}"; do
    echo "== $corpus"
    prepare "$corpus"
    files="$work/$corpus/files"
    echo "files: $(find "$files" -type f | wc -l), $(du -sh --apparent-size "$files" | cut -f1)"
    builds=(this)
    start "$corpus" "$bin" this
    if [ -n "$other" ]; then
        builds+=(other)
        start "$corpus" "$other" other
    fi
    declare -n queries="queries_$corpus"
    out="$work/$corpus/search.csv"
    echo "build,query,round,seconds,hits" > "$out"
    for r in $(seq "$rounds"); do
        for q in "${queries[@]}"; do
            for b in "${builds[@]}"; do ask "$b" "$q" "$r"; done
        done
    done
    unset -n queries
    stop
    python3 benches/real-corpus-report.py "$out" "$budget" || failed=1
done
exit "$failed"
