"""A discrete-event model of the stack (simpy): how many episodes a second, and what fills
up first, for a given number of workers, API processes, Postgres, Redis and GPUs.

Every stage an episode goes through costs what the calibration measured
(``scale_calibrate.py``): the API's submit (per job and per episode, with the Postgres
work it waits on), the worker's claim of the episode row (under the job row's lock, as
``store.jobs.claim_episode`` takes it), its run (render and reward, by family), the write
of its record (the same lock; the PNGs, the commit's WAL), Redis's share, the clients'
status polls and, for sampled episodes, the GPU.

CPU is shared the way an operating system shares it (``Host``: processor sharing, each
task at most ``weight`` cores): that is why two workers on this machine's two cores, with
the API, Postgres and Redis beside them, give about 1.6 times one worker, not 2.
"""

from __future__ import annotations

import itertools
import random
from collections import deque
from dataclasses import dataclass, field

import simpy
from processor_sharing import Host  # this folder: run as a script
from scale_inputs import Costs, Family, Hardware, Workload

WORKER_HOSTS = "worker hosts' CPU"


@dataclass
class Result:
    episodes_per_s: float
    utilisation: dict[str, float]  # resource -> busy fraction over the measured window
    cpu_per_episode: dict[str, float]  # component -> CPU seconds per episode
    episodes: int = 0
    seconds: float = 0.0
    extra: dict = field(default_factory=dict)

    @property
    def bottleneck(self) -> str:
        """The busiest shared resource at 90% or more; "workers" when none is (adding
        workers, with their hosts, still adds throughput)."""
        name, busy = max(((n, u) for n, u in self.utilisation.items() if n not in OWN),
                         key=lambda item: item[1], default=("workers", 0.0))
        return name if busy >= 0.9 else "workers"


OWN = ("workers", WORKER_HOSTS)  # what grows with the workers themselves


class EpisodeQueue:
    """The Celery queue: FIFO, a job's episodes kept as one entry (a job of 20,000 is one
    append), handed to waiting workers one episode at a time."""

    def __init__(self, env: simpy.Environment) -> None:
        self.env, self.length = env, 0
        self.jobs: deque[list] = deque()  # [family or None (a mix), job, episodes left]
        self.waiting: deque[simpy.Event] = deque()

    def put(self, family: str | None, job: int, episodes: int) -> None:
        self.jobs.append([family, job, episodes])
        self.length += episodes
        self._hand_out()

    def get(self) -> simpy.Event:
        taken = self.env.event()
        self.waiting.append(taken)
        self._hand_out()
        return taken

    def _hand_out(self) -> None:
        while self.waiting and self.jobs:
            head = self.jobs[0]
            head[2] -= 1
            self.length -= 1
            if head[2] == 0:
                self.jobs.popleft()
            self.waiting.popleft().succeed((head[0], head[1]))


