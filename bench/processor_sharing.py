"""``Host``: CPU cores shared by the processes on one machine, for the scale model
(``scale_sim.py``).

Processor sharing: every task running gets an equal slice per unit of ``weight``, and no
task more than ``weight`` cores (one thread: 1). Two CPU-bound workers on one core each
run at half speed; on two cores with the API and Postgres beside them, at a little less
than full speed. Kept in virtual time (the work a weight-1 task has received), so that a
task's start and end cost O(log n) however many share the host.
"""

from __future__ import annotations

import heapq
import itertools

import simpy


class Host:
    """``cores`` shared by the tasks running on them: each gets cores in proportion to its
    ``weight`` and at most ``weight`` of them (egalitarian processor sharing, kept in
    virtual time so that a task's start and end cost O(log n))."""

    def __init__(self, env: simpy.Environment, cores: float, name: str) -> None:
        self.env, self.cores, self.name = env, cores, name
        self.tasks: list = []  # heap of (virtual finish, n, event, weight)
        self.weight = 0.0  # of the tasks running
        self.virtual = 0.0  # work a weight-1 task has received since the start
        self.stamp = 0.0
        self.busy = 0.0  # core-seconds used
        self.work: dict[str, float] = {}  # CPU seconds asked, by who asked
        self._count = itertools.count()
        self._generation = 0

    def run(self, work: float, weight: float = 1.0, tag: str = "") -> simpy.Event:
        """An event that fires when ``work`` CPU seconds have been done."""
        done = self.env.event()
        self.work[tag] = self.work.get(tag, 0.0) + work
        if work <= 0:
            return done.succeed()
        self._advance()
        heapq.heappush(self.tasks, (self.virtual + work / weight, next(self._count), done,
                                    weight))
        self.weight += weight
        self._schedule()
        return done

    def busy_now(self) -> float:
        self._advance()
        return self.busy

    def _rate(self) -> float:
        return min(1.0, self.cores / self.weight) if self.weight > 0 else 0.0

    def _advance(self) -> None:
        dt = self.env.now - self.stamp
        if dt > 0 and self.tasks:
            self.virtual += self._rate() * dt
            self.busy += min(self.cores, self.weight) * dt
        self.stamp = self.env.now

    def _schedule(self) -> None:
        # A timer for the next task to end; a start or end in between makes it stale.
        self._generation += 1
        if self.tasks:
            generation = self._generation
            delay = max(0.0, (self.tasks[0][0] - self.virtual) / self._rate())
            self.env.timeout(delay).callbacks.append(lambda _e: self._tick(generation))

    def _tick(self, generation: int) -> None:
        if generation != self._generation:
            return
        self._advance()
        while self.tasks and self.tasks[0][0] <= self.virtual + 1e-9:
            _, _, done, weight = heapq.heappop(self.tasks)
            self.weight -= weight
            done.succeed()
        if not self.tasks:
            self.weight = 0.0  # no drift left over
        self._schedule()
