"""Running episodes: one code path for the embedded bench and the workers."""
