#!/usr/bin/env bash
# Two builds of quire measured side by side, so that whatever else the machine
# does falls on both alike: both servers run at once, each on its own copy of one
# seeded database, and each round loads both at the same time with a closed-loop
# client of its own (CONNECTIONS connections, SECONDS seconds), one kind of
# request at a time; the report is new ÷ old per round and its mean.
#
# Kinds (KINDS, default all, in this order each round):
#   page    GET /d/{id} signed in, random ids        (benches/loadgen.rs)
#   list    GET / signed in, the list's first page   (loadgen)
#   search  GET /search?q=WORD, one of eight words   (loadgen)
#   save    the editor's save without JavaScript: POST /d/{id} (form: title,
#           body, version, csrf), each connection saving its own document over
#           and over at its current version; every answer a 303 to ?m=saved
#   merge   the page's merging save: each connection first saves its document
#           changing the first line (?m=saved), then saves again from the
#           version before that, changing the last line, which quire merges
#           (?m=merged); rate is such pairs per second, latency the merging save's
# Besides requests/s and p50/p99 (ms): each server's CPU time (user + system)
# per request, and what the rest of the machine used meanwhile (all CPU busy
# time less both servers and both clients), in % of all cores, with the load
# average at the start of the round.
#
# Preparing each side's data (PREPARE, optional): after a side's copy of the
# database is made and `bench` added, the side's binary migrates it
# (`quire migrate`, with that side's QUIRE_DATABASE_URL) and then
# `$PREPARE DB SIDE` runs (DB the copy, SIDE old or new; PREPARE_SIDES="old old"
# passes old for both, e.g. to measure one build against itself), so that it can
# give `bench` the data of a realistic reader: other owners, spaces, groups.
# The same argon2 hash then signs in on both sides. If PREPARE writes DB.pages
# (the ids of the documents bench may read, one a line) for both sides, the
# page kind loads only ids listed by both (loadgen fails on anything but a 200).
# save and merge use the last documents by seq: bench must still edit them.
# Without PREPARE nothing of this runs.
#
# Usage: [KINDS="page list search save merge"] [WARM=3] [LOADGEN=path] \
#   [PREPARE="python3 benches/teams-data.py" [PREPARE_SIDES="old new"]] \
#   benches/side-by-side.sh OLD_QUIRE NEW_QUIRE SEEDED_DB [ROUNDS [SECONDS [CONNECTIONS]]]
#   seed first, e.g.: QUIRE_DATABASE_URL=sqlite:///tmp/perf/seed.db quire seed --count 5000 --size 8192
# Writes target/perf/side-by-side.csv (one row per round and kind).
set -euo pipefail
cd "$(dirname "$0")/.."
old_bin=$(realpath "${1:?old quire binary}")
new_bin=$(realpath "${2:?new quire binary}")
seed=$(realpath "${3:?seeded SQLite database}")
rounds=${4:-4}
secs=${5:-8}
conns=${6:-2}
read -r -a kinds <<<"${KINDS:-page list search save merge}"
warm=${WARM:-3}
if [ -z "${LOADGEN:-}" ]; then
  cargo build --release --locked --quiet --example loadgen
  LOADGEN=./target/release/examples/loadgen
fi
loadgen=$(realpath "$LOADGEN")
command -v /usr/bin/time >/dev/null || {
  echo "needs /usr/bin/time" >&2
  exit 1
}
tick=$(getconf CLK_TCK)
cores=$(nproc)

tmp=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT

cat >"$tmp/saver.py" <<'PY'
# Closed-loop form saves through the page path; prints like loadgen:
# requests rps p50 p90 p99 p999 max (ms).
import http.client, json, sys, threading, time, urllib.parse

port, cookie, csrf, state_file, mode, conns, secs = sys.argv[1:8]
conns, secs = int(conns), float(secs)
with open(state_file) as f:
    state = json.load(f)
