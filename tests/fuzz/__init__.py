"""Fuzz targets: each runs briefly under ``make test`` and for a set time under ``make fuzz``."""
