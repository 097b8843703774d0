"""Browser play: an ASGI server (FastAPI + WebSockets) around the engine, with its page and store.

Start it with ``oriflamme serve``; build the app in code with
:func:`oriflamme.web.app.create_app`.
"""
