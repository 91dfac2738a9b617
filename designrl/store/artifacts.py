"""Episode images: the renders a single-turn episode stored beside its row.

``finish_episode`` writes them with the record (once, like the rest of it); these
read them back for the API, the report and tests.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from designrl.store.models import Artifact


def artifact_names(session: Session, episode_id: str) -> list[str]:
    return list(session.scalars(select(Artifact.name).where(Artifact.episode_id == episode_id)
                                .order_by(Artifact.name)))


def episode_images(session: Session, episode_ids: list[str]) -> dict[str, list[str]]:
    """Image names per episode, for many episodes in one query."""
    out: dict[str, list[str]] = {e: [] for e in episode_ids}
    for episode_id, name in session.execute(
            select(Artifact.episode_id, Artifact.name).where(Artifact.episode_id.in_(episode_ids))
            .order_by(Artifact.name)):
        out[episode_id].append(name)
    return out


def read_artifact(session: Session, episode_id: str, name: str) -> Artifact | None:
    return session.get(Artifact, (episode_id, name))
