"""The site itself: the page, health and readiness, metrics, what the lobby offers, the catalogs.

Routes::

    GET  /                         the lobby (your tables, a new table)
    GET  /play/TOKEN, /watch/TOKEN the table page, as a seat or as a spectator
    GET  /replay/TOKEN             the replay viewer of a finished game
    GET  /players/NAME             a player's profile (the page reads /api/players/NAME)
    GET  /ladders/duel, /ladders/multi  a ladder in full, paged (?season=N&page=N)
    GET  /api/meta                 decks, cards, bots, languages, the guided game's deal
    GET  /locales/LANG.json        the message catalog of a language
    GET  /healthz, /readyz         liveness, and readiness (store open, tables loaded)
    GET  /metrics                  Prometheus metrics (see oriflamme.web.metrics)
"""

from __future__ import annotations

import json
import logging
import os
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import APIRouter, HTTPException, Response
from fastapi.responses import HTMLResponse, JSONResponse

from .. import tutorial
from ..bots import BOT_KINDS, search_processes
from ..bots.registry import available_kinds
from ..designer import art_of
from ..engine.cards import KINDS, SLUGS, TWIN
from ..engine.options import RuleOptions
from ..engine.recipes import PRESETS
from ..i18n import ADDED
from .metrics import CONTENT_TYPE as METRICS_CONTENT_TYPE
from .ratings import LADDERS
from .server_parts import Parts
from .tables import LANGUAGES

log = logging.getLogger("oriflamme.web")

WEB_LOCALES = Path(str(resources.files("oriflamme.web") / "locales"))
#: The catalogs shared with the terminal interface (absent until they exist).
CORE_LOCALES = Path(str(resources.files("oriflamme.i18n")))

router = APIRouter()


def merged_catalog(lang: str) -> dict[str, Any]:
    """The shared catalog of ``lang`` with the web page's own keys on top."""
    merged: dict[str, Any] = {}
    merged.update(ADDED.get(lang, {}))  # designers' cards' words
    for folder in (CORE_LOCALES, WEB_LOCALES):
        path = folder / f"{lang}.json"
        if path.is_file():
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except ValueError:
                log.exception("catalog %s is not valid JSON", path)
                continue
            if isinstance(data, dict):
                merged.update(data)
    return merged


def _page(parts: Parts) -> HTMLResponse:
    """The one page; its script reads the path (lobby, seat, spectator or replay)."""
    return HTMLResponse(parts.index_html, headers={"Cache-Control": "no-cache"})


@router.get("/", include_in_schema=False)
async def lobby_page(parts: Parts) -> HTMLResponse:
    return _page(parts)


@router.get("/play/{token}", include_in_schema=False)
@router.get("/watch/{token}", include_in_schema=False)
@router.get("/replay/{token}", include_in_schema=False)
async def table_page(token: str, parts: Parts) -> HTMLResponse:
    return _page(parts)


@router.get("/players/{name}", include_in_schema=False)
async def profile_page(name: str, parts: Parts) -> HTMLResponse:
    return _page(parts)


@router.get("/ladders/{ladder}", include_in_schema=False)
async def ladder_page(ladder: str, parts: Parts) -> HTMLResponse:
    """A ladder's page; the page itself says when there is no such ladder (with a 404 status)."""
    page = _page(parts)
    if ladder not in LADDERS:
        page.status_code = 404
    return page


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    return {"status": "ok"}


@router.get("/readyz", response_model=None)
async def readyz(parts: Parts) -> dict[str, Any] | JSONResponse:
    if not parts.ready:
        return JSONResponse({"status": "starting or stopping"}, status_code=503)
    registry = parts.registry
    answer: dict[str, Any] = {"status": "ready", "tables": len(registry.tables), "pid": os.getpid()}
    if parts.cluster is not None:
        answer["worker"] = parts.cluster.worker
        answer["owned"] = sum(1 for t in registry.tables.values() if t.owned)
    return answer


@router.get("/metrics")
async def prometheus_metrics(parts: Parts) -> Response:
    return Response(parts.metrics.render(), media_type=METRICS_CONTENT_TYPE)


@router.get("/api/meta")
async def meta(parts: Parts) -> dict[str, Any]:
    return {
        "decks": ["base", "ablaze", "alliance", "random"],
        # The presets' kinds, for a deck chosen card by card in the lobby.
        "presets": {name: [SLUGS[k] for k in kinds] for name, kinds in PRESETS.items()},
        "rules": RuleOptions().to_dict(),
        # Every kind loaded, designers' cards among them (with their emblems' path data).
        "cards": [
            {"slug": k.slug, "box": k.box, "character": k.character, "art": list(art_of(k.slug))}
            for k in KINDS
            if k.id != TWIN
        ],
        "bots": [
            {
                "kind": kind,
                "levels": [lv for lv in levels if parts.parallel_bots or search_processes(kind, lv) == 1],
                "default": default,
            }
            for kind, (_, levels, default) in BOT_KINDS.items()
            if kind in available_kinds()
        ],
        "languages": list(LANGUAGES),
        # The guided first game's table, as the lobby asks for it (POST /api/tables).
        "tutorial": {
            "players": tutorial.SETUP.players,
            "deck": "base",
            "seed": tutorial.SETUP.seed,
            "first_player": tutorial.SETUP.first_player,
            "bots": ["tutor"] * (tutorial.SETUP.players - 1),
        },
    }


@router.get("/locales/{lang}.json")
async def catalog(lang: str, parts: Parts) -> Response:
    if lang not in LANGUAGES:
        raise HTTPException(404, "unknown language")
    body = parts.catalogs.get(lang)
    if body is None:
        body = parts.catalogs[lang] = json.dumps(merged_catalog(lang), ensure_ascii=False).encode()
    return Response(body, media_type="application/json", headers={"Cache-Control": "no-cache"})
