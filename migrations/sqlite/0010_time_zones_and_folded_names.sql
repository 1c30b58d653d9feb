-- Each reader's time zone, and user names unique regardless of case (SQLite): the same as
-- postgres/0010.

-- An IANA name ("Asia/Ho_Chi_Minh"), checked by the service where it enters. NULL follows the
-- browser's zone (UTC for a browser without JavaScript).
ALTER TABLE users ADD COLUMN time_zone TEXT;

-- "Sam", "sam" and "SAM" are one name now. The key is the name in lower case as the service folds
-- it (Unicode, so "Đức" and "đức" too); SQL's lower() folds ASCII only on SQLite, so the store
-- folds every key again when it opens the database (`Store::fold_names`), by the same rule.
-- Accounts made before this rule whose names differ only in case: the oldest (lowest id) keeps its
-- name; each later one is renamed to its name, "~" and its id ("Sam~7"). No valid name has a "~",
-- so the new name is free; its owner logs in with it, and the "~" shows their teachers which
-- accounts to look at. Nothing else of theirs changes.
ALTER TABLE users ADD COLUMN name_key TEXT;
UPDATE users SET name = name || '~' || id
WHERE EXISTS (
    SELECT 1 FROM users AS older
    WHERE lower(older.name) = lower(users.name) AND older.id < users.id
);
UPDATE users SET name_key = lower(name);
CREATE UNIQUE INDEX users_folded_name ON users (name_key);
