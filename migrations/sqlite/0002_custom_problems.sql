-- Problems created through the service: teachers' packages and variants of built-in games.
-- The content is kept whole (the zip, or the variant's files) and loaded like a built-in.
CREATE TABLE custom_problems (
    slug       TEXT    PRIMARY KEY,
    origin     TEXT    NOT NULL CHECK (origin IN ('package', 'variant')),
    owner_id   INTEGER NOT NULL REFERENCES users (id),
    version    INTEGER NOT NULL,
    content    BLOB    NOT NULL,
    created_at INTEGER NOT NULL
);

-- The per-user submission rate limit counts a user's recent submissions.
CREATE INDEX submissions_user_time ON submissions (user_id, created_at);
