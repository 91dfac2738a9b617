"""An Eval Protocol evaluation of svg rows over designrl's ``/ep`` routes: run in ``.venv-ep``
(eval-protocol 0.3.33) by ``tests/services/test_ep_e2e.py``, never collected by our own
suite (its name is not ``test_*.py`` and our venv has no eval-protocol).

The caller sets ``DESIGNRL_EP_URL`` (the API's ``/ep``, both ``remote_base_url`` and
``model_base_url``), ``DESIGNRL_EP_ROWS`` (a JSON list of ``{"row_id", "messages"}``),
``DESIGNRL_EP_MODEL`` (the policy), ``DESIGNRL_EP_OUT`` (a JSONL file: one line per row as
the evaluation received it), ``FIREWORKS_API_KEY`` (the designrl key) and the offline
variables ``LITELLM_LOCAL_MODEL_COST_MAP=True`` and ``EP_NO_UPLOAD=1``.

No ``from __future__ import annotations``: ``@evaluation_test`` checks the test function's
annotations as types, not strings.
"""

import json
import os

from eval_protocol.models import EvaluateResult, EvaluationRow, InputMetadata, Message
from eval_protocol.pytest import RemoteRolloutProcessor, evaluation_test

URL = os.environ["DESIGNRL_EP_URL"]
OUT = os.environ["DESIGNRL_EP_OUT"]
with open(os.environ["DESIGNRL_EP_ROWS"], encoding="utf-8") as f:
    ROWS = [EvaluationRow(messages=[Message(**m) for m in row["messages"]],
                          input_metadata=InputMetadata(row_id=row["row_id"]))
            for row in json.load(f)]


@evaluation_test(
    input_rows=[ROWS],
    completion_params=[{"model": os.environ["DESIGNRL_EP_MODEL"]}],
    rollout_processor=RemoteRolloutProcessor(remote_base_url=URL, model_base_url=URL,
                                             poll_interval=0.5, timeout_seconds=240),
    mode="pointwise",
    disable_browser_open=True,
)
def test_svg_rows_get_designrl_rewards(row: EvaluationRow) -> EvaluationRow:
    extra = row.execution_metadata.extra or {}
    reward = extra.get("reward")
    with open(OUT, "a", encoding="utf-8") as out:
        out.write(json.dumps({
            "row_id": row.input_metadata.row_id,
            "rollout_id": row.execution_metadata.rollout_id,
            "status": {"code": int(row.rollout_status.code),
                       "message": row.rollout_status.message},
            "extra": extra,
            "roles": [m.role for m in row.messages],
            "answer": row.messages[-1].content if row.messages else None,
        }) + "\n")
    row.evaluation_result = EvaluateResult(
        score=float(reward) if reward is not None else 0.0,
        is_score_valid=reward is not None,
        reason=f"designrl reward {reward}" if reward is not None
        else row.rollout_status.message)
    return row
