"""Build-time code generation for sktypes (spec → typed plugin packages, views → stubs).

Generated code imports ``sktypes``, never ``generators``.
"""

__all__: list[str] = []
