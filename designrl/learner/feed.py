"""``GroupFeed``: the learner's batches, drawn from a group source with staleness bounded.

Each batch is ``groups_per_step`` groups with signal, oldest first as delivered.
A group is dropped (acknowledged at once, never trained on, counted by reason) when

* ``stale``: it was sampled more than ``max_staleness`` versions before the policy
  now being trained (``version - group.policy_version > max_staleness``);
* ``no_signal``: its rewards do not vary, so every advantage is 0;
* ``malformed``: it could not be read or has no token ids to train on;
* ``duplicate``: a group with its id was trained on already (a publish repeated,
  or a checkpointed group whose acknowledgement was lost).

Trained groups are acknowledged by ``commit()``, which the learner calls once a
checkpoint holds the update; until then they stay pending in the source, so a
learner that dies before its checkpoint trains on them again from that checkpoint
and none twice into one model.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from dataclasses import dataclass, field

from designrl.learner.batch import MalformedGroup, ScaleRewards, TurnSample, turn_samples
from designrl.learner.sources import Delivery, GroupSource
from designrl.rollout.groups import ScoredGroup


class FeedStopped(Exception):
    """The feed was stopped while the learner waited for groups."""


@dataclass
class FeedStats:
    started: float = field(default_factory=time.monotonic)
    idle_seconds: float = 0.0  # waiting for groups
    groups_trained: int = 0
    turns_trained: int = 0
    dropped: Counter = field(default_factory=Counter)  # reason -> groups
    staleness: Counter = field(default_factory=Counter)  # versions behind -> trained groups

    @classmethod
    def resumed(cls, saved: dict) -> FeedStats:
        """Counts carried over from a checkpoint (idle time starts afresh)."""
        return cls(groups_trained=saved.get("groups_trained", 0),
                   turns_trained=saved.get("turns_trained", 0),
                   dropped=Counter(saved.get("dropped", {})),
                   staleness=Counter({int(k): v for k, v in saved.get("staleness", {}).items()}))

    def idle_fraction(self) -> float:
        return self.idle_seconds / max(1e-9, time.monotonic() - self.started)

    def as_dict(self) -> dict:
        return {"idle_seconds": round(self.idle_seconds, 3),
                "idle_fraction": round(self.idle_fraction(), 4),
                "groups_trained": self.groups_trained, "turns_trained": self.turns_trained,
                "dropped": dict(self.dropped),
                "staleness": {str(k): v for k, v in sorted(self.staleness.items())}}


@dataclass(frozen=True)
class Batch:
    samples: list[TurnSample]
    groups: list[ScoredGroup]
    staleness: list[int]


class GroupFeed:
    def __init__(self, source: GroupSource, prompt_ids_of, *, groups_per_step: int = 2,
                 max_staleness: int = 1, scale: ScaleRewards = "group",
                 trained_ids: set[str] | None = None, poll_s: float = 1.0) -> None:
        self.source = source
        self.prompt_ids_of = prompt_ids_of
        self.groups_per_step = groups_per_step
        self.max_staleness = max_staleness
        self.scale = scale
        self.trained_ids: set[str] = set(trained_ids or ())  # committed or in the model now
        self.poll_s = poll_s
        self.stats = FeedStats()
        self.stop_event = threading.Event()
        self._uncommitted: list[str] = []  # entry ids trained on since the last commit
        self._dropped_log: list[tuple[str, str]] = []  # (group id, reason), for tests and logs

    @property
    def dropped_log(self) -> list[tuple[str, str]]:
        return list(self._dropped_log)

    def next_batch(self, version: int) -> Batch:
        """Block until ``groups_per_step`` usable groups are in; raises ``FeedStopped``."""
        samples: list[TurnSample] = []
        groups: list[ScoredGroup] = []
        staleness: list[int] = []
        while len(groups) < self.groups_per_step:
            if self.stop_event.is_set():
                raise FeedStopped()
            waited = time.monotonic()
            deliveries = self.source.read(self.groups_per_step - len(groups), self.poll_s)
            self.stats.idle_seconds += time.monotonic() - waited
            for delivery in deliveries:
                taken = self._take(delivery, version)
                if taken is not None:
                    samples += taken
                    groups.append(delivery.group)
                    staleness.append(version - (delivery.group.policy_version or 0))
                    self._uncommitted.append(delivery.entry_id)
                    self.trained_ids.add(delivery.group.group_id)
        self.stats.groups_trained += len(groups)
        self.stats.turns_trained += len(samples)
        self.stats.staleness.update(staleness)
        return Batch(samples, groups, staleness)

    def _take(self, delivery: Delivery, version: int) -> list[TurnSample] | None:
        group = delivery.group
        if group is None:
            return self._drop(delivery, "malformed", delivery.error)
        if group.group_id in self.trained_ids:
            return self._drop(delivery, "duplicate")
        sampled_at = group.policy_version or 0
        if version - sampled_at > self.max_staleness:
            return self._drop(delivery, "stale")
        try:
            samples = turn_samples(group, self.prompt_ids_of, self.scale)
        except MalformedGroup as exc:
            return self._drop(delivery, "malformed", str(exc))
        if not samples:
            return self._drop(delivery, "no_signal")
        return samples

    def _drop(self, delivery: Delivery, reason: str, detail: str | None = None) -> None:
        self.source.ack([delivery.entry_id])
        self.stats.dropped[reason] += 1
        group_id = delivery.group.group_id if delivery.group else delivery.entry_id
        self._dropped_log.append((group_id, reason if detail is None else f"{reason}: {detail}"))
        return None

    def commit(self) -> int:
        """Acknowledge every group trained on since the last commit; returns how many."""
        entries, self._uncommitted = self._uncommitted, []
        self.source.ack(entries)
        return len(entries)

    def stop(self) -> None:
        self.stop_event.set()
