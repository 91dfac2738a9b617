"""``LayoutEnvClient``: the real OpenEnv ``EnvClient`` for the layout env server.

Needs the ``openenv`` package (``pip install openenv==0.10.0``, in designrl's
``dev`` extra); nothing else in designrl imports this module. Each client is one
WebSocket session with its own env on the server (``services/layout_env``)::

    async with LayoutEnvClient(base_url="http://localhost:8001") as env:
        result = await env.reset(task_id="gen-poster", seed=3)
        while not result.done:
            result = await env.step({"action_type": "finalize"})
        print(result.reward, result.observation.score)

    with LayoutEnvClient(base_url="http://localhost:8001").sync() as env:
        result = env.reset(seed=0)

``step`` takes a pydantic action from ``designrl.tasks.layout.actions``, a plain
dict, or the model's raw JSON text. An invalid action is not an exception: it
comes back as an observation with ``last_action_error`` set and a penalty reward.
Protocol errors (bad reset arguments, a full server) raise ``RuntimeError``, as
in every OpenEnv client.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from designrl.tasks.layout.env import LayoutObservation, LayoutState

try:
    from openenv.core.client_types import StepResult
    from openenv.core.env_client import EnvClient
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(
        "LayoutEnvClient needs the openenv package: pip install 'openenv==0.10.0' "
        "(or designrl[dev])"
    ) from exc

_OBSERVATION_FIELDS = frozenset(LayoutObservation.model_fields)


class LayoutEnvClient(EnvClient[Any, LayoutObservation, LayoutState]):
    """Typed OpenEnv client: ``reset``/``step`` give ``StepResult[LayoutObservation]``."""

    def reset(self, *, task_id: str | None = None, seed: int | None = None,
              episode_id: str | None = None, **kwargs: Any) -> Any:
        """Start an episode: ``task_id`` (default: the server's default task), ``seed`` (default 0)."""
        given = {"task_id": task_id, "seed": seed, "episode_id": episode_id}
        kwargs.update({k: v for k, v in given.items() if v is not None})
        return super().reset(**kwargs)

    def _step_payload(self, action: Any) -> Any:
        if isinstance(action, BaseModel):
            return action.model_dump(mode="json", exclude={"metadata"})
        return action  # a dict, or raw text the server parses (and records if invalid)

    def _parse_result(self, payload: dict[str, Any]) -> StepResult[LayoutObservation]:
        data = payload.get("observation") or {}
        # Fields a newer server may add are dropped rather than failing validation.
        fields = {k: v for k, v in data.items() if k in _OBSERVATION_FIELDS}
        fields["reward"] = payload.get("reward")
        fields["done"] = bool(payload.get("done", False))
        metadata = payload.get("metadata") or data.get("metadata") or {}
        fields["metadata"] = metadata
        observation = LayoutObservation.model_validate(fields)
        return StepResult(observation=observation, reward=observation.reward,
                          done=observation.done, metadata=metadata)

    def _parse_state(self, payload: dict[str, Any]) -> LayoutState:
        return LayoutState.model_validate(payload)
