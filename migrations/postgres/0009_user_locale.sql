-- The interface language a person chose for their account (PostgreSQL): the same as sqlite/0009.
-- NULL follows the language switch's cookie, else the browser's Accept-Language.
ALTER TABLE users ADD COLUMN locale TEXT;
