-- Consent in courses (PostgreSQL): the same as sqlite/0011. An account enters a course only by its
-- owner's act: making the course, joining with its code, accepting an invitation, or being made by
-- the course's own import.

-- How each membership began: `created` (the member made the course), `join_code`, `invitation`
-- (the member accepted one), `new_account` (the course's import made the account), or `course`:
-- a teacher of the course added an existing account before consent was asked. Memberships made
-- before this rule are `course`, but for a course's maker (`created`) and accounts the course's
-- import evidently made (`new_account`, below). An admin reviews the `course` ones
-- (`grundy admin memberships`, the course pages); they share no teacher's drafts or hidden tests.
ALTER TABLE course_members ADD COLUMN origin TEXT NOT NULL DEFAULT 'course'
    CHECK (origin IN ('created', 'join_code', 'invitation', 'new_account', 'course'));
-- A course and its first teacher were written in one transaction with one time.
UPDATE course_members SET origin = 'created'
 WHERE role = 'teacher'
   AND joined_at = (SELECT created_at FROM courses WHERE courses.id = course_members.course_id);

-- The course whose import made the account: its teachers manage it (password, name) until it
-- joins a course of another teacher. NULL: made by the person, an admin, or the command line.
ALTER TABLE users ADD COLUMN created_by_course BIGINT REFERENCES courses (id) ON DELETE SET NULL;
-- An import made the account and added it in the same request, moments apart; nobody registers
-- and then types a join code within five seconds.
UPDATE users SET created_by_course = (
    SELECT m.course_id FROM course_members m
     WHERE m.user_id = users.id AND m.role = 'student' AND m.origin = 'course'
       AND m.joined_at >= users.created_at AND m.joined_at - users.created_at <= 5000
     ORDER BY m.joined_at, m.course_id LIMIT 1)
 WHERE role = 'student';
UPDATE course_members SET origin = 'new_account'
 WHERE role = 'student'
   AND course_id = (SELECT created_by_course FROM users WHERE users.id = course_members.user_id);

-- A teacher's invitation into a course, until its person accepts (a membership) or declines
-- (kept, so the teacher sees it and cannot ask again; they may withdraw it).
CREATE TABLE course_invitations (
    id          BIGSERIAL PRIMARY KEY,
    course_id   BIGINT  NOT NULL REFERENCES courses (id) ON DELETE CASCADE,
    user_id     BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role        TEXT    NOT NULL CHECK (role IN ('teacher', 'student')),
    invited_by  BIGINT  REFERENCES users (id) ON DELETE SET NULL,
    invited_at  BIGINT  NOT NULL,
    declined_at BIGINT,
    UNIQUE (course_id, user_id)
);
CREATE INDEX course_invitations_user ON course_invitations (user_id);
