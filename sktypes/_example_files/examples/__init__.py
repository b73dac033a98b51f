"""Example plugins used by ``make run`` and the tests."""