docs = state[mode][:conns]
lat, count, errors = [], [0], []
lock = threading.Lock()

def run(doc, c):
    h = http.client.HTTPConnection("127.0.0.1", int(port))
    headers = {"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"}

    def post(body, version, want):
        data = urllib.parse.urlencode(
            {"title": doc["title"], "body": body, "version": version, "csrf": csrf})
        t = time.perf_counter()
        h.request("POST", "/d/" + doc["id"], data, headers)
        r = h.getresponse()
        r.read()
        took = time.perf_counter() - t
        where = r.getheader("Location") or ""
        if r.status != 303 or not where.endswith("m=" + want):
            raise RuntimeError(f"{doc['id']} v{version}: {r.status} {where}")
        return took

    mine = []
    n = 0
    until = time.monotonic() + secs
    try:
        while time.monotonic() < until:
            n += 1
            if mode == "save":
                body = doc["body"] + f"\n\nSave {n} by connection {c}.\n"
                mine.append(post(body, doc["version"], "saved"))
                doc["version"] += 1
            else:
                lines = doc["body"].split("\n")
                theirs = lines[:]
                theirs[0] = f"Theirs {n} by connection {c}."
                post("\n".join(theirs), doc["version"], "saved")
                ours = lines[:]
                ours[-1] = f"Mine {n} by connection {c}."
                mine.append(post("\n".join(ours), doc["version"], "merged"))
                merged = lines[:]
                merged[0], merged[-1] = theirs[0], ours[-1]
                doc["body"] = "\n".join(merged)
                doc["version"] += 2
    except Exception as e:  # reported below; the run fails
        with lock:
            errors.append(str(e))
    with lock:
        lat.extend(mine)

started = time.monotonic()
threads = [threading.Thread(target=run, args=(d, c)) for c, d in enumerate(docs)]
for t in threads:
    t.start()
for t in threads:
    t.join()
wall = time.monotonic() - started
with open(state_file, "w") as f:
    json.dump(state, f)
if errors:
    sys.exit("save failed: " + errors[0])
lat.sort()
q = lambda x: lat[min(len(lat) - 1, int(x * len(lat)))] * 1000
print(f"{len(lat)} {len(lat) / wall:.0f} {q(0.5):.3f} {q(0.9):.3f} {q(0.99):.3f} {q(0.999):.3f} {lat[-1] * 1000:.3f}")
PY

# Paths for the readers, and the documents each save kind's connections own
# (their own for each kind: a merge kind's text changes line by line).
python3 - "$seed" "$tmp" "$conns" <<'PY'
import json, sqlite3, sys
seed, tmp, conns = sys.argv[1], sys.argv[2], int(sys.argv[3])
rows = sqlite3.connect(seed).execute(
    "SELECT id, title, body, version FROM documents WHERE deleted_at IS NULL ORDER BY seq").fetchall()
with open(f"{tmp}/page.paths", "w") as f:
    f.writelines(f"/d/{r[0]}\n" for r in rows)
with open(f"{tmp}/list.paths", "w") as f:
    f.write("/\n")
words = ["river", "lantern", "orchard", "granite", "juniper", "beacon", "kettle", "saffron"]
with open(f"{tmp}/search.paths", "w") as f:
    f.writelines(f"/search?q={w}\n" for w in words)
doc = lambda r: {"id": r[0], "title": r[1], "body": r[2], "version": r[3]}
state = {"save": [doc(r) for r in rows[-conns:]], "merge": [doc(r) for r in rows[-2 * conns:-conns]]}
for side in ("old", "new"):
    with open(f"{tmp}/{side}.state", "w") as f:
        json.dump(state, f)
PY

