-- Names that look alike are one name (postgres; the same as the other database's 0020). "аdmin" with a
-- Cyrillic "а" reads as "admin": the skeleton of Unicode's confusable detection (UTS #39) of the
-- folded name is unique among accounts. The store fills it when it opens the database
-- (`Store::fold_names`), since SQL cannot compute it. Accounts made before this rule whose names
-- look alike keep them: the oldest holds the skeleton, the later ones none, and no new account
-- can take a name that looks like either.
ALTER TABLE users ADD COLUMN name_skeleton TEXT;
CREATE UNIQUE INDEX users_name_skeleton ON users (name_skeleton);
