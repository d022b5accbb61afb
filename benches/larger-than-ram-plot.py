"""Mean and p99 read latency per document size, both engines, from results.csv
written by `storage-read report`. Usage: larger-than-ram-plot.py RESULTS.csv OUT.png"""

import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

rows = list(csv.DictReader(open(sys.argv[1])))
labels = [f"{int(r['size']) // 1024} KB" for r in rows]
x = range(len(rows))
fig, axes = plt.subplots(1, 2, figsize=(10, 4))
for ax, stat, title in ((axes[0], "mean", "mean"), (axes[1], "p99", "p99")):
    w = 0.38
    lite = [float(r[f"sqlite_{stat}_ms"]) for r in rows]
    pg = [float(r[f"pg_{stat}_ms"]) for r in rows]
    ax.bar([i - w / 2 for i in x], lite, w, label="quire on SQLite")
    ax.bar([i + w / 2 for i in x], pg, w, label="PostgreSQL (sqlx)")
    ax.set_xticks(list(x), labels)
    ax.set_ylabel("ms")
    ax.set_title(f"{title} read latency, random ids, data 3× the cgroup")
    ax.grid(axis="y", alpha=0.3)
    for i, (a, b) in enumerate(zip(lite, pg)):
        ax.annotate(f"{a:.2f}", (i - w / 2, a), ha="center", va="bottom", fontsize=7)
        ax.annotate(f"{b:.2f}", (i + w / 2, b), ha="center", va="bottom", fontsize=7)
    ax.legend()
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=110)
print(f"wrote {sys.argv[2]}")
