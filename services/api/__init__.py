"""The REST API: benchmark and rollout jobs, episodes, health, metrics, the layout env."""
