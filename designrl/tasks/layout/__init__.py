"""The layout family: multi-turn layout editing in ``LayoutEnv`` (DesignGym-compatible).

Files: ``spec`` (typed tasks and layouts), ``generate`` (procedural tasks from a seed),
``prompt`` (the policy's prompt styles), ``extract`` (the action in a completion),
``env`` (the environment and its reward), plus the geometry, metrics and scorer behind it.
"""

from __future__ import annotations

from designrl.tasks.family import Family, Task
from designrl.tasks.layout.generate import FAMILIES as GENERATORS
from designrl.tasks.layout.spec import DESIGNGYM_TASK_IDS


def _policy(name: str):
    def make(seed: int):
        from designrl.policies import make_layout_policy
        return make_layout_policy(name, seed)
    return make


FAMILY = Family(
    name="layout", summary="layout state -> JSON edit actions, multi-turn (DesignGym)",
    tasks=(*(Task(i, "layout", "DesignGym's task; items are seeds") for i in DESIGNGYM_TASK_IDS),
           *(Task(f"gen-{g}", "layout", f"generated {g} layouts; items are seeds")
             for g in GENERATORS)),
    policies={name: _policy(name) for name in ("random", "rule", "expert")},
    components=("start_potential", "final_potential"), multi_turn=True,
)
