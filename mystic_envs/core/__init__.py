"""The machinery every game shares: the AEC adapter (``aec``), the rules-engine interface (``game``),
the single-agent view (``single_agent``), opponent policies the core can name (``policies``), errors
(``errors``) and the generated doc tables (``docs``).

A regular package rather than an implicit namespace one, so that documentation tools (griffe, for
the docs site's API reference) find its modules; it imports nothing.
"""