class StackModel:
    """The stack's processes as simpy processes over ``Host``s; a FIFO queue of episodes
    (the Celery queue) between the API and the workers."""

    def __init__(self, costs: Costs, hardware: Hardware, workload: Workload, workers: int,
                 seed: int = 0, stagger_s: float = 0.0) -> None:
        self.env = env = simpy.Environment()
        self.costs, self.hw, self.load, self.workers = costs, hardware, workload, workers
        self.rng = random.Random(seed)
        self.queue = EpisodeQueue(env)
        # Clients keep about one episode per worker waiting: enough to keep them busy, and
        # no more (a job waiting in the queue is polled all the while).
        self.backlog = workers + workload.job_size
        self._low: simpy.Event | None = None
        self.submitting = 0  # episodes of the jobs being submitted now
        self.jobs_left: dict[int, int] = {}
        self._job_ids = itertools.count()
        self.locks: dict[int, simpy.Resource] = {}
        self.lock_spans: dict[int, list[float]] = {}  # job -> [first request, last release, held]
        self.done = 0
        self._busy_workers, self._busy_stamp, self.worker_busy = 0, 0.0, 0.0
        self.stagger = stagger_s > 0
        self._place(workers)
        # Workers that start at one instant and cost the same stay in step forever, every
        # one at Postgres at once: starts ``stagger_s`` apart at random, and runs that vary.
        for i in range(workers):
            env.process(self.worker(self.worker_hosts[i // self.per_host],
                                    self.rng.uniform(0, stagger_s)))

    def _place(self, workers: int) -> None:
        env, hw = self.env, self.hw
        self.wal = self.gpu = self.client = None
        if hw.shared_cores is not None:
            machine = Host(env, hw.shared_cores, "the machine's CPU")
            self.api = self.pg = self.replica = self.client = machine
            self.redis, self.worker_hosts, self.per_host = [machine], [machine], max(1, workers)
            if hw.background_cores > 0:
                env.process(self.background(machine, hw.background_cores))
            return
        self.api = Host(env, hw.api_processes, "API")  # one core a process, at most
        self.pg = Host(env, hw.pg_cores, "Postgres CPU")
        self.replica = (Host(env, hw.pg_cores, "Postgres replica")
                        if self.load.reads_on_replica else self.pg)
        self.wal = Host(env, 1, "Postgres WAL")
        self.redis = [Host(env, 1, "Redis") for _ in range(hw.redis_shards)]  # one thread each
        self.gpu = Host(env, hw.gpus, "GPU") if hw.gpus else None
        self.per_host = hw.workers_per_host
        self.worker_hosts = [Host(env, hw.worker_host_cores, WORKER_HOSTS)
                             for _ in range(-(-workers // hw.workers_per_host))]

    def hosts(self) -> list[Host]:
        every = [self.api, self.pg, self.replica, self.wal, self.gpu, *self.redis,
                 *self.worker_hosts]
        return list({id(h): h for h in every if h is not None}.values())

    # --- the stages
    def submit(self, family: str | None, episodes: int):
        """A client's POST /v1/jobs: the job's rows, then its episodes queued (of one
        family, or of the workload's mix when ``family`` is None)."""
        c = self.costs
        if self.client is not None:
            yield self.client.run(c.submit_client_job_s, tag="client")
        yield self.api.run(c.submit_api_job_s + episodes * c.submit_api_episode_s, tag="api")
        yield self.pg.run(c.submit_pg_job_s + episodes * c.submit_pg_episode_s, tag="postgres")
        yield self.env.timeout(c.submit_wait_s)
        job = next(self._job_ids)
        self.jobs_left[job] = episodes
        self.queue.put(family, job, episodes)
        if self.load.poll_every_s > 0:
            self.env.process(self.job_poller(job))
        return job

    def poll(self):
        """A client's GET /v1/jobs/{id} (the job's progress is counted in Postgres)."""
        c = self.costs
        if self.client is not None:
            yield self.client.run(c.poll_client_s, tag="client")
        yield self.api.run(c.poll_api_s, tag="api")
        pg = self.replica if self.load.reads_on_replica else self.pg
        yield pg.run(c.poll_pg_s, tag="postgres")

    def worker(self, host: Host, start_s: float):
        yield self.env.timeout(start_s)
        while True:
            family, job = yield self.queue.get()
            family = family or self.rng.choices(*zip(*self.load.mix.items(), strict=True))[0]
            if self._low is not None and not self._low.triggered \
                    and self.queue.length < self.backlog:
                self._low.succeed()
            self._count_busy(+1)
            yield from self.episode(host, family, job)
            self._count_busy(-1)
            self.jobs_left[job] -= 1
            self.done += 1

    def episode(self, host: Host, family: str, job: int):
        c, f, art = self.costs, self.costs.families[family], self.load.artifacts_in_pg
        yield self.redis[job % len(self.redis)].run(c.redis_episode_s, tag="redis")
        yield from self.transaction(job, host, c.claim_client_s, c.claim_pg_s, c.claim_wait_s)
        yield host.run(self._run_cpu(f), f.run_parallel, tag="worker")
        yield self.env.timeout(f.run_wait_s)
        if self.gpu is not None and self.load.turns_per_episode:
            yield self.gpu.run(self.load.turns_per_episode / self.hw.gpu_turns_per_s,
                               1 / self.hw.gpu_batch, tag="gpu")
        yield from self.transaction(
            job, host, f.finish_client_s if art else f.finish_client_noart_s,
            f.finish_pg_s if art else f.finish_pg_noart_s, c.finish_wait_s,
            f.finish_wal_bytes if art else f.finish_wal_noart_bytes)
        yield host.run(c.worker_overhead_s, tag="worker")

    def _run_cpu(self, family: Family) -> float:
        if not family.run_cv or not self.stagger:
            return family.run_cpu_s
        shape = 1 / family.run_cv ** 2  # a gamma of that mean and spread
        return self.rng.gammavariate(shape, family.run_cpu_s / shape)

    def transaction(self, job: int, host: Host, client_s: float, pg_s: float, wait_s: float,
                    wal_bytes: float = 0.0):
        """One of the worker's transactions, holding the job row's lock (when it is taken)
        from its first statement to its commit."""
        lock = self._lock(job) if self.load.job_lock else None
        request = lock.request() if lock is not None else None
        if request is not None:
            yield request
        held_from = self.env.now
        yield host.run(client_s, tag="worker")
        yield self.pg.run(pg_s, tag="postgres")
        if self.wal is not None and wal_bytes:
            yield self.wal.run(wal_bytes / (self.hw.pg_wal_mb_s * 1e6), tag="wal")
        yield self.env.timeout(wait_s)
        if request is not None:
            lock.release(request)
            span = self.lock_spans[job]
            span[1] = self.env.now
            span[2] += self.env.now - held_from

    def _lock(self, job: int) -> simpy.Resource:
        if job not in self.locks:
            self.locks[job] = simpy.Resource(self.env, 1)
            self.lock_spans[job] = [self.env.now, self.env.now, 0.0]
        return self.locks[job]

    def _count_busy(self, change: int) -> None:
        self.worker_busy += self._busy_workers * (self.env.now - self._busy_stamp)
        self._busy_workers += change
        self._busy_stamp = self.env.now

    # --- the clients
    def feeder(self):
        """A client that submits a job whenever the queue runs below ``backlog``."""
        while True:
            while self.queue.length + self.submitting >= self.backlog:
                if self._low is None or self._low.triggered:
                    self._low = self.env.event()
                yield self._low
            self.submitting += self.load.job_size
            yield from self.submit(None, self.load.job_size)
            self.submitting -= self.load.job_size

    def background(self, machine: Host, cores: float):
        """Other processes on a shared machine (other sessions' jobs) wanting ``cores``."""
        while True:
            yield machine.run(0.05 * cores, cores, tag="other")

    def job_poller(self, job: int):
        """The job's client, waiting for it as ``pipeline_overhead``'s does, less often."""
        while self.jobs_left[job] > 0:
            yield self.env.timeout(self.load.poll_every_s)
            yield from self.poll()

    # --- what a window measured
    def snapshot(self) -> dict:
        self._count_busy(0)
        return {"t": self.env.now, "done": self.done, "workers": self.worker_busy,
                "busy": [h.busy_now() for h in self.hosts()],
                "held": {job: span[2] for job, span in self.lock_spans.items()},
                "work": [dict(h.work) for h in self.hosts()]}

    def result(self, start: dict, end: dict) -> Result:
        seconds, episodes = end["t"] - start["t"], end["done"] - start["done"]
        use: dict[str, float] = {"workers": (end["workers"] - start["workers"])
                                 / (self.workers * seconds)}
        cpu: dict[str, float] = {}
        for host, b0, b1, w0, w1 in zip(self.hosts(), start["busy"], end["busy"],
                                        start["work"], end["work"], strict=True):
            use[host.name] = max(use.get(host.name, 0.0), (b1 - b0) / (host.cores * seconds))
            for tag, work in w1.items():
                if tag not in ("wal", "gpu"):  # not CPU
                    cpu[tag] = cpu.get(tag, 0.0) + (work - w0.get(tag, 0.0)) / max(episodes, 1)
        spans = [(min(last, end["t"]) - max(first, start["t"]), held - start["held"].get(job, 0))
                 for job, (first, last, held) in self.lock_spans.items() if last > start["t"]]
        if spans:
            use["job-row lock"] = sum(h for _, h in spans) / max(sum(s for s, _ in spans), 1e-9)
        connections = self.workers + 5 * self.hw.api_processes  # each pool's steady size
        return Result(episodes / seconds, use, cpu, episodes, seconds,
                      {"pg_connections": connections})


def episode_seconds(costs: Costs, mix: dict[str, float]) -> float:
    """An episode's time through one idle worker (the simulation's unit of time)."""
    total = sum(mix.values())
    families = costs.families
    run = sum(share * (families[f].run_cpu_s / families[f].run_parallel
                       + families[f].run_wait_s) for f, share in mix.items()) / total
    return run + costs.worker_overhead_s


def simulate(costs: Costs, hardware: Hardware, workload: Workload, workers: int,
             seed: int = 0, min_episodes: int = 300) -> Result:
    """Steady state: clients keep the queue fed; measured over a window after a warm-up
    long enough for ``min_episodes`` at the workers' full speed."""
    unit = episode_seconds(costs, workload.mix)
    first_job = (costs.submit_api_job_s + costs.submit_pg_job_s + workload.job_size
                 * (costs.submit_api_episode_s + costs.submit_pg_episode_s))
    model = StackModel(costs, hardware, workload, workers, seed, stagger_s=unit)
    for _ in range(4 * hardware.api_processes):
        model.env.process(model.feeder())
    warm, window = 5 * unit + 2 * first_job, max(20 * unit, min_episodes * unit / workers)
    model.env.run(until=warm)
    start = model.snapshot()
    model.env.run(until=warm + window)
    return model.result(start, model.snapshot())


def simulate_run(costs: Costs, hardware: Hardware, workers: int, jobs: list[tuple[str, int]],
                 poll_s: float = 0.05) -> Result:
    """One client's run, as the bench does it: submit ``jobs`` (family, episodes) one after
    another, then poll each until it has completed, ``poll_s`` between polls; timed from
    the first submit to the poll that sees the last job done."""
    model = StackModel(costs, hardware, Workload(mix={}, job_size=1), workers)
    polls = [0]

    def client():
        ids = []
        for family, episodes in jobs:
            ids.append((yield from model.submit(family, episodes)))
        for job in ids:
            while True:
                yield from model.poll()
                polls[0] += 1
                if model.jobs_left[job] == 0:
                    break
                yield model.env.timeout(poll_s)

    start = model.snapshot()
    model.env.run(until=model.env.process(client()))
    result = model.result(start, model.snapshot())
    result.extra["polls"] = polls[0]
    return result
