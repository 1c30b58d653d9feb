-- Problems created through the service: teachers' packages and variants of built-in games.
-- The content is kept whole (the zip, or the variant's files) and loaded like a built-in.
CREATE TABLE custom_problems (
    slug       TEXT    PRIMARY KEY,
    origin     TEXT    NOT NULL CHECK (origin IN ('package', 'variant')),
    owner_id   BIGINT  NOT NULL REFERENCES users (id),
    version    BIGINT  NOT NULL,
    content    BYTEA   NOT NULL,
    created_at BIGINT  NOT NULL
);

-- The per-user submission rate limit counts a user's recent submissions.
CREATE INDEX submissions_user_time ON submissions (user_id, created_at);
