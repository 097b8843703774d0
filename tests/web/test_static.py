"""Static files: served under a versioned path, cached for a year there, gzip-compressed; the page names that path."""

from __future__ import annotations

import gzip
import re
import shutil
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from oriflamme.web import static_files
from oriflamme.web.app import create_app
from oriflamme.web.static_files import STATIC, static_version


def test_the_page_loads_this_versions_files_which_are_cached_for_a_year_and_compressed() -> None:
    with TestClient(create_app()) as client:
        page = client.get("/")
        assert page.headers["cache-control"] == "no-cache"
        version = static_version()
        assert f'src="/static/{version}/app.js"' in page.text
        assert f'href="/static/{version}/style.css"' in page.text
        assert not re.search(r'"/static/(?!' + version + r"/)", page.text), "every static path is versioned"

        script = client.get(f"/static/{version}/app.js", headers={"Accept-Encoding": "gzip"})
        assert script.status_code == 200
        assert script.headers["cache-control"] == "public, max-age=31536000, immutable"
        assert script.text == (STATIC / "app.js").read_text(encoding="utf-8")
        # A module the first one imports, by a relative path, is under the same version.
        board = client.get(f"/static/{version}/board.js", headers={"Accept-Encoding": "gzip"})
        assert board.headers["content-encoding"] == "gzip"
        raw = client.get(f"/static/{version}/board.js", headers={"Accept-Encoding": "identity"})
        assert "content-encoding" not in raw.headers
        assert len(gzip.compress(raw.content)) < len(raw.content) / 2

        # The plain path still serves the files, without the long lifetime.
        plain = client.get("/static/app.js")
        assert plain.status_code == 200 and "immutable" not in plain.headers.get("cache-control", "")
        assert client.get(f"/static/{version}/no-such-file.js").status_code == 404


def test_changing_any_static_file_changes_the_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = tmp_path / "static"
    shutil.copytree(STATIC, copy)
    monkeypatch.setattr(static_files, "STATIC", copy)
    before = static_version()
    assert before == static_version()
    (copy / "style.css").write_text((copy / "style.css").read_text() + "\n/* changed */\n")
    assert static_version() != before
