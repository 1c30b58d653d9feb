-- A test's message apart from its quotes (PostgreSQL): the same as sqlite/0018. `message` names places
-- only (line, game, move) and is read by whoever sees the test's row; `detail` says the same with
-- the test's data quoted (the expected answer, what was read, a winning move), kept only where the
-- judge keeps the data (a sample, the student's own instance) and shown only where the data is.
ALTER TABLE test_results ADD COLUMN detail TEXT;
-- Before, the one message of a test whose data was kept (an answered instance, a sample, a personal
-- test) quoted it, and the `tests` feedback level showed it. Such a wrong answer's message, and any
-- other that quotes, becomes its detail; the row then carries no message, since the place alone
-- cannot be cut out of every checker's and referee's wording.
UPDATE test_results SET detail = message, message = NULL
WHERE verdict = 'wrong_answer' AND message IS NOT NULL
  AND (shown_input IS NOT NULL OR transcript IS NOT NULL OR message LIKE '%"%'
       OR submission_id IN (SELECT id FROM submissions WHERE kind = 'answers'));
