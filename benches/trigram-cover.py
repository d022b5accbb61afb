#!/usr/bin/env python3
"""Checks a quire database's trigram index against its documents' texts.

For each SUBSTRING (letters, digits and single spaces, as quire looks for
inside words), every document whose title or text holds it (case folded)
must be a candidate of the trigram index asked for the trigrams inside each of
its words, as quire asks (documents::search_fts::trigram_expr). Prints, for
each, how many documents hold it, how many candidates the index gave and how
many holders it missed; exits 1 if it missed any.

Needs an SQLite with FTS5's contentless_delete (3.43 or later): Python's own
where it is that new, else `pip install pysqlite3-binary`.
Usage: benches/trigram-cover.py DB SUBSTRING...
"""
import sys

try:
    import pysqlite3 as sqlite3
except ImportError:
    import sqlite3


def main():
    db = sqlite3.connect(sys.argv[1])
    missed_any = False
    for s in sys.argv[2:]:
        grams = sorted({w[i:i + 3] for w in s.lower().split(" ") for i in range(len(w) - 2)})
        expr = " AND ".join(f'"{g}"' for g in grams)
        candidates = {r[0] for r in db.execute(
            "SELECT rowid FROM documents_trigrams WHERE documents_trigrams MATCH ?", (expr,))}
        holders = {r[0] for r in db.execute(
            "SELECT seq FROM documents WHERE deleted_at IS NULL"
            " AND (instr(lower(body), ?) OR instr(lower(title), ?))", (s.lower(), s.lower()))}
        missed = holders - candidates
        missed_any |= bool(missed)
        print(f"{s!r}: {len(holders)} hold it, {len(candidates)} candidates, {len(missed)} missed")
    sys.exit(1 if missed_any else 0)


if __name__ == "__main__":
    main()
