"""Playing in the terminal: ``oriflamme play`` and ``oriflamme replay``.

``render`` draws a seat's view with rich, ``narrate`` tells events in the
chosen language, ``prompt`` turns legal actions into menus and reads input,
``app`` runs a game between people and bots, ``replay`` steps through a saved
game. All text comes from the message catalogs (:mod:`oriflamme.i18n`).
"""
