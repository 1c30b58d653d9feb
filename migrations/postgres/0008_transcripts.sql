-- An interactive test's games move by move (PostgreSQL): the same as sqlite/0008. JSON kept
-- only where the contestant may see the test (a sample, their own instance), as the shown data
-- of 0006; hidden tests and tests of other problems leave it NULL.
ALTER TABLE test_results ADD COLUMN transcript TEXT;
