"""The deployment files, checked the way their tools would (no Docker here): the compose file
against the Compose specification's JSON schema, the Prometheus config with promtool, the
Grafana dashboard against the metrics our services really export."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml
from dashboard_support import VLLM_LOGGERS, VLLM_METRICS, exposed, queried

from services.stack import LocalStack, StackConfig

ROOT = Path(__file__).resolve().parents[1]
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
SCHEMA = Path(sys.prefix) / "compose-spec.json"  # put there by `make setup`


def required(path: Path, why: str) -> Path:
    if not path.exists():
        if os.environ.get("CI"):
            raise AssertionError(f"{path} is missing ({why})")
        pytest.skip(f"{path} is missing ({why})")
    return path


def test_compose_file_follows_the_compose_specification():
    schema = json.loads(required(SCHEMA, "`make setup` fetches it").read_text())
    jsonschema.Draft201909Validator(schema).validate(COMPOSE)
    broken = {**COMPOSE, "services": {**COMPOSE["services"], "api": {
        **COMPOSE["services"]["api"], "depends_on": {"redis": {"condition": "eventually"}}}}}
    with pytest.raises(jsonschema.ValidationError):  # the schema does bite
        jsonschema.Draft201909Validator(schema).validate(broken)


def test_compose_runs_every_service_and_renderers_scale():
    services = COMPOSE["services"]
    assert {"redis", "postgres", "migrate", "api", "renderer", "inference", "prometheus",
            "grafana"} <= set(services)
    renderer = services["renderer"]
    assert "container_name" not in renderer and "ports" not in renderer  # --scale renderer=N
    for name in ("redis", "postgres", "api", "renderer", "inference"):
        assert "healthcheck" in services[name], name
    assert services["api"]["depends_on"]["migrate"]["condition"] == \
        "service_completed_successfully"
    assert "gpu" in services["inference"]["profiles"]


def test_compose_and_designrl_stack_up_run_the_same_commands(tmp_path):
    stack = LocalStack(StackConfig("sqlite://", workers=0))
    spawned = []
    stack._spawn = lambda name, args, env=None: spawned.append(args)  # record, do not run
    stack._wait_healthy = lambda *a, **k: None
    stack.start_api()
    stack.start_worker("w")
    stack.stop()
    api, worker = spawned
    assert api[api.index("uvicorn"):api.index("--host")] == \
        COMPOSE["services"]["api"]["command"][:2]
    command = COMPOSE["services"]["renderer"]["command"]
    assert worker[worker.index("celery"):worker.index("celery") + 5] == command[:5]


def dockerfile_stages() -> dict[str, str]:
    """Each build stage of deploy/Dockerfile by name, with its instructions."""
    parts = re.split(r"^FROM \S+ AS (\w+)$", (ROOT / "deploy" / "Dockerfile").read_text(),
                     flags=re.M)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def installed_extras(body: str) -> set[str]:
    """The extras whose requirements a stage installs (``requirements.py EXTRAS``, before the
    code); its ``pip install --no-deps '.[...]'`` of the code must name the same ones."""
    found = re.findall(r"python requirements\.py ([\w,]+)", body)
    named = re.findall(r"pip install [^\n]*--no-deps '\.\[([\w,]+)\]'", body)
    assert found == named, (found, named)
    return {extra for extras in found for extra in extras.split(",")}


def test_each_service_image_installs_the_extras_it_imports():
    """The learner imports TRL (the train extra); the API and workers render (render)."""
    stages = dockerfile_stages()
    services = COMPOSE["services"]
    target = {name: services[name]["build"]["target"] for name in ("api", "renderer", "learner")}
    assert target["api"] == target["renderer"] == "app" and target["learner"] == "learner"
    assert services["learner"]["image"] != services["api"]["image"]
    assert {"services", "render"} <= installed_extras(stages["app"])
    assert {"services", "train"} <= installed_extras(stages["learner"])
    assert "train" not in installed_extras(stages["app"])  # the app image stays light
    assert "USER designrl" in stages["app"] and "USER designrl" in stages["learner"]


def test_the_local_override_uses_only_images_make_images_builds():
    """deploy/compose.local.yml swaps every started service onto an image built here."""
    local = yaml.safe_load((ROOT / "deploy" / "compose.local.yml").read_text())
    schema = json.loads(required(SCHEMA, "`make setup` fetches it").read_text())
    jsonschema.Draft201909Validator(schema).validate(local)
    built = set(re.findall(r"^build (\S+) ", (ROOT / "deploy" / "images" / "build.sh").read_text(),
                           re.M))
    for name in COMPOSE["services"]:
        override = local["services"].get(name, {})
        if name == "inference" or "upstream" in override.get("profiles", ()):
            continue  # vLLM's own image (GPU); Grafana: no Debian package
        assert override.get("image", "").removeprefix("localhost/") in built, name
    assert local["services"]["learner"]["build"]["target"] == "learner"


def test_env_example_documents_every_variable_compose_reads():
    used = set(re.findall(r"\$\{(\w+)", (ROOT / "docker-compose.yml").read_text()))
    documented = {line.split("=", 1)[0] for line in
                  (ROOT / "deploy" / "env.example").read_text().splitlines()
                  if line and not line.startswith("#")}
    assert used <= documented, used - documented


def test_promtool_accepts_the_prometheus_config():
    promtool = shutil.which("promtool")
    if promtool is None:
        required(Path("/usr/bin/promtool"), "`make setup` installs Debian's prometheus")
    run = subprocess.run([promtool, "check", "config", str(ROOT / "deploy" / "prometheus.yml")],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_dashboard_only_queries_metrics_we_export():
    from services.api import metrics as api_metrics
    from services.learner import metrics as learner_metrics
    from services.renderer import metrics as worker_metrics

    exported = {"designrl_queue_depth", "designrl_episodes"}
    for module in (api_metrics, worker_metrics, learner_metrics):
        for value in vars(module).values():
            if hasattr(value, "_name") and hasattr(value, "_type"):
                kind = {"counter": "counter", "histogram": "histogram"}.get(value._type, "gauge")
                exported |= exposed(value._name, kind)
    queried_ours = queried("designrl_")
    assert queried_ours and queried_ours <= exported, queried_ours - exported
    assert {n for n in queried_ours if n.startswith("designrl_learner_")}, "no learner panel"
    vllm = set().union(*(exposed(n, k) for n, k in VLLM_METRICS.items()))
    queried_vllm = queried("vllm:")
    assert queried_vllm and queried_vllm <= vllm, queried_vllm - vllm


def test_the_vllm_metrics_listed_are_declared_by_the_pinned_vllm():
    """The list in ``dashboard_support`` against the source of the vLLM ``make setup``
    installs: each name declared, as the kind the list says."""
    site = ROOT / ".venv-vllm" / "lib"
    found = sorted(site.glob(f"python3*/site-packages/{VLLM_LOGGERS}"))
    source = required(found[0] if found else site / VLLM_LOGGERS,
                      "`make setup` builds the vLLM venv").read_text()
    declared = {name: kind for kind, name in re.findall(
        r"self\._(gauge|counter|histogram)_cls\(\s*name=\"(vllm:\w+)\"", source)}
    assert len(declared) > 20, "the pattern no longer finds vLLM's metrics"
    assert {n: declared.get(n) for n in VLLM_METRICS} == VLLM_METRICS
