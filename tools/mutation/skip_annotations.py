"""Mark as skipped the pending mutants that lie inside a type annotation.

Every mutated module starts with ``from __future__ import annotations``, so an
annotation is never evaluated at run time: ``int | None`` -> ``int - None`` in a
signature is an equivalent mutant by construction. Usage:

    python skip_annotations.py SESSION.sqlite
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

from cosmic_ray.work_db import WorkDB, use_db
from cosmic_ray.work_item import WorkerOutcome, WorkResult


def _char_col(line: str, byte_col: int) -> int:
    return len(line.encode("utf-8")[:byte_col].decode("utf-8", errors="ignore"))


def annotation_spans(path: Path) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    tree = ast.parse(text)
    nodes: list[ast.AST] = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.returns is not None:
            nodes.append(node.returns)
        elif (isinstance(node, ast.arg) and node.annotation is not None) or isinstance(node, ast.AnnAssign):
            nodes.append(node.annotation)
    spans = []
    for n in nodes:
        start = (n.lineno, _char_col(lines[n.lineno - 1], n.col_offset))
        end = (n.end_lineno, _char_col(lines[n.end_lineno - 1], n.end_col_offset))
        spans.append((start, end))
    return spans


def main(session: str) -> None:
    cache: dict[Path, list] = {}
    skipped = 0
    with use_db(session, WorkDB.Mode.open) as db:
        for item in list(db.pending_work_items):
            for m in item.mutations:
                path = Path(m.module_path)
                spans = cache.setdefault(path, annotation_spans(path))
                s, e = tuple(m.start_pos), tuple(m.end_pos)
                if any(a <= s and e <= b for a, b in spans):
                    db.set_result(
                        item.job_id,
                        WorkResult(
                            output="Filtered: inside a type annotation", worker_outcome=WorkerOutcome.SKIPPED
                        ),
                    )
                    skipped += 1
                    break
    print(f"{session}: {skipped} mutants inside annotations skipped")


if __name__ == "__main__":
    main(sys.argv[1])
