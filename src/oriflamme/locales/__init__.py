"""Message catalogs (JSON), one per language; see :mod:`oriflamme.i18n`."""
