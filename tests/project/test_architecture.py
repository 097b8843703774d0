"""The layout's promises, checked on the import graph: the engine stands alone, nothing imports in a circle.

The same contracts run in CI as ``lint-imports`` (configured in
pyproject.toml); these tests make the README's test command check them too,
and add what a contract cannot say: that the engine and the notation import
nothing outside the standard library, whatever third-party package one might
add later.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).parents[2]


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("oriflamme", include_external_packages=True, cache_dir=None)


@pytest.mark.parametrize("package", ["oriflamme.engine", "oriflamme.notation"])
def test_the_engine_and_the_notation_import_only_the_standard_library(
    graph: grimp.ImportGraph, package: str
) -> None:
    outside = {
        (module, imported)
        for module in graph.find_descendants(package) | {package}
        for imported in graph.find_modules_directly_imported_by(module)
        if not imported.startswith("oriflamme") and imported.split(".")[0] not in sys.stdlib_module_names
    }
    assert outside == set()


def test_the_engine_imports_nothing_of_the_project_outside_itself(graph: grimp.ImportGraph) -> None:
    outside = {
        (module, imported)
        for module in graph.find_descendants("oriflamme.engine") | {"oriflamme.engine"}
        for imported in graph.find_modules_directly_imported_by(module)
        if imported.startswith("oriflamme") and not imported.startswith("oriflamme.engine")
    }
    assert outside == set()


def test_no_module_of_the_package_takes_part_in_an_import_cycle(graph: grimp.ImportGraph) -> None:
    """Type-only and function-level imports count too: a cycle is a cycle."""
    modules = {m for m in graph.modules if m.startswith("oriflamme")}
    in_cycles = set()
    for module in modules:
        for imported in graph.find_modules_directly_imported_by(module):
            if imported in modules and graph.chain_exists(imported, module):
                in_cycles.add((module, imported))
    assert in_cycles == set()


def test_importing_the_engine_loads_no_third_party_module() -> None:
    """At run time too: a fresh interpreter that imports the engine and plays a game loads only the stdlib."""
    code = (
        "import sys, random\n"
        "from oriflamme.engine import Game\n"
        "g = Game.new(players=3, deck='random', seed=1)\n"
        "r = random.Random(1)\n"
        "while not g.is_over(): g.apply(r.choice(g.legal_actions()))\n"
        "mods = {m.split('.')[0] for m in sys.modules}\n"
        "print(sorted(m for m in mods if m not in sys.stdlib_module_names and m != 'oriflamme'"
        " and not m.startswith('_')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_import_contracts_hold() -> None:
    """pyproject.toml's contracts: layers downwards, engine without third parties, bots without training libraries, no cycle."""
    code = "import sys; from importlinter.cli import lint_imports; sys.exit(lint_imports(no_cache=True))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "4 kept, 0 broken" in out.stdout