declare -A port pid cookie csrf prepare_as
port[old]=$((18400 + RANDOM % 500))
port[new]=$((port[old] + 1))
read -r prepare_as[old] prepare_as[new] <<<"${PREPARE_SIDES:-old new}"
for side in old new; do
  bin=${side}_bin
  db="$tmp/$side.db"
  cp "$seed" "$db"
  for extra in -wal -shm; do [ ! -f "$seed$extra" ] || cp "$seed$extra" "$db$extra"; done
  export QUIRE_DATABASE_URL="sqlite://$db" QUIRE_LOG=warn
  if [ -n "${PREPARE:-}" ]; then
    "${!bin}" migrate >/dev/null
  fi
  echo "bench password 1234" | "${!bin}" user add bench --admin --password-stdin >/dev/null 2>&1 || true
  if [ -n "${PREPARE:-}" ]; then
    # shellcheck disable=SC2086 # PREPARE is a command line
    $PREPARE "$db" "${prepare_as[$side]}"
  fi
  QUIRE_BIND="127.0.0.1:${port[$side]}" "${!bin}" serve >"$tmp/$side.log" 2>&1 &
  pid[$side]=$!
  pids+=("$!")
done
if [ -n "${PREPARE:-}" ] && [ -f "$tmp/old.db.pages" ] && [ -f "$tmp/new.db.pages" ]; then
  sort "$tmp/old.db.pages" >"$tmp/old.sorted"
  sort "$tmp/new.db.pages" >"$tmp/new.sorted"
  comm -12 "$tmp/old.sorted" "$tmp/new.sorted" | sed 's|^|/d/|' >"$tmp/page.paths"
  echo "page: the $(grep -c . "$tmp/page.paths") documents bench reads on both sides"
fi
for side in old new; do
  base="http://127.0.0.1:${port[$side]}"
  until curl -sf "$base/readyz" >/dev/null 2>&1; do sleep 0.05; done
  jar="$tmp/$side.jar"
  token=$(curl -s -c "$jar" "$base/login" | sed -n 's/.*name="csrf" value="\([0-9a-f]*\)".*/\1/p' | head -1)
  curl -s -b "$jar" -c "$jar" -o /dev/null -d "username=bench&password=bench+password+1234&csrf=$token" "$base/login"
  cookie[$side]=$(awk '$6 ~ /^quire_/ {printf "%s=%s; ", $6, $7}' "$jar")
  csrf[$side]=$(curl -s -H "Cookie: ${cookie[$side]}" "$base/" | sed -n 's/.*name="csrf" value="\([0-9a-f]*\)".*/\1/p' | head -1)
  first=$(head -1 "$tmp/page.paths")
  status=$(curl -s -o /dev/null -w '%{http_code}' -H "Cookie: ${cookie[$side]}" "$base$first")
  if [ "$status" != 200 ] || [ -z "${csrf[$side]}" ]; then
    echo "$side: signed-in page answered $status" >&2
    exit 1
  fi
done

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
machine() { awk '/^cpu / {print $2+$3+$4+$7+$8+$9, $2+$3+$4+$5+$6+$7+$8+$9}' /proc/stat; }

# client SIDE KIND SECONDS: one closed-loop run against SIDE's server.
client() {
  local side=$1 kind=$2 s=$3
  local -a cmd
  case $kind in
    page | list | search) cmd=("$loadgen" "127.0.0.1:${port[$side]}" "$tmp/$kind.paths" "$conns" "$s" "${cookie[$side]}") ;;
    save | merge) cmd=(python3 "$tmp/saver.py" "${port[$side]}" "${cookie[$side]}" "${csrf[$side]}" "$tmp/$side.state" "$kind" "$conns" "$s") ;;
  esac
  /usr/bin/time -f '%U %S' -o "$tmp/$side.time" "${cmd[@]}" >"$tmp/$side.out"
}

if [ "$warm" -gt 0 ]; then
  for kind in page list search; do
    client old "$kind" "$warm" &
    a=$!
    client new "$kind" "$warm" &
    b=$!
    wait "$a" "$b"
  done
fi

