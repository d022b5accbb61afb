#!/usr/bin/env python3
"""Search latency of benches/real-corpus.sh from its CSV (build, query, round,
seconds, hits): p50, p99 and max per build, each query's median, and with a
second build (`other`) the ratio this ÷ other. Exits non-zero when this
build's p99 is over the budget.

Usage: benches/real-corpus-report.py SEARCH.csv BUDGET_MS
"""
import csv
import sys

rows = list(csv.DictReader(open(sys.argv[1])))
budget = float(sys.argv[2])
builds = list(dict.fromkeys(r["build"] for r in rows))
queries = list(dict.fromkeys(r["query"] for r in rows))


def ms(build, query=None):
    return sorted(
        float(r["seconds"]) * 1000
        for r in rows
        if r["build"] == build and query in (None, r["query"])
    )


def pick(times, p):
    return times[min(len(times) - 1, int(p * len(times)))]


p99 = {}
for b in builds:
    times = ms(b)
    p99[b] = pick(times, 0.99)
    print(
        f"[{b}] search over HTTP, {len(times)} requests: p50 {pick(times, 0.5):.1f} ms, "
        f"p99 {p99[b]:.1f} ms, max {times[-1]:.1f} ms"
    )
header = "".join(f"  {b + ' median':>12}  {b + ' max':>9}" for b in builds)
print(f"  {'query':<22} hits{header}" + ("  this ÷ other" if len(builds) > 1 else ""))
for query in queries:
    line = f"  {query:<22}"
    hits = {b: [r["hits"] for r in rows if r["query"] == query and r["build"] == b] for b in builds}
    line += f" {hits[builds[0]][0]:>4}"
    medians = {}
    for b in builds:
        mine = ms(b, query)
        medians[b] = mine[len(mine) // 2]
        line += f"  {medians[b]:12.1f}  {mine[-1]:9.1f}"
    if len(builds) > 1:
        line += f"  {medians['this'] / medians['other']:12.2f}×"
        if hits["this"][0] != hits["other"][0]:
            line += f"  (other found {hits['other'][0]})"
    print(line)
if len(builds) > 1:
    print(f"p99 this ÷ other: {p99['this'] / p99['other']:.2f}×")
if p99["this"] > budget:
    sys.exit(f"search p99 {p99['this']:.1f} ms is over the {budget:g} ms budget")
print(f"search p99 within the {budget:g} ms budget")
