"""The renderer workers: Celery over Redis, one task per episode (``tasks.run_episode``)."""
