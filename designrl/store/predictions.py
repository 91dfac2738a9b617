"""Prediction sets: completions a user already has, stored to be scored by the workers.

A set maps item ids to completion texts; a benchmark job names it as the policy
``predictions:<set id>``. Sets are size-limited at creation (``MAX_BYTES``).
"""

from __future__ import annotations

from collections.abc import Mapping

from sqlalchemy import Row, select
from sqlalchemy.orm import Session

from designrl.store.jobs import storable
from designrl.store.models import PredictionSet, new_id

MAX_BYTES = 16 * 1024 * 1024  # the completions' UTF-8 bytes, all together
MAX_ITEMS = 10_000


def create_prediction_set(session: Session, items: Mapping[str, str], *, owner: str | None,
                          name: str | None = None, max_bytes: int = MAX_BYTES) -> PredictionSet:
    """Store a set; ``ValueError`` says what is wrong with it (empty, too big, not text)."""
    if not items:
        raise ValueError("a prediction set needs at least one item")
    if len(items) > MAX_ITEMS:
        raise ValueError(f"{len(items)} items; a set holds at most {MAX_ITEMS}")
    size = 0
    for item_id, text in items.items():
        if not isinstance(item_id, str) or not isinstance(text, str):
            raise ValueError("a prediction set maps item ids (strings) to completions (strings)")
        size += len(item_id.encode("utf-8", "replace")) + len(text.encode("utf-8", "replace"))
    if size > max_bytes:
        raise ValueError(f"the set is {size} bytes; the limit is {max_bytes}")
    row = PredictionSet(id=new_id(), name=storable(name), owner=owner,
                        items=storable(dict(items)), item_count=len(items), size_bytes=size)
    session.add(row)
    session.commit()
    return row


def prediction_set_owner(session: Session, set_id: str) -> Row | None:
    """The set's owner as a one-column row (``.owner``: None for an unowned set), or None if
    there is no set ``set_id``. Its items are not read: they may be big."""
    return session.execute(select(PredictionSet.owner)
                           .where(PredictionSet.id == set_id)).first()


def prediction_lookup(session_factory):
    """A ``PredictionLookup`` reading sets from the store: (set id, item id) -> text. Sets
    never change once stored, so a few recent ones stay loaded (a missing one is asked
    for again next time: it may be stored by then)."""
    loaded: dict[str, dict[str, str]] = {}

    def lookup(set_id: str, item_id: str) -> str | None:
        if set_id not in loaded:
            with session_factory() as session:
                row = session.get(PredictionSet, set_id)
                if row is None:
                    return None
                if len(loaded) >= 4:
                    loaded.pop(next(iter(loaded)))
                loaded[set_id] = dict(row.items)
        return loaded[set_id].get(item_id)
    return lookup
