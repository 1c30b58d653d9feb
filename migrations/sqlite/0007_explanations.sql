-- Explained wrong answers (SQLite: the same as postgres/0007).
-- An explanation is found after the verdict is stored, and belongs to that verdict: `judged_at`
-- is the submission's own when it was stored, so a rejudge (a new verdict, a new time) makes it
-- stale for readers and refuses one that arrives late. The misconception's id, when one was
-- named, is kept apart for the teacher's table per assignment.
CREATE TABLE explanations (
    submission_id INTEGER PRIMARY KEY REFERENCES submissions (id) ON DELETE CASCADE,
    judged_at INTEGER NOT NULL,
    body TEXT NOT NULL,
    misconception TEXT,
    created_at INTEGER NOT NULL
);
