"""A command whose extra is missing says which one to install, in one line, with exit code 2."""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from oriflamme import extras
from oriflamme.cli.app import app

runner = CliRunner()


@pytest.mark.parametrize(
    ("extra", "args"),
    [
        ("web", ["serve"]),
        ("tui", ["play"]),
        ("tui", ["replay", "game.json"]),
        ("tournament", ["tournament", "--bots", "random,random,random"]),
        ("bench", ["bench", "server"]),
        ("bench", ["bench-server"]),
        ("train", ["train", "--games", "1"]),
        ("train", ["selfplay", "run-dir"]),
    ],
)
def test_a_command_without_its_extra_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, extra: str, args: list[str]
) -> None:
    monkeypatch.setitem(extras.EXTRAS, extra, ("no_such_module_for_this_test",))
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    message = result.stderr.strip()
    assert message.startswith("error: oriflamme ")
    assert f"needs the '{extra}' extra (missing: no_such_module_for_this_test)" in message
    assert message.endswith(extras.install_command(extra))
    assert len(message.splitlines()) == 1


def test_the_program_without_the_cli_extra_says_so_before_importing_it() -> None:
    code = (
        "import sys\n"
        "from oriflamme import extras\n"
        "extras.EXTRAS['cli'] = ('no_such_module_for_this_test',)\n"
        "from oriflamme.cli import main\n"
        "sys.argv = ['oriflamme', '--help']\n"
        "main()\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 2
    assert out.stderr.strip() == (
        "error: the oriflamme command needs the 'cli' extra (missing: no_such_module_for_this_test); "
        f"install it with: {extras.install_command('cli')}"
    )
    assert "typer" not in out.stdout


class _Distribution:
    """A stand-in for the installed distribution, with the ``direct_url.json`` pip wrote for it."""

    def __init__(self, direct_url: str | None) -> None:
        self.direct_url = direct_url

    def read_text(self, name: str) -> str | None:
        return self.direct_url if name == "direct_url.json" else None


@pytest.mark.parametrize(
    ("direct_url", "expected"),
    [
        (None, "pip install 'oriflamme[tui]'"),  # from an index: no direct URL at all
        (
            '{"url": "https://example.org/oriflamme-1.0.tar.gz", "archive_info": {}}',
            "pip install 'oriflamme[tui]'",
        ),
        ('{"url": "file:///src/oriflamme", "dir_info": {}}', "pip install 'oriflamme[tui]'"),  # not editable
        ('{"url": "file:///src/oriflamme", "dir_info": {"editable": true}}', "pip install -e '.[tui]'"),
        ("not json", "pip install 'oriflamme[tui]'"),
    ],
)
def test_the_install_line_fits_how_the_package_was_installed(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, direct_url: str | None, expected: str
) -> None:
    """pip install 'oriflamme[tui]' in an editable checkout would replace it with the released
    package: there the message installs the extra into the checkout itself."""
    monkeypatch.setattr(importlib.metadata, "distribution", lambda name: _Distribution(direct_url))
    monkeypatch.setattr(os, "getcwd", lambda: "/src/oriflamme")
    monkeypatch.setattr(Path, "samefile", lambda self, other: str(self) == other)
    extras.editable_checkout.cache_clear()
    try:
        message = str(extras.MissingExtraError("tui", ["babel"], "oriflamme play"))
        assert (
            message == f"oriflamme play needs the 'tui' extra (missing: babel); install it with: {expected}"
        )
        # Run from elsewhere, the checkout is named by its path.
        monkeypatch.setattr(os, "getcwd", lambda: str(tmp_path))
        elsewhere = expected.replace("'.[", "'/src/oriflamme[")
        assert extras.install_command("tui") == elsewhere
    finally:
        extras.editable_checkout.cache_clear()


def test_present_extras_report_nothing_missing() -> None:
    for extra in ("cli", "tui", "web", "tournament", "bench"):
        assert extras.missing_modules(extras.EXTRAS[extra]) == []
        extras.require_extra(extra, "a test")


def test_the_web_server_reads_the_shared_catalogs_without_the_terminal_extra() -> None:
    """`oriflamme[web]` has no babel: importing the catalog package must not need it."""
    code = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'babel' or name.startswith('babel.'):\n"
        "            raise ModuleNotFoundError('babel blocked for this test')\n"
        "sys.meta_path.insert(0, Block())\n"
        "from importlib import resources\n"
        "import oriflamme.web.app\n"
        "print(sorted(p.name for p in resources.files('oriflamme.i18n').iterdir() if p.name.endswith('.json')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "['en.json', 'fr.json', 'glossary.json', 'pl.json', 'ru.json', 'uk.json']"


def test_with_only_the_cli_extra_the_program_starts_and_simulates() -> None:
    """Every command is listed and `simulate` runs when no other extra's package can be imported."""
    code = (
        "import sys\n"
        "BLOCKED = ('babel', 'fastapi', 'starlette', 'uvicorn', 'websockets', 'platformdirs',"
        " 'openskill', 'ray')\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in BLOCKED:\n"
        "            raise ModuleNotFoundError(name + ' blocked for this test')\n"
        "sys.meta_path.insert(0, Block())\n"
        "from oriflamme.cli import main\n"
        "sys.argv = ['oriflamme'] + sys.argv[1:]\n"
        "main()\n"
    )
    listing = subprocess.run([sys.executable, "-c", code, "--help"], capture_output=True, text=True)
    assert listing.returncode == 0, listing.stderr
    for command in ("simulate", "bench", "tournament", "serve", "play", "replay"):
        assert command in listing.stdout
    run = subprocess.run(
        [sys.executable, "-c", code, "simulate", "-n", "3", "-p", "3", "--json"],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr
    assert '"games": 3' in run.stdout
