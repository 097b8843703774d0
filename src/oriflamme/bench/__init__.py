"""Benchmarks, not tests: ``oriflamme bench engine`` measures the rules engine on random play,
``oriflamme bench server`` drives a real web server with many tables.
"""
