"""SFT data: the layout expert's episodes as chat examples a language model can imitate.

Each expert step becomes one example, ``{"messages": [system, user, assistant]}``:
the prompt the LLM policy would see at that step (``layout_messages``, same
style) and the expert's action as compact JSON. The file is JSONL, which
``datasets.load_dataset("json", data_files=...)`` reads and TRL's ``SFTTrainer``
trains on directly (with ``assistant_only_loss``, thanks to the chat template's
generation marks). Seeds are the train split (below the test seeds), so held-out
evaluation never sees them.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path

from designrl.policies.llm.layout_prompt import PromptStyle, layout_messages
from designrl.tasks.layout.env import GENERATED_TASK_IDS, LayoutEnv
from designrl.tasks.layout.generate import TEST_SEED_START


def expert_examples(task_ids: Sequence[str] = GENERATED_TASK_IDS, seeds: Sequence[int] = (),
                    style: PromptStyle = "compact", step_limit: int = 64
                    ) -> Iterator[dict]:
    """Chat examples from expert episodes on every task × seed (default profile)."""
    from designrl.policies import make_layout_policy

    if any(seed >= TEST_SEED_START for seed in seeds):
        raise ValueError(f"SFT seeds must be below the test seeds ({TEST_SEED_START})")
    for task_id in task_ids:
        for seed in seeds:
            env = LayoutEnv(profile="default")
            expert = make_layout_policy("expert", seed=seed)
            obs = env.reset(task_id, seed=seed)
            for _ in range(step_limit):
                if obs.done:
                    break
                messages = layout_messages(obs, style)
                action = expert.act(env, obs)
                answer = json.dumps(action, separators=(",", ":"))
                yield {"messages": [*messages, {"role": "assistant", "content": answer}],
                       "task_id": task_id, "seed": seed, "step": obs.step_count}
                obs = env.step(action)


def write_jsonl(examples, path: str | Path) -> int:
    """Write examples one JSON object per line; returns how many."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    count = 0
    with path.open("w", encoding="utf-8") as out:
        for example in examples:
            out.write(json.dumps(example) + "\n")
            count += 1
    return count
