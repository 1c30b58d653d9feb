-- API tokens expire; those made before expiry existed get the default lifetime (90 days) from
-- their creation.
ALTER TABLE api_tokens ADD COLUMN expires_at INTEGER NOT NULL DEFAULT 0;
UPDATE api_tokens SET expires_at = created_at + 7776000000;

-- An account's role and its course memberships agree: a student's account teaches nothing.
-- Teachers demoted before this rule lose the courses they taught.
DELETE FROM course_members
 WHERE role = 'teacher' AND user_id IN (SELECT id FROM users WHERE role = 'student');
