-- Sample NumberReplacer: keep the +1 mutant of each number (even occurrence), skip the -1 one.
INSERT INTO work_results (job_id, worker_outcome, output)
SELECT job_id, 'SKIPPED', 'Filtered: NumberReplacer -1 offset (sampled: +1 only)'
FROM mutation_specs
WHERE operator_name = 'core/NumberReplacer' AND occurrence % 2 = 1
  AND job_id NOT IN (SELECT job_id FROM work_results);
