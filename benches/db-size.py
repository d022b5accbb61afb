#!/usr/bin/env python3
"""Where a quire SQLite database's bytes go: each table and index (FTS5 tables
with their shadow tables), against the Markdown it holds.

Usage: benches/db-size.py PATH/TO/quire.db
"""
import sqlite3
import sys
from collections import defaultdict

path = sys.argv[1]
db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
page_size = db.execute("PRAGMA page_size").fetchone()[0]
pages = db.execute("PRAGMA page_count").fetchone()[0]
text = db.execute("SELECT coalesce(sum(size), 0), count(*) FROM documents").fetchone()
by_name = defaultdict(int)
for name, size in db.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name"):
    owner = name
    for fts in ("documents_words", "documents_trigrams"):
        if name.startswith(fts + "_"):
            owner = fts
    by_name[owner] += size
markdown = max(text[0], 1)
print(f"{text[1]:,} documents, {text[0] / 1e6:,.1f} MB of Markdown; file {pages * page_size / 1e6:,.1f} MB "
      f"({pages * page_size / markdown:.2f}x the Markdown), page size {page_size}")
print(f"{'table or index':<36} {'MB':>10} {'x Markdown':>11}")
for name, size in sorted(by_name.items(), key=lambda kv: -kv[1]):
    if size >= 1e5:
        print(f"{name:<36} {size / 1e6:>10,.1f} {size / markdown:>11.2f}")
