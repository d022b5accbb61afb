-- PostgreSQL twin of migrations/sqlite/0007_owners_for_ownerless.sql.
-- Documents without an owner (imported or seeded from the command line) gave every
-- signed-in user owner rights: share, publish, delete for good. They now belong to
-- the first admin. Every signed-in user could read and edit them, and still can
-- ('edit'); only the owner rights go. Without any admin they keep no owner, which
-- now grants reading and editing only.
UPDATE documents SET visibility = 'edit'
    WHERE owner_id IS NULL AND EXISTS (SELECT 1 FROM users WHERE is_admin = 1);
UPDATE documents SET owner_id = (SELECT min(id) FROM users WHERE is_admin = 1)
    WHERE owner_id IS NULL;
