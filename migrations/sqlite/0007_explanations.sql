-- Explained wrong answers (SQLite: the same as postgres/0007): found after the verdict is stored, for the attempt that judged it (a
-- rejudge's new attempt makes an older explanation stale: readers compare `attempt`). The
-- misconception's id, when one was named, is kept apart for the teacher's table per assignment.
CREATE TABLE explanations (
    submission_id INTEGER PRIMARY KEY REFERENCES submissions (id) ON DELETE CASCADE,
    attempt INTEGER NOT NULL,
    body TEXT NOT NULL,
    misconception TEXT,
    created_at INTEGER NOT NULL
);
