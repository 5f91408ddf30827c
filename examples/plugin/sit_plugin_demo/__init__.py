"""A complete small sit plugin (docs/plugins.md): a translator and a relation, found by sit through
entry points, that touch no file of sit."""
