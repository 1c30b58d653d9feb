-- What a failed test shows of its data (SQLite): the same as postgres/0006. The judge keeps, for
-- a failed test whose data the student may see (a public sample, their own instance), the
-- start of its input, the expected answer and the program's output, a few KiB each. Hidden
-- tests leave them NULL, and so do the results of earlier judgings.
ALTER TABLE test_results ADD COLUMN shown_input TEXT;
ALTER TABLE test_results ADD COLUMN shown_expected TEXT;
ALTER TABLE test_results ADD COLUMN shown_output TEXT;
