"""Keep a seeded random sample of N pending mutants of one module; mark the others SKIPPED.

python sample_pending.py SESSION.sqlite MODULE_PATH N [SEED]
"""

import random
import sqlite3
import sys

session, module, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
seed = int(sys.argv[4]) if len(sys.argv) > 4 else 2026
db = sqlite3.connect(session)
pending = [
    r[0]
    for r in db.execute(
        "SELECT m.job_id FROM mutation_specs m LEFT JOIN work_results r ON r.job_id = m.job_id "
        "WHERE r.job_id IS NULL AND m.module_path = ? "
        "ORDER BY m.operator_name, m.occurrence",
        (module,),
    )
]
keep = set(random.Random(seed).sample(pending, min(n, len(pending))))
drop = [j for j in pending if j not in keep]
db.executemany(
    "INSERT INTO work_results (job_id, worker_outcome, output) VALUES (?, 'SKIPPED', ?)",
    [(j, f"Filtered: not in the random sample of {n} (seed {seed})") for j in drop],
)
db.commit()
print(f"{module}: kept {len(keep)} of {len(pending)} pending, skipped {len(drop)}")
