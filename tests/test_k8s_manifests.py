"""The Kubernetes manifests under ``deploy/k8s/``, checked without a cluster.

Every core object is validated by kubernetes-validate against the pinned Kubernetes
version's OpenAPI schemas in strict mode (an unknown field is an error). KEDA's
``ScaledObject`` is a custom resource with no schema there, and kubernetes-validate only
warns on a kind it does not know; so it is the one kind exempted, by name, and its fields
are checked here against the rest of the manifests instead (the queue it watches is the
one the workers read, the Deployment it scales exists, ...). Beyond the schemas: probes hit
the API's real routes, configs fit their components, GPU services request GPUs.
"""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path
from urllib.parse import urlparse

import pytest
import yaml
from kubernetes_validate.utils import SchemaNotFoundError, ValidationError, validate

from designrl.config import COMPONENTS
from services.config_file import read_config_file

K8S = Path(__file__).resolve().parents[1] / "deploy" / "k8s"
KUBERNETES_VERSION = "1.33.0"  # the oldest minor we support; strict schemas of that release
KEDA = ("keda.sh/v1alpha1", "ScaledObject")


def load(path: Path) -> list[dict]:
    return [doc for doc in yaml.safe_load_all(path.read_text()) if doc]


KUSTOMIZATION = load(K8S / "kustomization.yaml")[0]
FILES = sorted(p for p in K8S.glob("*.yaml") if p.name != "kustomization.yaml")
OBJECTS = [obj for path in FILES for obj in load(path)]


def find(kind: str, name: str) -> dict:
    return next(o for o in OBJECTS if o["kind"] == kind and o["metadata"]["name"] == name)


def container(name: str) -> dict:
    return find("Deployment", name)["spec"]["template"]["spec"]["containers"][0]


def env_of(c: dict) -> dict[str, dict | str]:
    return {e["name"]: e.get("value", e.get("valueFrom")) for e in c.get("env", [])}


def config_file(name: str) -> dict:
    return tomllib.loads(find("ConfigMap", "designrl-config")["data"][name])


def test_kustomization_applies_every_manifest():
    assert sorted(KUSTOMIZATION["resources"]) == sorted(p.name for p in FILES)


@pytest.mark.parametrize("obj", OBJECTS, ids=lambda o: f"{o['kind']}/{o['metadata']['name']}")
def test_kubernetes_validate_accepts_the_manifest(obj):
    if (obj["apiVersion"], obj["kind"]) == KEDA:
        with pytest.raises(SchemaNotFoundError):  # checked by test_the_scaled_object_*
            validate(obj, KUBERNETES_VERSION, strict=True)
        return
    validate(obj, KUBERNETES_VERSION, strict=True)  # raises SchemaNotFoundError for others


def test_kubernetes_validate_rejects_a_broken_manifest():
    api = find("Deployment", "api")
    misspelt = copy.deepcopy(api)
    probe = misspelt["spec"]["template"]["spec"]["containers"][0]["readinessProbe"]
    probe["httpGet"]["paht"] = probe["httpGet"].pop("path")
    wrong_type = copy.deepcopy(api)
    wrong_type["spec"]["replicas"] = "two"
    for broken in (misspelt, wrong_type):
        with pytest.raises(ValidationError):
            validate(broken, KUBERNETES_VERSION, strict=True)


def test_probes_match_the_api_routes_and_port():
    from services.api.routers.health import router

    routes = {route.path for route in router.routes}
    api = container("api")
    port = api["command"][api["command"].index("--port") + 1]
    assert {p["name"]: p["containerPort"] for p in api["ports"]} == {"http": int(port)}
    assert api["livenessProbe"]["httpGet"] == {"path": "/healthz", "port": "http"}
    assert api["readinessProbe"]["httpGet"] == {"path": "/readyz", "port": "http"}
    assert {"/healthz", "/readyz"} <= routes
    service = find("Service", "api")
    assert service["spec"]["selector"] == find("Deployment", "api")["spec"]["selector"][
        "matchLabels"]
    renderer = container("renderer")
    metrics_port = config_file("renderer.toml")["metrics_port"]
    assert renderer["ports"] == [{"name": "metrics", "containerPort": metrics_port}]


@pytest.mark.parametrize("service,component", [("api", "api"), ("renderer", "renderer"),
                                               ("learner", "learner")])
