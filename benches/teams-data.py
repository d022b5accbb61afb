#!/usr/bin/env python3
"""Team data for benches/side-by-side.sh (its PREPARE hook): the same people and
owners on both sides, team spaces and groups on the new one, and on the old one
as many documents open to `bench` by visibility instead.

Usage: benches/teams-data.py DB SIDE      (SIDE: old or new)

DB is a copy of a database seeded with `quire seed` (e.g. --count 10000
--size 8192), migrated by that side's binary, on which `quire user add bench`
has already run (side-by-side.sh does both before PREPARE). Every choice comes
from one seeded generator and is made the same way for both sides, so the
owners, the shares and which documents bench reads are the same; only how
bench comes to read them differs.

Both sides: 200 people p001..p200 (bench's password hash), each document owned
by one of them at random, 1 in 20 by bench; ~500 named shares (document_shares).

new: 20 groups of 10 people (bench is also in two of them); 50 spaces: the
migration's `Team` and `Space 02`..`Space 50`, every document in one of them at
random. Each space has 2 groups (role 2) and 8 people (roles 1-3 mixed) as
members. bench is a direct member of 5 spaces (Team among them: the migration's
and `user add`'s memberships of Team are replaced, so Team is like the others)
and its two groups are members of 2 further spaces each: bench reads 9 of the
50 spaces. Every document stays 'private'. ~100 group shares
(document_group_shares).

old: no spaces; the documents that on the new side are in one of bench's 9
spaces are 'read' (every signed-in person reads them), all others 'private'.

Prints how many live documents bench reads on each side (SQL mirroring the
access rules of that side), and writes their ids to DB.pages.
"""
import random
import sqlite3
import sys
import time

PEOPLE = 200
GROUPS = 20
GROUP_SIZE = 10
SPACES = 50
DIRECT_PER_SPACE = 8
GROUPS_PER_SPACE = 2
BENCH_DIRECT = 5
BENCH_GROUP_SPACES = 2  # per group of bench's, beyond its direct spaces
NAMED_SHARES = 500
GROUP_SHARES = 100
OWN_ONE_IN = 20


