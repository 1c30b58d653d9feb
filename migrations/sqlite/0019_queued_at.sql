-- When a submission joined the queue (SQLite): the same as postgres/0019. Its creation for a new
-- submission, the moment of the rejudge for one queued again, so the queue's oldest age and the
-- time to a verdict count the wait that is happening, not one that ended long ago.
ALTER TABLE submissions ADD COLUMN queued_at INTEGER NOT NULL DEFAULT 0;
UPDATE submissions SET queued_at = created_at;
