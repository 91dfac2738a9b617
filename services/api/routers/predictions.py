"""Prediction sets: completions a user already has, stored so the workers can score them.

``POST /v1/prediction-sets`` stores ``{"name"?, "items": {item_id: completion}}`` (the
request body may be ``max_prediction_set_bytes``); a benchmark job then names the set as
the policy ``predictions:<id>``. A set is read back as metadata only, by the key that
stored it (or an admin).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, HTTPException, Path, Request, status

from designrl.policies import PREDICTIONS_PREFIX
from designrl.store.keys import may_read
from designrl.store.models import ApiKey, PredictionSet
from designrl.store.predictions import create_prediction_set
from services.api.deps import KeyDep, SessionDep, submitter
from services.api.schemas import PredictionSetIn, PredictionSetOut

router = APIRouter(prefix="/v1", tags=["prediction sets"])
SetId = Annotated[str, Path(pattern=r"^[A-Za-z0-9_-]{1,32}$")]
PATH = "/v1/prediction-sets"  # the middleware gives its bodies their own size limit


@router.post("/prediction-sets", status_code=status.HTTP_201_CREATED,
             response_model=PredictionSetOut)
def post_prediction_set(body: PredictionSetIn, request: Request, session: SessionDep,
                        key: Annotated[ApiKey, Depends(submitter)]) -> PredictionSetOut:
    try:
        row = create_prediction_set(session, body.items, owner=key.name, name=body.name,
                                    max_bytes=request.app.state.settings.max_prediction_set_bytes)
    except ValueError as exc:
        raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, str(exc)) from None
    return prediction_set_out(row)


@router.get("/prediction-sets/{set_id}", response_model=PredictionSetOut)
def get_prediction_set(set_id: SetId, session: SessionDep, key: KeyDep) -> PredictionSetOut:
    row = session.get(PredictionSet, set_id)
    if row is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no prediction set {set_id}")
    if not may_read(key, row.owner):
        raise HTTPException(status.HTTP_403_FORBIDDEN, "this prediction set belongs to "
                            "another key")
    return prediction_set_out(row)


def prediction_set_out(row: PredictionSet) -> PredictionSetOut:
    return PredictionSetOut(id=row.id, name=row.name, owner=row.owner, items=row.item_count,
                            bytes=row.size_bytes, policy=f"{PREDICTIONS_PREFIX}{row.id}",
                            created_at=row.created_at)
