"""Embedded GRPO (``designrl train``): rollouts and updates on one machine, no Redis.

A rollout thread samples layout groups with the in-process backend
(``run_layout_batch``: ``group_size`` episodes of one task and seed, at the learner's
temperature) and hands them to the same ``Learner`` the service runs, through a
``LocalGroupSource``. Rollouts and updates overlap: the thread keeps sampling while
the learner trains, at most ``(max_staleness + 1) × groups_per_step`` groups ahead
of it (admission control), and samples each batch of groups from the newest
version the learner has published. The learner still drops any group that ends up
more than ``max_staleness`` versions old.
"""

from __future__ import annotations

import copy
import random
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from designrl.config.training import RolloutSettings
from designrl.learner.feed import FeedStats
from designrl.learner.grpo import GRPOSettings, Learner
from designrl.learner.sources import LocalGroupSource
from designrl.policies import check_model_dir
from designrl.rollout.groups import Sample, ScoredGroup
from designrl.rollout.layout_batch import run_layout_batch
from designrl.tasks.layout.prompt import prompt_style_of, write_prompt_style


class Sampler:
    """The rollout side: the newest published weights and the thread that samples."""

    def __init__(self, model_dir: str | Path, settings: RolloutSettings, source: LocalGroupSource,
                 grpo: GRPOSettings) -> None:
        from designrl.inference.transformers_backend import TransformersBackend

        self.backend = TransformersBackend(str(model_dir))
        self.settings = settings
        self.source = source
        self.grpo = grpo
        self.lock = threading.Lock()
        self.latest: tuple[int, Any] | None = None  # (version, model) published last
        self.stop_event = threading.Event()
        self.error: BaseException | None = None
        self.groups_sampled = 0
        self.episodes_sampled = 0
        self.reward_sum = 0.0  # of every sampled episode, for the progress lines
        self.sampling_seconds = 0.0
        self.on_sampled: Callable[[], None] = lambda: None  # after each batch of groups
        self.thread = threading.Thread(target=self._run, name="rollouts", daemon=True)

    def publish(self, version: int, model, tokenizer) -> None:
        """The learner's callback: a frozen copy of the new weights for the next groups."""
        snapshot = copy.deepcopy(model)
        if hasattr(snapshot, "merge_and_unload"):  # LoRA: sample from plain merged weights
            snapshot = snapshot.merge_and_unload()
        # the trainer's copy may checkpoint activations, which turns the KV cache off
        getattr(snapshot, "activation_checkpointing_disable",
                snapshot.gradient_checkpointing_disable)()
        snapshot.config.use_cache = True
        snapshot.eval()
        with self.lock:
            self.latest = (version, snapshot)

    def _items(self):
        rng = random.Random(self.settings.seed)
        pairs = [(t, s) for t in self.settings.task_ids for s in self.settings.train_seeds]
        while True:
            rng.shuffle(pairs)
            yield from pairs

    def _run(self) -> None:
        try:
            items = self._items()
            ahead = (self.grpo.max_staleness + 1) * self.grpo.groups_per_step
            batch = 0
            while not self.stop_event.is_set():
                if self.source.outstanding >= ahead or self.latest is None:
                    time.sleep(0.05)  # admission control: the learner is far enough behind
                    continue
                with self.lock:
                    version, model = self.latest
                self.backend.model = model
                pairs = [next(items) for _ in range(self.grpo.groups_per_step)]
                started = time.perf_counter()
                for group in self.sample(pairs, version, sample_seed=self.settings.seed
                                         * 1_000_003 + batch):
                    self.source.put(group)
                self.sampling_seconds += time.perf_counter() - started
                self.groups_sampled += len(pairs)
                batch += 1
                self.on_sampled()
        except BaseException as exc:  # noqa: BLE001 - surfaced to the caller by join()
            self.error = exc

    def sample(self, pairs: Sequence[tuple[str, int]], version: int, sample_seed: int
               ) -> list[ScoredGroup]:
        """A scored group per (task, seed): layout episodes, or single-turn answers."""
        from designrl.tasks.layout.env import LAYOUT_TASK_IDS

        layout = [p for p in pairs if p[0] in LAYOUT_TASK_IDS]
        single = [p for p in pairs if p[0] not in LAYOUT_TASK_IDS]
        groups = self._layout_groups(layout, version, sample_seed) if layout else []
        if single:
            groups += self._single_turn_groups(single, version, sample_seed)
        return groups

    def _single_turn_groups(self, pairs: Sequence[tuple[str, int]], version: int,
                            sample_seed: int) -> list[ScoredGroup]:
        from designrl.learner.single_turn_rollouts import sample_single_turn_groups
        from designrl.rollout.browser import process_runner

        groups = sample_single_turn_groups(
            self.backend, pairs, group_size=self.settings.group_size,
            temperature=self.grpo.temperature, max_tokens=self.settings.completion_tokens,
            sample_seed=sample_seed, version=version, runner=process_runner())
        rewards = [s.reward for g in groups for s in g.samples]
        self.episodes_sampled += len(rewards)
        self.reward_sum += sum(r for r in rewards if r is not None)
        return groups

    def _layout_groups(self, pairs: Sequence[tuple[str, int]], version: int,
                       sample_seed: int) -> list[ScoredGroup]:
        s = self.settings
        episodes = [pair for pair in pairs for _ in range(s.group_size)]
        records = run_layout_batch(self.backend, episodes, temperature=self.grpo.temperature,
                                   sample_seed=sample_seed, prompt_style=s.prompt_style,
                                   max_tokens=s.max_tokens, step_limit=s.step_limit,
                                   name=f"policy-v{version}")
        groups = []
        self.episodes_sampled += len(records)
        self.reward_sum += sum(r["total_reward"] for r in records)
        for n, (task_id, seed) in enumerate(pairs):
            members = records[n * s.group_size:(n + 1) * s.group_size]
            samples = [Sample(episode_id=uuid.uuid4().hex, outcome="ok",
                              reward=r["total_reward"], turns=r["policy_stats"]["turns"])
                       for r in members]
            groups.append(ScoredGroup(group_id=uuid.uuid4().hex, job_id="embedded",
                                      task_id=task_id, item_key=str(seed),
                                      policy=f"policy-v{version}", policy_version=version,
                                      samples=samples))
        return groups

    def start(self) -> None:
        self.thread.start()

    def join(self) -> None:
        self.stop_event.set()
        self.thread.join()


