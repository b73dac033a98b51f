"""Fuzz targets for every input a user or a model can send to sktypes (``make fuzz``).

Each target (:mod:`tests.fuzz._registry`) is one untrusted input and an oracle: the input
is read or refused with an :class:`sktypes.SktypesError`, in bounded time, without reading a
file or opening a connection it was not allowed to, and the target's own invariants hold.
``python -m tests.fuzz.run`` runs them (atheris when installed, else hypothesis);
``tests/test_fuzz_smoke.py`` runs each for a few seconds in ``make test``.
"""
