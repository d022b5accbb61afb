"""Plots for docs/PERFORMANCE.md from the CSV files the benches write to target/perf/.

    python3 -m venv target/perf/venv && target/perf/venv/bin/pip install matplotlib==3.10.*
    target/perf/venv/bin/python benches/plot.py

Each plot is drawn only when its CSV exists; the PNGs go to docs/perf/.
"""

import csv
import pathlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
DATA = ROOT / "target" / "perf"
OUT = ROOT / "docs" / "perf"


def rows(name):
    path = DATA / name
    if not path.exists():
        return None
    with path.open() as f:
        return list(csv.DictReader(f))


def save(fig, name):
    OUT.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    fig.savefig(OUT / name, dpi=110)
    plt.close(fig)
    print(f"wrote docs/perf/{name}")


def budget():
    data = rows("budget-full.csv") or rows("budget-quick.csv")
    if not data:
        return
    names = [r["route"] for r in data]
    fig, ax = plt.subplots(figsize=(8, 4))
    x = range(len(names))
    for offset, (key, label) in enumerate(
        [("p50_ms", "p50"), ("p90_ms", "p90"), ("p99_ms", "p99")]
    ):
        ax.bar([i + (offset - 1) * 0.27 for i in x], [float(r[key]) for r in data], 0.27, label=label)
    ax.axhline(50, color="crimson", linestyle="--", label="budget (50 ms)")
    ax.set_xticks(list(x), names, rotation=20)
    ax.set_yscale("log")
    ax.set_ylabel("latency, ms (log scale)")
    ax.set_title("Page budget: latency per route, signed in, closed-loop clients")
    ax.legend()
    save(fig, "budget.png")


def http():
    data = rows("http.csv")
    if not data:
        return
    conns = sorted({int(r["connections"]) for r in data})

    def pick(path, tool, key):
        out = []
        for c in conns:
            v = [r[key] for r in data if int(r["connections"]) == c and r["path"] == path and r["tool"] == tool]
            out.append(float(v[0]) if v and v[0] else 0.0)
        return out

    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    x = range(len(conns))
    left.bar([i - 0.2 for i in x], pick("/healthz", "wrk", "requests_per_s"), 0.4, label="/healthz (ceiling)")
    left.bar([i + 0.2 for i in x], pick("/d/{id}", "wrk", "requests_per_s"), 0.4, label="/d/{id}, signed in")
    left.set_xticks(list(x), [str(c) for c in conns])
    left.set_xlabel("connections")
    left.set_ylabel("requests/s (wrk)")
    left.legend()
    right.plot(conns, pick("/d/{id}", "loadgen", "p99_ms"), marker="o", label="/d/{id} p99")
    right.plot(conns, pick("/d/{id}", "loadgen", "p50_ms"), marker="o", label="/d/{id} p50")
    right.plot(conns, pick("/healthz", "loadgen", "p99_ms"), marker="o", label="/healthz p99")
    right.set_xscale("log")
    right.set_xlabel("connections")
    right.set_ylabel("ms (every request, HDR histogram)")
    right.legend()
    fig.suptitle("Document page vs the server's ceiling, loopback")
    save(fig, "http.png")


def writes():
    data = rows("writes.csv")
    if not data:
        return
    fig, ax = plt.subplots(figsize=(8, 3.5))
    names = [r["store"] for r in data]
    ax.barh(names, [float(r["cycles_per_s"]) for r in data], color=["#3b6", "#285", "#c84", "#e96"][: len(names)])
    ax.set_xlabel("document lifecycles per second (create, 10 updates, delete)")
    ax.set_title("Writes over HTTP, 100 clients")
    ax.invert_yaxis()
    save(fig, "writes.png")


def backends():
    data = rows("backends.csv")
    if not data:
        return
    routes = list(dict.fromkeys(r["route"] for r in data))
    fig, ax = plt.subplots(figsize=(9, 4))
    bars = [
        ("sqlite", "p50_ms", "SQLite p50", "#8bd"),
        ("sqlite", "p99_ms", "SQLite p99", "#27a"),
        ("postgres", "p50_ms", "PostgreSQL p50", "#eb8"),
        ("postgres", "p99_ms", "PostgreSQL p99", "#c62"),
    ]
    for offset, (backend, key, label, color) in enumerate(bars):
        values = {r["route"]: float(r[key]) for r in data if r["backend"] == backend}
        ax.bar(
            [i + (offset - 1.5) * 0.2 for i in range(len(routes))],
            [values.get(route, 0) for route in routes],
            0.2,
            label=label,
            color=color,
        )
    ax.set_xticks(list(range(len(routes))), routes, rotation=20)
    ax.set_yscale("log")
    ax.set_ylabel("latency, ms (log scale)")
    ax.set_title("The same server on SQLite and on PostgreSQL (4 clients; saves 1)")
    ax.legend(ncol=2)
    save(fig, "backends.png")


if __name__ == "__main__":
    budget()
    http()
    writes()
    backends()
