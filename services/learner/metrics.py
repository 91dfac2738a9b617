"""The learner's Prometheus metrics (names prefixed ``designrl_learner_``)."""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

VERSION = Gauge("designrl_learner_policy_version", "The newest policy version published")
UPDATES = Counter("designrl_learner_updates", "Optimizer updates")
GROUPS_TRAINED = Counter("designrl_learner_groups_trained", "Scored groups trained on")
GROUPS_DROPPED = Counter("designrl_learner_groups_dropped", "Scored groups dropped, by reason",
                         ["reason"])
STALENESS = Histogram("designrl_learner_staleness_versions", "Versions between a trained "
                      "group's sampling policy and the policy it trained",
                      buckets=(0, 1, 2, 3, 4, 6, 8, 16))
IDLE_FRACTION = Gauge("designrl_learner_idle_fraction", "Share of the learner's time spent "
                      "waiting for scored groups")
STEP_SECONDS = Histogram("designrl_learner_step_seconds", "Time per update, waiting included",
                         buckets=(0.1, 0.5, 1, 2, 5, 10, 30, 60, 120, 300))
REWARD = Gauge("designrl_learner_group_reward_mean", "Mean reward of the last update's groups")
VALID_ACTION_RATE = Gauge("designrl_learner_valid_action_rate",
                          "Share of the last update's turns that parsed as a valid action")
LOSS = Gauge("designrl_learner_loss", "The last update's loss")
KL = Gauge("designrl_learner_kl", "KL to the starting weights (when beta > 0)")

_seen_dropped: dict[str, int] = {}


def observe(row: dict) -> None:
    """One update's curve row (``Learner``'s log callback) into the metrics."""
    UPDATES.inc()
    VERSION.set(row["version"])
    IDLE_FRACTION.set(row["idle_fraction"])
    STEP_SECONDS.observe(row["seconds"])
    GROUPS_TRAINED.inc(len(row.get("staleness", [])))
    for versions in row.get("staleness", []):
        STALENESS.observe(versions)
    for reason, count in row["dropped"].items():
        GROUPS_DROPPED.labels(reason).inc(count - _seen_dropped.get(reason, 0))
        _seen_dropped[reason] = count
    for gauge, key in ((REWARD, "group_reward_mean"), (VALID_ACTION_RATE, "valid_action_rate"),
                       (LOSS, "loss"), (KL, "kl")):
        if key in row:
            gauge.set(row[key])