mkdir -p target/perf
csv=target/perf/side-by-side.csv
echo "round,kind,old_rps,new_rps,ratio,old_p50_ms,new_p50_ms,old_p99_ms,new_p99_ms,old_cpu_us,new_cpu_us,others_pct,loadavg" >"$csv"
echo "old $old_bin"
echo "new $new_bin"
echo "$(grep -c . "$tmp/page.paths") documents, $rounds rounds × ${secs}s, $conns connections each, $cores cores, ${warm}s warm-up"
printf '| round | kind | old req/s | new req/s | new ÷ old | p50 old/new ms | p99 old/new ms | CPU µs/req old/new | others %% | load |\n'
printf '| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n'
for ((r = 1; r <= rounds; r++)); do
  for kind in "${kinds[@]}"; do
    load=$(cut -d' ' -f1 /proc/loadavg)
    read -r busy0 all0 < <(machine)
    o0=$(cpu_ticks "${pid[old]}")
    n0=$(cpu_ticks "${pid[new]}")
    # Who starts first alternates by round.
    if ((r % 2)); then order=(old new); else order=(new old); fi
    client "${order[0]}" "$kind" "$secs" &
    a=$!
    client "${order[1]}" "$kind" "$secs" &
    b=$!
    wait "$a" "$b"
    o1=$(cpu_ticks "${pid[old]}")
    n1=$(cpu_ticks "${pid[new]}")
    read -r busy1 all1 < <(machine)
    read -r _ orps op50 _ op99 _ _ <"$tmp/old.out"
    read -r _ nrps np50 _ np99 _ _ <"$tmp/new.out"
    read -r ou os <"$tmp/old.time"
    read -r nu ns <"$tmp/new.time"
    row=$(python3 -c "
tick, secs = $tick, $secs
orps, nrps = $orps, $nrps
ocpu = ($o1 - $o0) * 1e6 / tick / (orps * secs)
ncpu = ($n1 - $n0) * 1e6 / tick / (nrps * secs)
clients = ($ou + $os + $nu + $ns) * tick
others = max(0.0, ($busy1 - $busy0) - ($o1 - $o0) - ($n1 - $n0) - clients) / ($all1 - $all0) * 100
print(f'{nrps / orps:.3f} {ocpu:.0f} {ncpu:.0f} {others:.1f}')")
    read -r ratio ocpu ncpu others <<<"$row"
    echo "$r,$kind,$orps,$nrps,$ratio,$op50,$np50,$op99,$np99,$ocpu,$ncpu,$others,$load" >>"$csv"
    printf '| %s | %s | %s | %s | %s | %s / %s | %s / %s | %s / %s | %s | %s |\n' \
      "$r" "$kind" "$orps" "$nrps" "$ratio" "$op50" "$np50" "$op99" "$np99" "$ocpu" "$ncpu" "$others" "$load"
    # Let the search indexer take in what the saves queued.
    case $kind in save | merge) sleep 2 ;; esac
  done
done

echo
python3 - "$csv" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print("| kind | new ÷ old, each round | mean | p50 old/new ms | p99 old/new ms | CPU µs/req old/new | others % |")
print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
for kind in dict.fromkeys(r["kind"] for r in rows):
    rs = [r for r in rows if r["kind"] == kind]
    m = lambda k: statistics.mean(float(r[k]) for r in rs)
    ratios = " · ".join(r["ratio"] for r in rs)
    print(f"| {kind} ({len(rs)}) | {ratios} | **{m('ratio'):.3f}** | {m('old_p50_ms'):.2f} / {m('new_p50_ms'):.2f} "
          f"| {m('old_p99_ms'):.2f} / {m('new_p99_ms'):.2f} | {m('old_cpu_us'):.0f} / {m('new_cpu_us'):.0f} "
          f"| {min(float(r['others_pct']) for r in rs):.0f}–{max(float(r['others_pct']) for r in rs):.0f} |")
PY
