"""The API's settings, from the environment."""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from designrl.learner.versions import VERSION_KEY
from designrl.rollout.groups import GROUPS_STREAM


class ApiSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="DESIGNRL_", extra="ignore",
                                      populate_by_name=True)

    database_url: str = Field("sqlite:///designrl.db", validation_alias="DATABASE_URL")
    redis_url: str = Field("redis://127.0.0.1:6379/0", validation_alias="REDIS_URL")
    queue: str = "episodes"  # the renderer workers' queue
    groups_stream: str = GROUPS_STREAM
    migrate_on_start: bool = True  # bring the schema to the newest migration at start-up
    max_body_bytes: int = 1_000_000
    max_episodes_per_job: int = 20_000
    reconcile_every_s: float = 30.0  # 0 turns the reconciler off
    requeue_after_s: float = 900.0  # a queued episode enqueued this long ago lost its task
    # The web UI's live episode stream: how often it looks for new steps, and for how long
    # one stream stays open (the page reconnects after that).
    stream_poll_s: float = 0.25
    stream_max_s: float = 600.0
    # The Training page reads learner runs (each a subdirectory holding curves.jsonl: the
    # learner service's output_dir, `designrl train --out`) and the adapter store's policy-vN
    # folders; both are read only.
    training_runs_dir: str = "out"
    adapter_store: str = "out/adapters"
    version_key: str = VERSION_KEY  # where the learner announces its newest version
