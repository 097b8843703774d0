"""Tournaments between bots: seating and seeding, playing games on local or Ray workers,
standings with confidence intervals and ratings, and resumable record files.

A library shared by the ``oriflamme tournament`` command (:mod:`.command`) and
by anything else that pits bots against each other.
"""
