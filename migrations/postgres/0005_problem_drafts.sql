-- Drafts and quotas (PostgreSQL): the same as sqlite/0005. A custom problem is a draft, seen only
-- by its owner, their co-teachers, admins and (once an assignment listing it opens) that course's
-- students, until `published_at` is set. `unpacked_bytes` is what a package unpacks to; with the
-- content's stored size it counts against the owner's quota.
ALTER TABLE custom_problems ADD COLUMN published_at BIGINT;
ALTER TABLE custom_problems ADD COLUMN unpacked_bytes BIGINT NOT NULL DEFAULT 0;

-- Problems stored before drafts existed were public from their upload: they stay so.
UPDATE custom_problems SET published_at = created_at;
-- Until the service unpacks them again at its next start (and records what they unpack to),
-- their stored size stands in.
UPDATE custom_problems SET unpacked_bytes = length(content) WHERE origin = 'package';

-- The quota adds up an owner's problems.
CREATE INDEX custom_problems_owner ON custom_problems (owner_id);
