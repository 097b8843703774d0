"""Balance studies: ``oriflamme analyze`` (see :mod:`oriflamme.analysis.facts`)."""
