"""DAgger for layout SFT: the model's own rejected steps, answered by the expert.

A model fine-tuned on the expert's episodes sees only states the expert visits, so
its mistakes lead it where no example ever went, and greedy, it tends to repeat a
mistake for the rest of the episode. DAgger (Ross et al., 2011) closes that gap:
play the model, ask the expert what it should have done in the states the model
reached, and train on those answers too.

``dagger_examples`` plays the model greedily (``run_layout_batch``, as evaluation
does) on train seeds, replays each episode in a fresh env (the env is
deterministic: the same actions give the same states), and returns, for every
step the env rejected, the chat example of that state with the expert's action.
The prompt of a step after a rejection carries the env's error, so these are
recovery examples made from the model's real mistakes rather than invented ones.

``dagger_rounds`` plays the latest model on one block of train seeds after another
(layouts it never trained on); after each block it adds the expert's answers to
the data so far and trains the latest model one more pass over all of it (round
``n`` writes its data and model to ``out/dagger-n``). A small model's greedy
choices sit close to ties, so a round can also break a whole family that worked
before: as DAgger prescribes, the result is the best of the models, not simply the
last. ``validate`` plays every candidate on one more block, the same layouts for
each (so a harder block cannot make a model look worse), and ``best_model`` keeps
the one rejected least.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from designrl.inference.types import Backend
from designrl.learner.sft import SFTSettings, train_sft
from designrl.learner.sft_data import check_train_seeds, example, write_jsonl
from designrl.rollout.layout_batch import run_layout_batch
from designrl.tasks.layout.env import LayoutEnv
from designrl.tasks.layout.prompt import PromptStyle


@dataclass(frozen=True)
class Played:
    """One model played greedily on a block of unseen train seeds."""

    model: Path
    steps: int
    rejected: int

    @property
    def rejected_rate(self) -> float:
        return self.rejected / max(1, self.steps)


def _play_greedily(backend: Backend, task_ids: Sequence[str], seeds: Sequence[int], *,
                   style: PromptStyle, step_limit: int) -> list[dict]:
    """Every task × train seed played greedily, as evaluation plays test seeds."""
    check_train_seeds(seeds)
    pairs = [(task_id, seed) for task_id in task_ids for seed in seeds]
    return run_layout_batch(backend, pairs, temperature=0.0, prompt_style=style,
                            step_limit=step_limit)


def dagger_examples(backend: Backend, task_ids: Sequence[str], seeds: Sequence[int], *,
                    style: PromptStyle, step_limit: int = 8) -> tuple[list[dict], int]:
    """The expert's answers to every state where the model's greedy action was rejected,
    and how many steps the model played."""
    from designrl.policies import make_layout_policy

    records = _play_greedily(backend, task_ids, seeds, style=style, step_limit=step_limit)
    examples = []
    for record in records:
        task_id, seed = record["task_id"], record["seed"]
        if all(step["error"] is None for step in record["actions"]):
            continue
        env = LayoutEnv(profile="default")
        expert = make_layout_policy("expert", seed=seed)
        obs = env.reset(task_id, seed=seed)
        for step in record["actions"]:
            if step["error"] is not None:
                examples.append(example(obs, expert.act(env, obs), style, task_id, seed))
            obs = env.step(step["action"])
            if obs.last_action_error != step["error"]:
                raise RuntimeError(f"replaying {task_id} seed {seed} diverged from the "
                                   "model's episode: is the env still deterministic?")
    return examples, sum(len(record["actions"]) for record in records)


def seed_blocks(train_seeds: Sequence[int], rounds: int, per_round: int,
                validate: bool = False) -> list[range]:
    """The blocks of unseen train seeds after the SFT train seeds: one for each of
    ``rounds`` rounds to play, then one on which every model is validated (none
    without rounds, unless ``validate``: SFT's checkpoints to choose from)."""
    first = max(train_seeds) + 1
    blocks = [range(first + n * per_round, first + (n + 1) * per_round)
              for n in range(rounds + 1 if rounds or validate else 0)]
    check_train_seeds(blocks[-1] if blocks else ())
    return blocks


def round_settings(seed: int = 0) -> SFTSettings:
    """A round's training: one pass at a fifth of SFT's peak rate, warmed up slowly (a
    fresh optimizer's first steps are large), so the few new examples correct the
    model without washing out what it learned."""
    return SFTSettings(epochs=1.0, learning_rate=1e-3, warmup_ratio=0.2, seed=seed)


@dataclass(frozen=True)
class Round:
    """One DAgger round: the previous model played on the round's block, and the model
    trained with the expert's answers to its rejected steps added."""

    played: Played
    examples: list[dict]  # one per rejected step: the expert's answer to that state
    model: Path


def dagger_rounds(model_dir: str | Path, data_path: str | Path, out_dir: str | Path,
                  seed_blocks: Sequence[Sequence[int]], *, task_ids: Sequence[str],
                  style: PromptStyle, settings: SFTSettings | None = None,
                  step_limit: int = 8) -> Iterator[Round]:
    """One round per block: play the latest model on it, add the expert's answers to
    its rejected steps to the data, and train the next model. Yields each round."""
    from designrl.inference.transformers_backend import TransformersBackend

    settings = settings or round_settings()
    model, data = Path(model_dir), Path(data_path)
    for number, seeds in enumerate(seed_blocks, 1):
        added, steps = dagger_examples(TransformersBackend(str(model)), task_ids, seeds,
                                       style=style, step_limit=step_limit)
        played = Played(model, steps, len(added))
        rows = [json.loads(line) for line in data.read_text(encoding="utf-8").splitlines()]
        rows += added
        random.Random(f"dagger {settings.seed} {number}").shuffle(rows)  # mixed in batches
        out = Path(out_dir) / f"dagger-{number}"
        data = out / "sft.jsonl"
        write_jsonl(rows, data)
        model = train_sft(model, data, out, settings)
        yield Round(played, added, model)


def validate(model_dir: str | Path, task_ids: Sequence[str], seeds: Sequence[int], *,
             style: PromptStyle, step_limit: int = 8) -> Played:
    """The model played greedily on unseen train seeds: how many of its steps the env
    rejected. Every candidate plays the same seeds, so their rates compare."""
    from designrl.inference.transformers_backend import TransformersBackend

    records = _play_greedily(TransformersBackend(str(model_dir)), task_ids, seeds,
                             style=style, step_limit=step_limit)
    steps = [step for record in records for step in record["actions"]]
    return Played(Path(model_dir), len(steps),
                  sum(step["error"] is not None for step in steps))


def best_model(played: Sequence[Played]) -> Played:
    """The model rejected least on the validation seeds; the later one on a tie (it
    trained on more data)."""
    return min(reversed(played), key=lambda p: p.rejected_rate)
