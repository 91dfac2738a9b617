"""The learner service: ``python -m services.learner.main``.

Reads scored groups from the Redis stream as one consumer of a consumer group,
trains with ``designrl.learner.grpo.Learner``, publishes every version
(``designrl.learner.versions``) and exports its metrics. Restarted under the same
consumer name it resumes from its newest complete checkpoint and its own pending
groups. SIGTERM stops it at the next wait for groups.
"""

from __future__ import annotations

import json
import logging
import signal
import sys

from redis import Redis

from designrl.inference.vllm_server import AdapterRegistry
from designrl.learner.grpo import Learner
from designrl.learner.sources import RedisGroupSource
from designrl.learner.versions import VersionPublisher
from services.learner import metrics
from services.learner.settings import LearnerSettings

log = logging.getLogger("designrl.learner")


def build_learner(settings: LearnerSettings) -> Learner:
    if settings.inference_url and not settings.grpo.lora_r:
        raise SystemExit("inference loads LoRA adapters at runtime: set "
                         "DESIGNRL_LEARNER_GRPO__LORA_R with DESIGNRL_LEARNER_INFERENCE_URL")
    redis = Redis.from_url(settings.redis_url)
    source = RedisGroupSource(redis, stream=settings.groups_stream,
                              group=settings.consumer_group, consumer=settings.consumer,
                              claim_idle_s=settings.claim_idle_s)
    registry = AdapterRegistry(settings.inference_url) if settings.inference_url else None
    publish = VersionPublisher(settings.adapter_store, redis=redis, registry=registry,
                               version_key=settings.version_key, keep=settings.keep_versions)

    def on_update(row: dict) -> None:
        metrics.observe(row)
        log.info("version %d: reward %.3f, loss %.4f, idle %.0f%%, dropped %s",
                 row["version"], row.get("group_reward_mean", 0.0), row.get("loss", 0.0),
                 100 * row["idle_fraction"], row["dropped"])

    return Learner(settings.model_dir, settings.output_dir, source, settings.grpo,
                   publish=publish, log=on_update)


def main() -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    settings = LearnerSettings()
    if settings.metrics_port:
        from prometheus_client import start_http_server
        start_http_server(settings.metrics_port)
    learner = build_learner(settings)
    if learner.resume_from is not None:
        log.info("resuming from %s", learner.resume_from)
    signal.signal(signal.SIGTERM, lambda *_: learner.stop())
    stats = learner.train()
    print(json.dumps({"version": learner.version, **stats}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
