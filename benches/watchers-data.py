#!/usr/bin/env python3
"""Watchers for benches/side-by-side.sh (its PREPARE hook): 50 people who watch
every document, so that on the new side each save bench makes is told to 50
people (the revision trigger queues it, the notifier writes 50 notices), while
the old side, which has no watching, carries the same people and rights.

Usage: benches/watchers-data.py DB SIDE      (SIDE: old or new)

DB is a side's copy of a seeded database, already migrated by that side's
binary and with `bench` added (side-by-side.sh does both before PREPARE).

Both sides: users watcher01..watcher50 (not admins, bench's password hash),
and whatever lets them read the documents, since a watcher who may not read a
document is told nothing (which would leave the benchmark measuring nothing):
  - a document in a space: each watcher becomes a member of it with role 1
    (read), unless already a member;
  - a document in its owner's personal space (space_id NULL, an owner): it is
    shared with each watcher to read (document_shares, can_edit 0);
  - a document without an owner: every signed-in person may already edit it.
new only (it has document_watches): every watcher watches every live document.

Then it checks, by the access rules (db/documents/access.rs), that every
watcher reads the documents bench saves (the last ones by seq), and prints
what it made.
"""
import sqlite3
import sys
import time

WATCHERS = 50


def main():
    if len(sys.argv) != 3 or sys.argv[2] not in ("old", "new"):
        sys.exit("usage: watchers-data.py DB old|new")
    db, side = sys.argv[1], sys.argv[2]
    con = sqlite3.connect(db)
    con.execute("PRAGMA foreign_keys = ON")
    now = int(time.time() * 1000)
    row = con.execute("SELECT password_hash FROM users WHERE username = 'bench'").fetchone()
    hash_ = row[0] if row else "not-a-real-hash"
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    names = [f"watcher{i:02}" for i in range(1, WATCHERS + 1)]

    with con:
        # The same 50 people on both sides.
        con.executemany(
            "INSERT INTO users (username, password_hash, is_admin, created_at) VALUES (?, ?, 0, ?)",
            [(n, hash_, now) for n in names])
        marks = ",".join("?" * len(names))
        people = [r[0] for r in con.execute(
            f"SELECT id FROM users WHERE username IN ({marks}) ORDER BY id", names)]

        # Reading rights: membership of the documents' spaces...
        spaces = [r[0] for r in con.execute(
            "SELECT DISTINCT space_id FROM documents WHERE deleted_at IS NULL AND space_id IS NOT NULL")]
        con.executemany(
            "INSERT INTO space_members (space_id, user_id, role) VALUES (?, ?, 1)"
            " ON CONFLICT DO NOTHING",
            [(s, u) for s in spaces for u in people])
        # ...and a share of each document in an owner's personal space.
        personal = [r[0] for r in con.execute(
            "SELECT seq FROM documents WHERE deleted_at IS NULL"
            " AND space_id IS NULL AND owner_id IS NOT NULL")]
        con.executemany(
            "INSERT INTO document_shares (doc_seq, user_id, can_edit) VALUES (?, ?, 0)"
            " ON CONFLICT DO NOTHING",
            [(d, u) for d in personal for u in people])

        # The new side: everyone watches every live document.
        if "document_watches" in tables:
            con.execute(
                f"""INSERT INTO document_watches (doc_seq, user_id, watching, created_at)
                    SELECT d.seq, u.id, 1, ? FROM documents d, users u
                    WHERE d.deleted_at IS NULL AND u.id IN ({marks})
                    ON CONFLICT (doc_seq, user_id) DO UPDATE SET watching = 1""",
                [now] + people)
    con.execute("ANALYZE")
    con.commit()

    # Check: each watcher reads the last 50 live documents (those bench saves),
    # by the rules of ACCESS_SQL (owner, no owner, visibility, share, space).
    last = [r[0] for r in con.execute(
        "SELECT seq FROM documents WHERE deleted_at IS NULL ORDER BY seq DESC LIMIT 50")]
    unreadable = 0
    for u in people:
        for d in last:
            ok = con.execute(
                """SELECT 1 FROM documents d WHERE d.seq = :d AND (
                     d.owner_id IS NULL OR d.owner_id = :u OR d.visibility <> 'private'
                     OR EXISTS (SELECT 1 FROM document_shares s WHERE s.doc_seq = d.seq AND s.user_id = :u)
                     OR d.space_id IN (SELECT m.space_id FROM space_members m WHERE m.user_id = :u
                       UNION ALL SELECT m.space_id FROM group_members gm
                         JOIN space_members m ON m.group_id = gm.group_id WHERE gm.user_id = :u))""",
                {"d": d, "u": u}).fetchone()
            unreadable += ok is None
    if unreadable:
        sys.exit(f"{side}: {unreadable} (watcher, document) pairs cannot be read")
    watches = (con.execute("SELECT count(*) FROM document_watches WHERE watching = 1").fetchone()[0]
               if "document_watches" in tables else 0)
    print(f"{side}: {len(people)} watchers, {len(spaces)} spaces joined, "
          f"{len(personal)} personal documents shared, {watches} watches; "
          f"all read the last {len(last)} documents")


if __name__ == "__main__":
    main()
