-- A fair queue (SQLite): the same as postgres/0015. A claim records when judging started, so the
-- queue can tell how much judging each user has had lately and serve the one who had least.
ALTER TABLE submissions ADD COLUMN started_at INTEGER;
CREATE INDEX submissions_user_judged ON submissions (user_id, judged_at);
