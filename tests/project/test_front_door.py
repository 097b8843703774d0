"""The stable front door: the names of ``oriflamme.__all__``, the examples of docs/python.md, old import paths."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import oriflamme
from oriflamme._compat import MOVED

# The Python example lives in docs/python.md, which the README links to.
GUIDE = (Path(__file__).parents[2] / "docs" / "python.md").read_text(encoding="utf-8")


def test_every_name_of_the_front_door_is_importable_and_documented() -> None:
    for name in oriflamme.__all__:
        obj = getattr(oriflamme, name)
        assert obj is not None
        doc = getattr(obj, "__doc__", None)
        if callable(obj) or isinstance(obj, type(oriflamme)):
            assert doc and doc.strip(), f"oriflamme.{name} has no docstring"


def test_the_front_door_offers_what_bots_and_clients_need() -> None:
    wanted = {
        "Game", "action_text", "parse_action", "build_position", "queue_string", "SeatView", "CardView",
        "sample_game", "redact", "savefile", "parse_recipe", "RuleOptions", "make_bot", "Bot",
    }  # fmt: skip
    assert wanted <= set(oriflamme.__all__)


def _python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", GUIDE, flags=re.S)


def test_the_python_guide_example_runs_unchanged_and_prints_what_it_says() -> None:
    (code,) = _python_blocks()
    expected = re.search(r"it prints\s*```text\n(.*?)```", GUIDE, flags=re.S)
    assert expected is not None
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    lines = out.stdout.strip().splitlines()
    wanted = expected.group(1).strip().splitlines()
    # The first line is the random game's scores and winners; the rest is printed as shown.
    assert lines[-len(wanted) :] == wanted
    assert out.stderr == ""


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_module_path_still_imports_and_warns(old: str) -> None:
    # The parent package first, so that only ``old``'s own warning is raised below: an old
    # package's parent may be an old path too (``oriflamme.boxes``), not yet imported here.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        importlib.import_module(old.rpartition(".")[0])
    for name in [m for m in sys.modules if m == old or m.startswith(old + ".")]:
        del sys.modules[name]
    with pytest.warns(DeprecationWarning, match=re.escape(old) + " is deprecated"):
        module = importlib.import_module(old)
    new = importlib.import_module(MOVED[old][0])
    public = [n for n in dir(new) if not n.startswith("_")]
    assert public
    for name in public:
        assert getattr(module, name) is getattr(new, name)


def test_old_paths_still_reach_what_moved_apart() -> None:
    """``oriflamme.events.redact`` (now in the view module) and ``oriflamme.game.SLOTS`` (now the state's)."""
    from oriflamme.engine.state import SLOTS
    from oriflamme.engine.view import redact

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        for name in ("oriflamme.events", "oriflamme.game"):
            sys.modules.pop(name, None)
        old_events = importlib.import_module("oriflamme.events")
        old_game = importlib.import_module("oriflamme.game")
    assert old_events.redact is redact
    assert old_game.SLOTS is SLOTS
    with pytest.raises(AttributeError, match="has no attribute 'nothing_here'"):
        _ = old_events.nothing_here


def test_the_new_paths_never_warn() -> None:
    code = (
        "import warnings; warnings.simplefilter('error')\n"
        "import oriflamme, oriflamme.engine.game, oriflamme.notation.savefile, oriflamme.tournament.runner\n"
        "from oriflamme import Game, build_position, savefile\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_star_import_from_an_old_path_binds_the_new_names() -> None:
    sys.modules.pop("oriflamme.cards", None)
    namespace: dict[str, object] = {}
    with pytest.warns(DeprecationWarning, match="oriflamme.cards is deprecated"):
        exec("from oriflamme.cards import *", namespace)
    from oriflamme.engine.cards import ARCHER, KINDS

    assert namespace["ARCHER"] == ARCHER and namespace["KINDS"] is KINDS


@pytest.mark.parametrize(
    ("module", "name", "new"),
    [
        ("oriflamme.bench", "run_bench", "oriflamme.bench.engine"),
        ("oriflamme.bench", "simulate", "oriflamme.bench.engine"),
        ("oriflamme.notation", "action_text_or_code", "oriflamme.engine.action_text"),
        ("oriflamme.tournament", "tie_averaged_ranks", "oriflamme.engine.outcome"),
        ("oriflamme.tui.narrate", "message_key", "oriflamme.narration"),
        ("oriflamme.cli", "print_json", "oriflamme.commandline"),
    ],
)
def test_a_name_that_left_its_module_still_reads_and_warns(module: str, name: str, new: str) -> None:
    old = importlib.import_module(module)
    with pytest.warns(DeprecationWarning, match=f"{re.escape(module)}.{name} is deprecated"):
        value = getattr(old, name)
    assert value is getattr(importlib.import_module(new), name)
    with pytest.raises(AttributeError):
        _ = old.no_such_name


def test_final_ranks_of_0_1_is_the_outcome_ranks() -> None:
    import oriflamme.tournament

    g = oriflamme.Game.new(players=3, deck="base", seed=0, first_player=0)
    g.score = [5, 5, 2]
    with pytest.warns(DeprecationWarning, match="final_ranks is deprecated"):
        final_ranks = oriflamme.tournament.final_ranks
    assert final_ranks(g) == [1.5, 1.5, 3.0]