def train_embedded(model_dir: str | Path, output_dir: str | Path,
                   rollouts: RolloutSettings | None = None, grpo: GRPOSettings | None = None,
                   log: Callable[[dict], None] | None = None,
                   progress: Callable[[dict], None] | None = None) -> dict[str, Any]:
    """Train from ``model_dir`` with GRPO on layout rollouts; returns the run's stats.
    The trained model is saved to ``output_dir/final``. ``log`` gets the learner's row per
    update; ``progress`` a ``train_progress`` row after each batch of groups sampled, so
    a run whose groups are all dropped (no update, no ``log``) still reports."""
    check_model_dir(str(model_dir))
    rollouts = rollouts or RolloutSettings()
    grpo = grpo or GRPOSettings()
    source = LocalGroupSource()
    sampler = Sampler(model_dir, rollouts, source, grpo)
    learner = Learner(model_dir, output_dir, source, grpo, publish=sampler.publish, log=log)
    if progress is not None:
        sampler.on_sampled = lambda: progress(train_progress(
            learner.feed.stats, learner.version, groups_sampled=sampler.groups_sampled,
            episodes_sampled=sampler.episodes_sampled, reward_sum=sampler.reward_sum))
    sampler.start()
    started = time.monotonic()
    watchdog = threading.Thread(target=_stop_on_error, args=(sampler, learner), daemon=True)
    watchdog.start()
    try:
        stats = learner.train()
    finally:
        sampler.join()
    if sampler.error is not None:
        raise RuntimeError(f"the rollout thread failed: {sampler.error!r}") from sampler.error
    final = Path(output_dir) / "final"
    learner.trainer.save_model(str(final))
    learner.tokenizer.save_pretrained(final)
    write_prompt_style(final, rollouts.prompt_style or prompt_style_of(model_dir))
    wall = time.monotonic() - started
    return {**stats, "version": learner.version, "wall_seconds": round(wall, 2),
            "groups_sampled": sampler.groups_sampled,
            "rollout_busy_fraction": round(sampler.sampling_seconds / max(1e-9, wall), 4),
            "model_dir": str(final)}


def train_progress(stats: FeedStats, version: int, *, groups_sampled: int,
                   episodes_sampled: int, reward_sum: float) -> dict[str, Any]:
    """Where a run stands: the updates done, groups sampled, trained and dropped by reason
    (the feed's ``stats``), and the mean episode reward sampled so far (None before the
    first episode)."""
    return {"stage": "train", "version": version, "groups_sampled": groups_sampled,
            "groups_trained": stats.groups_trained, "dropped": dict(stats.dropped),
            "reward_mean": reward_sum / episodes_sampled if episodes_sampled else None}


def _stop_on_error(sampler: Sampler, learner: Learner) -> None:
    """Stop the learner's wait for groups if the rollout thread died."""
    sampler.thread.join()
    if sampler.error is not None:
        learner.stop()