def test_each_service_reads_its_config_file_and_it_fits(service, component, tmp_path):
    variable = f"DESIGNRL_{component.upper()}_CONFIG"
    c = container(service)
    path = Path(env_of(c)[variable])
    mounts = {m["mountPath"]: m["name"] for m in c["volumeMounts"]}
    assert mounts[str(path.parent)] == "config"
    text = find("ConfigMap", "designrl-config")["data"][path.name]
    (tmp_path / path.name).write_text(text)
    read_config_file(tmp_path / path.name, COMPONENTS[component], variable)  # raises if not


def test_database_url_and_passwords_come_from_the_secret():
    secret = find("Secret", "designrl-secrets")
    keys = set(secret["stringData"])
    for name in ("api", "renderer"):
        ref = env_of(container(name))["DATABASE_URL"]["secretKeyRef"]
        assert ref == {"name": "designrl-secrets", "key": "database-url"}
    job = find("Job", "migrate")["spec"]["template"]["spec"]["containers"][0]
    assert env_of(job)["DATABASE_URL"]["secretKeyRef"]["key"] in keys
    postgres = find("StatefulSet", "postgres")["spec"]["template"]["spec"]["containers"][0]
    assert env_of(postgres)["POSTGRES_PASSWORD"]["secretKeyRef"]["key"] in keys
    assert not any("database_url" in config_file(f) for f in ("api.toml", "renderer.toml"))


def test_learner_and_inference_request_a_gpu_and_the_learner_its_image():
    for name in ("learner", "inference"):
        resources = container(name)["resources"]
        assert resources["limits"]["nvidia.com/gpu"] == 1, name
    assert container("learner")["image"] == "designrl-learner"
    assert container("renderer")["image"] == container("api")["image"] == "designrl"
    assert {"designrl", "designrl-learner"} == {i["name"] for i in KUSTOMIZATION["images"]}


def scaled_object_problems(scaled: dict) -> list[str]:
    """What is wrong with the renderer's ScaledObject, judged against the manifests: KEDA's
    redis (list) trigger fields, the Deployment it scales, the queue and Redis the workers
    use."""
    spec = scaled["spec"]
    problems = []
    if spec.get("scaleTargetRef", {}).get("name") != "renderer":
        problems.append("scaleTargetRef.name is not the renderer Deployment")
    if not 0 <= spec.get("minReplicaCount", 0) <= spec.get("maxReplicaCount", 100):
        problems.append("minReplicaCount must be between 0 and maxReplicaCount")
    triggers = spec.get("triggers", [])
    if len(triggers) != 1 or triggers[0].get("type") != "redis":
        return problems + ["one trigger of type redis (a Redis list's length) is expected"]
    meta = triggers[0]["metadata"]
    worker = config_file("renderer.toml")
    redis = urlparse(worker["redis_url"])
    if meta.get("listName") != worker["queue"]:
        problems.append(f"listName {meta.get('listName')!r} is not the workers' queue "
                        f"{worker['queue']!r}")
    if meta.get("databaseIndex", "0") != (redis.path.strip("/") or "0"):
        problems.append("databaseIndex is not the workers' Redis database")
    host, _, port = meta.get("address", "").partition(":")
    if host.split(".")[0] != redis.hostname or int(port or 0) != redis.port:
        problems.append(f"address {meta.get('address')!r} is not the workers' Redis")
    service_ports = [p["port"] for p in find("Service", redis.hostname)["spec"]["ports"]]
    if redis.port not in service_ports:
        problems.append("the Redis Service does not expose the workers' port")
    for field in ("listLength", "activationListLength"):
        value = meta.get(field, "1")
        if not (isinstance(value, str) and value.isdigit() and int(value) > 0):
            problems.append(f"{field} must be a positive integer as a string (KEDA metadata)")
    return problems


def test_the_scaled_object_scales_renderers_on_the_workers_queue():
    scaled = find("ScaledObject", "renderer")
    assert (scaled["apiVersion"], scaled["kind"]) == KEDA
    assert scaled_object_problems(scaled) == []
    broken = copy.deepcopy(scaled)  # the check does bite: Celery's default queue name
    broken["spec"]["triggers"][0]["metadata"].update(listName="celery", listLength=4)
    assert len(scaled_object_problems(broken)) == 2
