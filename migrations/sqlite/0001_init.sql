-- Grundy's first schema (SQLite). Times are Unix milliseconds; the same tables as postgres/0001.

CREATE TABLE users (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    name          TEXT    NOT NULL UNIQUE,
    role          TEXT    NOT NULL CHECK (role IN ('admin', 'teacher', 'student')),
    password_hash TEXT,
    created_at    INTEGER NOT NULL
);

-- Only a SHA-256 digest of each token is kept; the token itself is shown once.
CREATE TABLE api_tokens (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    digest       BLOB    NOT NULL UNIQUE,
    label        TEXT    NOT NULL,
    created_at   INTEGER NOT NULL,
    last_used_at INTEGER
);

-- Cookie sessions: the id is a digest of the cookie's secret, never the secret.
CREATE TABLE sessions (
    id         TEXT    PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    data       TEXT    NOT NULL,
    expires_at INTEGER NOT NULL
);
CREATE INDEX sessions_expiry ON sessions (expires_at);

-- Every version of every problem ever judged: a change to tests or reference is a new version.
CREATE TABLE problem_versions (
    slug       TEXT    NOT NULL,
    version    INTEGER NOT NULL,
    digest     TEXT    NOT NULL,
    origin     TEXT    NOT NULL CHECK (origin IN ('builtin', 'package', 'variant')),
    created_at INTEGER NOT NULL,
    PRIMARY KEY (slug, version)
);

-- Submissions are also the judging queue: status, lease and worker live on the row.
CREATE TABLE submissions (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id         INTEGER NOT NULL REFERENCES users (id),
    problem         TEXT    NOT NULL,
    kind            TEXT    NOT NULL CHECK (kind IN ('program', 'answers')),
    language        TEXT,
    source          BLOB    NOT NULL,
    status          TEXT    NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'judging', 'done')),
    priority        INTEGER NOT NULL DEFAULT 0,
    worker          TEXT,
    lease_until     INTEGER,
    attempts        INTEGER NOT NULL DEFAULT 0,
    problem_version INTEGER,
    verdict         TEXT,
    score           INTEGER,
    max_score       INTEGER,
    compile_message TEXT,
    created_at      INTEGER NOT NULL,
    judged_at       INTEGER
);
CREATE INDEX submissions_queue ON submissions (status, priority DESC, id);
CREATE INDEX submissions_user ON submissions (user_id, id);
CREATE INDEX submissions_problem ON submissions (problem, id);

CREATE TABLE test_results (
    submission_id INTEGER NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
    position      INTEGER NOT NULL,
    grp           TEXT    NOT NULL,
    idx           INTEGER NOT NULL,
    verdict       TEXT    NOT NULL,
    cpu_ms        INTEGER NOT NULL,
    wall_ms       INTEGER NOT NULL,
    memory_kib    INTEGER NOT NULL,
    message       TEXT,
    PRIMARY KEY (submission_id, position)
);
