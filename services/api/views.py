"""Stored rows as wire types: an episode in a list, in full, and one step."""

from __future__ import annotations

from designrl.store.models import Episode, Step
from services.api.schemas import EpisodeDetail, EpisodeOut, StepOut


def episode_out(episode: Episode) -> EpisodeOut:
    fields = {name: getattr(episode, name) for name in EpisodeOut.model_fields if name != "links"}
    links = {"self": f"/v1/episodes/{episode.id}"}
    if episode.family == "layout" and episode.status == "completed":
        links |= {"before": f"/v1/episodes/{episode.id}/images/before.svg",
                  "after": f"/v1/episodes/{episode.id}/images/after.svg"}
    return EpisodeOut(**fields, links=links)


def episode_detail(episode: Episode) -> EpisodeDetail:
    return EpisodeDetail(**episode_out(episode).model_dump(),
                         steps=[step_out(s) for s in episode.steps],
                         rewards={r.name: r.value for r in episode.rewards},
                         summary=episode.summary)


def step_out(step: Step) -> StepOut:
    return StepOut(index=step.index, action=step.action, valid=step.valid, reward=step.reward,
                   score=step.score, error=step.error)
