-- Courses and homework (SQLite): the same tables as postgres/0003. Times are Unix milliseconds.

-- A teacher's class. Students join with `join_code` or are enrolled by a teacher.
CREATE TABLE courses (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    title      TEXT    NOT NULL,
    join_code  TEXT    NOT NULL UNIQUE,
    created_at INTEGER NOT NULL
);

-- Who is in a course and as what; a course has one or more teachers (co-teachers).
CREATE TABLE course_members (
    course_id INTEGER NOT NULL REFERENCES courses (id) ON DELETE CASCADE,
    user_id   INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role      TEXT    NOT NULL CHECK (role IN ('teacher', 'student')),
    joined_at INTEGER NOT NULL,
    PRIMARY KEY (course_id, user_id)
);
CREATE INDEX course_members_user ON course_members (user_id);

-- Homework: problems open from `opens_at`; after `due_at` each started `penalty_step_ms` late
-- costs `penalty_percent` of the score; nothing is accepted after `closes_at`.
CREATE TABLE assignments (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    course_id       INTEGER NOT NULL REFERENCES courses (id) ON DELETE CASCADE,
    title           TEXT    NOT NULL,
    opens_at        INTEGER NOT NULL,
    due_at          INTEGER NOT NULL,
    closes_at       INTEGER NOT NULL,
    penalty_percent INTEGER NOT NULL CHECK (penalty_percent BETWEEN 0 AND 100),
    penalty_step_ms INTEGER NOT NULL CHECK (penalty_step_ms > 0),
    scoring         TEXT    NOT NULL CHECK (scoring IN ('best', 'last')),
    feedback        TEXT    NOT NULL CHECK (feedback IN ('verdict', 'tests', 'inputs')),
    personal_tests  BOOLEAN NOT NULL,
    created_at      INTEGER NOT NULL,
    CHECK (opens_at <= due_at AND due_at <= closes_at)
);
CREATE INDEX assignments_course ON assignments (course_id);

CREATE TABLE assignment_problems (
    assignment_id INTEGER NOT NULL REFERENCES assignments (id) ON DELETE CASCADE,
    position      INTEGER NOT NULL,
    problem       TEXT    NOT NULL,
    PRIMARY KEY (assignment_id, problem)
);

-- A student's own due time; the hard deadline moves with it.
CREATE TABLE extensions (
    assignment_id INTEGER NOT NULL REFERENCES assignments (id) ON DELETE CASCADE,
    user_id       INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    due_at        INTEGER NOT NULL,
    PRIMARY KEY (assignment_id, user_id)
);

-- Which draw of a student's personal instances is current: a teacher's "regenerate" bumps the
-- generation (part of the keyed seed); a pinned draw no longer changes. No row: generation 0.
CREATE TABLE instance_draws (
    assignment_id INTEGER NOT NULL REFERENCES assignments (id) ON DELETE CASCADE,
    user_id       INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    problem       TEXT    NOT NULL,
    generation    INTEGER NOT NULL,
    pinned        BOOLEAN NOT NULL,
    PRIMARY KEY (assignment_id, user_id, problem)
);

-- A submission made for an assignment, and the personal seed its instances were drawn from (so a
-- rejudge uses the inputs the student saw, whatever the current draw).
ALTER TABLE submissions ADD COLUMN assignment_id INTEGER REFERENCES assignments (id);
ALTER TABLE submissions ADD COLUMN instance_seed INTEGER;
CREATE INDEX submissions_assignment ON submissions (assignment_id, user_id, problem);

-- Secrets the service makes once and keeps (the key of personal instance seeds).
CREATE TABLE settings (
    name  TEXT PRIMARY KEY,
    value BLOB NOT NULL
);
