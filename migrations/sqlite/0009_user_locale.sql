-- The interface language a person chose for their account (SQLite): the same as postgres/0009.
-- NULL follows the language switch's cookie, else the browser's Accept-Language.
ALTER TABLE users ADD COLUMN locale TEXT;
