"""The inference server's served models (``GET /v1/models``): listed by the catalog, and
checked when a job names a ``vllm:`` policy, so a job that could never sample is refused
at submit instead of failing every episode in the workers.

At submit, a ``vllm:NAME`` whose NAME the server does not serve is a 422 listing the
served names; with no inference server configured any ``vllm:`` policy is a 422 (nothing
could run it); a server that does not answer is a 503 with ``Retry-After``, and nothing is
stored. ``vllm:latest`` needs a server that answers, not a name: the workers resolve it
to the learner's newest version when an episode starts. The list is kept ``SERVED_TTL_S``
and read again before refusing a name, so an adapter loaded a moment ago is accepted.
"""

from __future__ import annotations

import logging
import time

from fastapi import HTTPException, Request, status

from designrl.policies import LATEST_POLICY, VLLM_PREFIX

log = logging.getLogger(__name__)

SERVED_TTL_S = 30.0  # how long the inference server's model list is reused
SERVED_TIMEOUT_S = 2.0
RETRY_AFTER_S = 10


class Unreachable(RuntimeError):
    pass


def fetch_served(request: Request, *, fresh: bool = False) -> list[str]:
    """The served model names (cached ``SERVED_TTL_S`` unless ``fresh``); raises
    ``Unreachable`` when the server does not answer. Needs ``inference_url`` set."""
    settings = request.app.state.settings
    cached = getattr(request.app.state, "served_models", None)
    if not fresh and cached is not None and time.monotonic() - cached[0] < SERVED_TTL_S:
        return cached[1]
    from designrl.inference.vllm_server import AdapterRegistry

    try:
        models = AdapterRegistry(settings.inference_url, settings.inference_api_key,
                                 timeout=SERVED_TIMEOUT_S).served()
    except Exception as exc:  # noqa: BLE001 - any failure means: no list from it now
        raise Unreachable(f"the inference server {settings.inference_url} did not list its "
                          f"models ({type(exc).__name__}: {exc})") from None
    request.app.state.served_models = (time.monotonic(), models)
    return models


def served_models(request: Request) -> list[str]:
    """For the catalog: the served names, or none when no server is configured or it
    does not answer (the catalog still answers)."""
    if not request.app.state.settings.inference_url:
        return []
    try:
        return fetch_served(request)
    except Unreachable as exc:
        log.warning("%s", exc)
        request.app.state.served_models = (time.monotonic(), [])
        return []


def check_served_policies(request: Request, policies: list[str]) -> None:
    """Refuse (422 or 503) a job whose ``vllm:`` policies the inference server cannot run."""
    wanted = [p for p in policies if p.startswith(VLLM_PREFIX)]
    if not wanted:
        return
    if not request.app.state.settings.inference_url:
        raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, (
            f"{wanted[0]}: this server has no inference server configured "
            "(DESIGNRL_INFERENCE_URL), so no vllm: policy can run here"))
    named = [p for p in wanted if p != LATEST_POLICY]
    try:
        served = fetch_served(request)
        if any(p[len(VLLM_PREFIX):] not in served for p in named):
            served = fetch_served(request, fresh=True)  # loaded since the list was read?
    except Unreachable as exc:
        raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE,
                            f"{exc}; nothing was stored, try again",
                            headers={"Retry-After": str(RETRY_AFTER_S)}) from None
    for policy in named:
        if policy[len(VLLM_PREFIX):] not in served:
            listed = ", ".join(f"{VLLM_PREFIX}{m}" for m in served) or "none"
            raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, (
                f"{policy}: the inference server does not serve "
                f"{policy[len(VLLM_PREFIX):]!r}; served: {listed} (or {LATEST_POLICY})"))
