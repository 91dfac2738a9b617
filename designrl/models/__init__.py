"""Models built locally (no model hub here): the tiny test model (``tiny``)."""
