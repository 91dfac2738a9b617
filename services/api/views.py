"""Stored rows as wire types: an episode in a list, in full, and one step."""

from __future__ import annotations

from urllib.parse import quote

from sqlalchemy.orm import object_session

from designrl.learner.sample_picture import can_replay
from designrl.learner.sample_render import can_draw, picture_problem
from designrl.rollout.replay import episode_brief
from designrl.store.artifacts import artifact_names
from designrl.store.models import FINISHED, Episode, Step
from designrl.tasks import FAMILIES
from services.api.schemas import EpisodeDetail, EpisodeOut, StepOut

_OWN_FIELDS = ("images", "links")
_SUMMARY_FIELDS = ("completion", "details")  # shown as fields of their own, not twice


def episode_out(episode: Episode, images: list[str] | None = None) -> EpisodeOut:
    """``images``: the episode's image names, when the caller read them for many episodes
    at once; otherwise they are read here (a finished episode's only)."""
    fields = {name: getattr(episode, name) for name in EpisodeOut.model_fields
              if name not in _OWN_FIELDS}
    if images is None:
        session = object_session(episode)
        images = (artifact_names(session, episode.id)
                  if session is not None and episode.status in FINISHED else [])
    base = f"/v1/episodes/{episode.id}"
    links = {"self": base}
    family = FAMILIES.get(episode.family)
    if family is not None and family.multi_turn and episode.status == "completed":
        links |= {"before": f"{base}/images/before.svg", "after": f"{base}/images/after.svg"}
    links |= {name: f"{base}/images/{name}.png" for name in images}
    return EpisodeOut(**fields, images=images, links=links)


def episode_detail(episode: Episode) -> EpisodeDetail:
    summary = episode.summary
    rest = None if summary is None else {k: v for k, v in summary.items()
                                         if k not in _SUMMARY_FIELDS}
    return EpisodeDetail(**episode_out(episode).model_dump(),
                         steps=[step_out(s) for s in episode.steps],
                         rewards={r.name: r.value for r in episode.rewards},
                         completion=(summary or {}).get("completion"),
                         details=(summary or {}).get("details"),
                         summary=rest, brief=episode_brief(episode))


def sample_pictures(samples: list[dict], families: dict[str, str],
                    images: dict[str, list[str]], run: str) -> list[dict]:
    """Training samples with their picture: a stored episode's (a layout's final layout,
    another family's candidate render); else, for a layout sample that keeps its
    completions, its final layout replayed (``/v1/training/runs/{run}/samples/{i}.svg``);
    for a single-turn family's, its text drawn (``.../samples/{i}/picture``), or why it
    cannot be (``picture_problem``: no document in it, its text cut); else none.
    ``stored``: whether the Episode page can show it."""
    out = []
    base = f"/v1/training/runs/{quote(run, safe='')}/samples"
    for index, sample in enumerate(samples):
        episode_id, picture, kind, problem = sample["episode_id"], None, None, None
        family = FAMILIES.get(families.get(episode_id, ""))
        if family is not None and family.multi_turn:
            picture, kind = f"/v1/episodes/{episode_id}/images/after.svg", "stored"
        elif "candidate" in images.get(episode_id, ()):
            picture, kind = f"/v1/episodes/{episode_id}/images/candidate.png", "stored"
        elif can_replay(sample):
            picture, kind = f"{base}/{index}.svg", "replayed"
        elif can_draw(sample):
            problem = picture_problem(sample)
            picture, kind = (None, None) if problem else (f"{base}/{index}/picture", "drawn")
        out.append(sample | {"picture": picture, "picture_kind": kind,
                             "picture_problem": problem, "stored": episode_id in families})
    return out


def step_out(step: Step) -> StepOut:
    return StepOut(index=step.index, action=step.action, valid=step.valid, reward=step.reward,
                   score=step.score, error=step.error)