def plan(doc_seqs):
    """Every random choice, the same for both sides."""
    rng = random.Random(20260509)
    owners = []  # person index 0..199, or None for bench
    for _ in doc_seqs:
        owners.append(None if rng.randrange(OWN_ONE_IN) == 0 else rng.randrange(PEOPLE))
    doc_space = [rng.randrange(SPACES) for _ in doc_seqs]  # space index 0..49 (0 = Team)

    people = list(range(PEOPLE))
    rng.shuffle(people)
    groups = [people[g * GROUP_SIZE:(g + 1) * GROUP_SIZE] for g in range(GROUPS)]
    bench_groups = rng.sample(range(GROUPS), 2)

    order = list(range(1, SPACES))
    rng.shuffle(order)
    bench_direct = [0] + order[:BENCH_DIRECT - 1]  # Team and four others
    extra = order[BENCH_DIRECT - 1:BENCH_DIRECT - 1 + 2 * BENCH_GROUP_SPACES]
    # Each of bench's groups is in 2 spaces bench is not directly in.
    space_groups = {s: [] for s in range(SPACES)}
    for i, s in enumerate(extra):
        space_groups[s].append(bench_groups[i // BENCH_GROUP_SPACES])
    others = [g for g in range(GROUPS) if g not in bench_groups]
    for s in range(SPACES):
        while len(space_groups[s]) < GROUPS_PER_SPACE:
            g = rng.choice(others)
            if g not in space_groups[s]:
                space_groups[s].append(g)
    # Direct members: 8 per space, roles 1-3; bench is one of the 8 in its 5.
    space_people = {}
    for s in range(SPACES):
        n = DIRECT_PER_SPACE - (1 if s in bench_direct else 0)
        space_people[s] = [(p, rng.choice((1, 2, 2, 3))) for p in rng.sample(range(PEOPLE), n)]
        if s in bench_direct:
            space_people[s].append((None, (1, 2, 3, 2, 1)[bench_direct.index(s)]))
    bench_spaces = set(bench_direct) | set(extra)

    named = {}
    n = len(doc_seqs)
    while len(named) < NAMED_SHARES:
        d = rng.randrange(n)
        who = rng.randrange(PEOPLE + 1)  # PEOPLE: bench
        who = None if who == PEOPLE else who
        if who == owners[d]:
            continue
        named[(d, who)] = rng.randrange(3) == 0
    grouped = {}
    while len(grouped) < GROUP_SHARES:
        grouped[(rng.randrange(n), rng.randrange(GROUPS))] = rng.randrange(3) == 0
    return dict(owners=owners, doc_space=doc_space, groups=groups, bench_groups=bench_groups,
                space_groups=space_groups, space_people=space_people,
                bench_spaces=bench_spaces, named=named, grouped=grouped)


def main():
    if len(sys.argv) != 3 or sys.argv[2] not in ("old", "new"):
        sys.exit("usage: teams-data.py DB old|new")
    db, side = sys.argv[1], sys.argv[2]
    con = sqlite3.connect(db)
    con.execute("PRAGMA foreign_keys = ON")
    now = int(time.time() * 1000)
    row = con.execute("SELECT id, password_hash FROM users WHERE username = 'bench'").fetchone()
    if row is None:
        sys.exit("no user bench: run `quire user add bench` first")
    bench, hash_ = row
    seqs = [r[0] for r in con.execute("SELECT seq FROM documents ORDER BY seq")]
    p = plan(seqs)

    with con:
        con.executemany(
            "INSERT INTO users (username, password_hash, is_admin, created_at) VALUES (?, ?, 0, ?)",
            [(f"p{i + 1:03}", hash_, now) for i in range(PEOPLE)])
        uid = dict(con.execute("SELECT username, id FROM users"))
        person = lambda i: bench if i is None else uid[f"p{i + 1:03}"]
        con.executemany("UPDATE documents SET owner_id = ? WHERE seq = ?",
                        [(person(o), s) for o, s in zip(p["owners"], seqs)])
        con.execute("DELETE FROM document_shares")
        con.executemany(
            "INSERT INTO document_shares (doc_seq, user_id, can_edit) VALUES (?, ?, ?)",
            [(seqs[d], person(w), int(e)) for (d, w), e in p["named"].items()])

        if side == "old":
            con.execute("UPDATE documents SET visibility = 'private'")
            con.executemany("UPDATE documents SET visibility = 'read' WHERE seq = ?",
                            [(s,) for s, sp in zip(seqs, p["doc_space"]) if sp in p["bench_spaces"]])
        else:
            con.execute("UPDATE documents SET visibility = 'private'")
            gid = []
            for g, members in enumerate(p["groups"]):
                gid.append(con.execute(
                    "INSERT INTO user_groups (name, created_at) VALUES (?, ?) RETURNING id",
                    (f"Group {g + 1:02}", now)).fetchone()[0])
                people = [person(m) for m in members]
                if g in p["bench_groups"]:
                    people.append(bench)
                con.executemany("INSERT INTO group_members (group_id, user_id) VALUES (?, ?)",
                                [(gid[g], u) for u in people])
            team = con.execute("SELECT id FROM spaces WHERE name = 'Team'").fetchone()[0]
            con.execute("DELETE FROM space_members WHERE space_id = ?", (team,))
            sid = [team]
            for s in range(1, SPACES):
                sid.append(con.execute(
                    "INSERT INTO spaces (name, default_role, created_at) VALUES (?, NULL, ?) RETURNING id",
                    (f"Space {s + 1:02}", now)).fetchone()[0])
            for s in range(SPACES):
                con.executemany(
                    "INSERT INTO space_members (space_id, group_id, role) VALUES (?, ?, 2)",
                    [(sid[s], gid[g]) for g in p["space_groups"][s]])
                con.executemany(
                    "INSERT INTO space_members (space_id, user_id, role) VALUES (?, ?, ?)",
                    [(sid[s], person(m), r) for m, r in p["space_people"][s]])
            con.executemany("UPDATE documents SET space_id = ? WHERE seq = ?",
                            [(sid[sp], s) for s, sp in zip(seqs, p["doc_space"])])
            con.execute("DELETE FROM document_group_shares")
            con.executemany(
                "INSERT INTO document_group_shares (doc_seq, group_id, can_edit) VALUES (?, ?, ?)",
                [(seqs[d], gid[g], int(e)) for (d, g), e in p["grouped"].items()])
    con.execute("ANALYZE")
    con.commit()

    # What bench reads, by the rules of each side (access.rs `visible`).
    base = """SELECT count(*) FROM documents AS d WHERE d.deleted_at IS NULL AND (
        d.owner_id IS NULL OR d.owner_id = :v OR d.visibility <> 'private'
        OR EXISTS (SELECT 1 FROM document_shares s WHERE s.doc_seq = d.seq AND s.user_id = :v)"""
    if side == "new":
        base += """
        OR d.space_id IN (SELECT m.space_id FROM space_members m WHERE m.user_id = :v
            OR m.group_id IN (SELECT group_id FROM group_members WHERE user_id = :v))
        OR EXISTS (SELECT 1 FROM document_group_shares gs WHERE gs.doc_seq = d.seq
            AND gs.group_id IN (SELECT group_id FROM group_members WHERE user_id = :v))"""
    reads = con.execute(base + ")", {"v": bench}).fetchone()[0]
    # For side-by-side.sh: the page kind loads only documents bench reads.
    ids = con.execute(base.replace("count(*)", "d.id", 1) + ") ORDER BY d.seq", {"v": bench})
    with open(db + ".pages", "w") as f:
        f.writelines(f"{r[0]}\n" for r in ids)
    total = con.execute("SELECT count(*) FROM documents WHERE deleted_at IS NULL").fetchone()[0]
    owns = con.execute("SELECT count(*) FROM documents WHERE deleted_at IS NULL AND owner_id = ?",
                       (bench,)).fetchone()[0]
    print(f"{side}: bench (id {bench}) reads {reads} of {total} documents "
          f"(owns {owns}; {len(p['bench_spaces'])} of {SPACES} spaces' documents)")


if __name__ == "__main__":
    main()
