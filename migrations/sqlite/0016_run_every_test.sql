-- An assignment may ask for every test of a program to run (SQLite): the same as postgres/0016.
-- Otherwise a subtask stops at its first failed test and the rest are recorded as skipped, which
-- changes no verdict and no score.
ALTER TABLE assignments ADD COLUMN run_every_test BOOLEAN NOT NULL DEFAULT FALSE;
