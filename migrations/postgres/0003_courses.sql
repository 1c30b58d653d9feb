-- Courses and homework (PostgreSQL): the same tables as sqlite/0003. Times are Unix milliseconds.

-- A teacher's class. Students join with `join_code` or are enrolled by a teacher.
CREATE TABLE courses (
    id         BIGSERIAL PRIMARY KEY,
    title      TEXT    NOT NULL,
    join_code  TEXT    NOT NULL UNIQUE,
    created_at BIGINT  NOT NULL
);

-- Who is in a course and as what; a course has one or more teachers (co-teachers).
CREATE TABLE course_members (
    course_id BIGINT  NOT NULL REFERENCES courses (id) ON DELETE CASCADE,
    user_id   BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role      TEXT    NOT NULL CHECK (role IN ('teacher', 'student')),
    joined_at BIGINT  NOT NULL,
    PRIMARY KEY (course_id, user_id)
);
CREATE INDEX course_members_user ON course_members (user_id);

-- Homework: problems open from `opens_at`; after `due_at` each started `penalty_step_ms` late
-- costs `penalty_percent` of the score; nothing is accepted after `closes_at`.
CREATE TABLE assignments (
    id              BIGSERIAL PRIMARY KEY,
    course_id       BIGINT  NOT NULL REFERENCES courses (id) ON DELETE CASCADE,
    title           TEXT    NOT NULL,
    opens_at        BIGINT  NOT NULL,
    due_at          BIGINT  NOT NULL,
    closes_at       BIGINT  NOT NULL,
    penalty_percent BIGINT  NOT NULL CHECK (penalty_percent BETWEEN 0 AND 100),
    penalty_step_ms BIGINT  NOT NULL CHECK (penalty_step_ms > 0),
    scoring         TEXT    NOT NULL CHECK (scoring IN ('best', 'last')),
    feedback        TEXT    NOT NULL CHECK (feedback IN ('verdict', 'tests', 'inputs')),
    personal_tests  BOOLEAN NOT NULL,
    created_at      BIGINT  NOT NULL,
    CHECK (opens_at <= due_at AND due_at <= closes_at)
);
CREATE INDEX assignments_course ON assignments (course_id);

CREATE TABLE assignment_problems (
    assignment_id BIGINT  NOT NULL REFERENCES assignments (id) ON DELETE CASCADE,
    position      BIGINT  NOT NULL,
    problem       TEXT    NOT NULL,
    PRIMARY KEY (assignment_id, problem)
);

-- A student's own due time; the hard deadline moves with it.
CREATE TABLE extensions (
    assignment_id BIGINT  NOT NULL REFERENCES assignments (id) ON DELETE CASCADE,
    user_id       BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    due_at        BIGINT  NOT NULL,
    PRIMARY KEY (assignment_id, user_id)
);

-- Which draw of a student's personal instances is current: a teacher's "regenerate" bumps the
-- generation (part of the keyed seed); a pinned draw no longer changes. No row: generation 0.
CREATE TABLE instance_draws (
    assignment_id BIGINT  NOT NULL REFERENCES assignments (id) ON DELETE CASCADE,
    user_id       BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    problem       TEXT    NOT NULL,
    generation    BIGINT  NOT NULL,
    pinned        BOOLEAN NOT NULL,
    PRIMARY KEY (assignment_id, user_id, problem)
);

-- A submission made for an assignment, and the personal seed its instances were drawn from (so a
-- rejudge uses the inputs the student saw, whatever the current draw).
ALTER TABLE submissions ADD COLUMN assignment_id BIGINT REFERENCES assignments (id);
ALTER TABLE submissions ADD COLUMN instance_seed BIGINT;
CREATE INDEX submissions_assignment ON submissions (assignment_id, user_id, problem);

-- Secrets the service makes once and keeps (the key of personal instance seeds).
CREATE TABLE settings (
    name  TEXT PRIMARY KEY,
    value BYTEA NOT NULL
);
