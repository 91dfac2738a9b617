"""Publishing policy versions: ``policy-vN`` in the adapter store, loaded by inference,
announced in Redis.

After every update the learner writes the weights (a LoRA adapter, or the whole
model) to ``store/policy-vN`` atomically, asks each inference server to load it under
that name (a new name per version: vLLM keeps stale prefix-cache blocks when a name
is reloaded), unloads versions older than the newest ``keep``, and sets the version
key in Redis, where workers read which version to sample from.
"""

from __future__ import annotations

import logging
from pathlib import Path

from designrl.config.common import VERSION_KEY
from designrl.inference.vllm_server import AdapterRegistry, version_name
from designrl.learner.checkpoint import write_version

log = logging.getLogger(__name__)


class VersionPublisher:
    def __init__(self, store: str | Path, *, redis=None, registry: AdapterRegistry | None = None,
                 version_key: str = VERSION_KEY, keep: int = 3) -> None:
        self.store = Path(store)
        self.store.mkdir(parents=True, exist_ok=True)
        self.redis = redis
        self.registry = registry
        self.version_key = version_key
        self.keep = keep
        self.loaded: list[str] = []

    def __call__(self, version: int, model, tokenizer) -> Path:
        name = version_name(version)
        path = write_version(model, tokenizer, self.store / name)
        if self.registry is not None:
            self.registry.load(name, path)
            self.loaded.append(name)
            while len(self.loaded) > self.keep:
                self.registry.unload(self.loaded.pop(0))
        if self.redis is not None:
            from redis.exceptions import ConnectionError, TimeoutError
            try:
                self.redis.set(self.version_key, version)
            except (ConnectionError, TimeoutError) as exc:  # the next version announces again
                log.warning("announcing %s failed (%s)", name, exc)
        return path


def current_version(redis, version_key: str = VERSION_KEY) -> int | None:
    """The newest published version, as workers read it."""
    value = redis.get(version_key)
    return None if value is None else int(value)
