"""Every command and route the README names is real, checked without running anything:
each ``designrl`` command parses with the CLI's own parser (and a ``bench`` plan names known
tasks, policies and seeds), each ``curl`` reaches a route of the API with a body its model
accepts, each ``python -m``, ``python -c``, ``make`` and ``docker compose`` names what
exists, each Python block compiles and imports names that exist, each repository path,
link and route in the prose exists; and the other way round, every subcommand and every
``/v1`` route is in the README. The runnable blocks also run: ``test_readme_runnable.py``.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import re
import subprocess

import pytest
import yaml
from pydantic import TypeAdapter, ValidationError
from readme_support import README, ROOT, blocks, shell_commands

from designrl.cli import build_parser
from designrl.cli.args import UsageError

TEXT = README.read_text(encoding="utf-8")
BLOCKS = blocks()
COMMAND_LINES = [(block, words) for block in BLOCKS if block.shell
                 for words in shell_commands(block.code)]
PROGRAMS = {"designrl", "python", "curl", "make", "docker", "cp", "grep", "sleep", "source",
            "kubectl", "celery", ".venv-compose/bin/podman-compose"}
TOP = ("designrl/", "services/", "tests/", "bench/", "deploy/", "configs/")
TOP_FILES = ("Makefile", "docker-compose.yml", "setup.py", "pyproject.toml", "README.md")


def commands(program: str) -> list:
    return [pytest.param(words, id=f"{block.name}:{' '.join(words)[:60]}")
            for block, words in COMMAND_LINES if words[0] == program]


@pytest.fixture(scope="module")
def app():
    from services.api.main import create_app
    from services.api.settings import ApiSettings

    return create_app(ApiSettings(database_url="sqlite://"))  # never started: routes only


def test_the_readme_has_runnable_blocks_of_both_kinds_and_no_stray_fence():
    runnable = [b for b in BLOCKS if b.runnable]
    assert {b.language for b in runnable} == {"sh", "python"}, runnable
    assert len(runnable) >= 5
    assert TEXT.count("<!-- runnable -->") == len(runnable), "a marker not right above a fence"


def test_every_shell_command_is_a_program_the_readme_means():
    unknown = {words[0] for _, words in COMMAND_LINES} - PROGRAMS
    assert not unknown, unknown


@pytest.mark.parametrize("words", commands("designrl"))
def test_every_designrl_command_parses(words, capsys):
    try:
        args = build_parser().parse_args(words[1:])
    except SystemExit:
        pytest.fail(f"`{' '.join(words)}` does not parse: {capsys.readouterr().err}")
    if args.command == "bench" and not (args.path or args.predictions or any(
            p.startswith("llm:") for p in args.policies or ())):
        from designrl.cli.bench import _check_seeds, _plan

        try:
            _check_seeds(args, _plan(args).cases())
        except (ValueError, UsageError) as exc:
            pytest.fail(f"`{' '.join(words)}`: {exc}")


def curl_request(words: list[str]) -> tuple[str, str, str | None]:
    """(method, path, body) of a curl command."""
    method, body, url, i = None, None, None, 1
    while i < len(words):
        word = words[i]
        if word in ("-X", "--request"):
            method, i = words[i + 1], i + 2
        elif word in ("-d", "--data", "--data-raw"):
            body, i = words[i + 1], i + 2
        elif word in ("-H", "--header", "-o", "--output"):
            i += 2
        elif word.startswith("-"):
            i += 1
        else:
            url, i = word, i + 1
    assert url, words
    path = re.sub(r"^(\$API|(https?://)?localhost:8000)", "", url)
    assert path.startswith("/"), f"{url}: the API is $API or localhost:8000"
    return method or ("POST" if body is not None else "GET"), path, body


def api_routes(routes):
    from fastapi.routing import APIRoute

    for route in routes:
        if isinstance(route, APIRoute):
            yield route
        elif hasattr(route, "original_router"):  # a router included as a whole
            yield from api_routes(route.original_router.routes)


def route_matches(app, method: str, path: str) -> bool:
    from starlette.routing import Match

    scope = {"type": "http", "method": method, "path": path, "root_path": "", "path_params": {}}
    return any(route.matches(scope)[0] == Match.FULL for route in app.router.routes)


@pytest.mark.parametrize("words", commands("curl"))
def test_every_curl_reaches_a_route_with_a_body_it_takes(words, app):
    import json

    method, path, body = curl_request(words)
    assert route_matches(app, method, path), f"no route for {method} {path}"
    if body is None:
        return
    (route,) = [r for r in api_routes(app.router.routes)
                if method in r.methods and r.path_regex.match(path)]
    try:
        TypeAdapter(route.body_field.field_info.annotation).validate_python(json.loads(body))
    except (ValueError, ValidationError) as exc:
        pytest.fail(f"{method} {path} refuses {body}: {exc}")


def test_every_route_the_prose_names_exists(app):
    named = re.findall(r"`(GET|POST|PUT|PATCH|DELETE) (/[^`\s]*)`", TEXT)
    bare = re.findall(r"`((?:/v1|/healthz|/readyz|/metrics|/docs|/redoc|/ui|/env)[^`\s]*)`",
                      TEXT)
    assert len(named) > 20
    for method, path in [*named, *(("GET", p) for p in bare)]:
        concrete = re.sub(r"\{\w+\}", "x", path)  # the layout env's own, as under /env
        assert route_matches(app, method, concrete) or \
            route_matches(app, method, "/env" + concrete), f"{method} {path}"


def test_every_v1_route_and_every_subcommand_is_in_the_readme(app):
    for route in api_routes(app.router.routes):
        if route.path.startswith(("/v1/", "/healthz", "/readyz")):
            for method in route.methods - {"HEAD"}:
                assert f"{method} {route.path}" in TEXT, f"{method} {route.path}"
    import argparse

    (sub,) = (a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    for name, parser in sub.choices.items():
        actions = [a.choices for a in parser._actions if not a.option_strings and a.choices]
        for action in actions[0] if actions else [""]:
            assert f"designrl {name} {action}".strip() in TEXT, f"designrl {name} {action}"


@pytest.mark.parametrize("words", commands("python"))
def test_every_python_command_names_a_module_file_or_code_that_exists(words):
    if words[1] == "-m":
        assert importlib.util.find_spec(words[2]) is not None, words[2]
    elif words[1] == "-c":
        check_imports(words[2], f"python -c {words[2][:40]}")
    else:
        assert (ROOT / words[1]).is_file(), words[1]


@pytest.mark.parametrize("words", commands("make") + commands("docker") + commands("cp")
                         + commands(".venv-compose/bin/podman-compose"))
def test_make_targets_compose_services_and_copied_files_exist(words):
    if words[0] == "make":
        targets = re.findall(r"^([\w-]+):", (ROOT / "Makefile").read_text(), re.M)
        assert set(words[1:]) <= set(targets), words
    elif words[0] in ("docker", ".venv-compose/bin/podman-compose"):
        compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
        for flag, value in zip(words, words[1:], strict=False):
            if flag == "--scale":
                assert value.split("=")[0] in compose["services"], value
            if flag == "--profile":
                assert any(value in s.get("profiles", ()) for s in compose["services"].values())
            if flag in ("-f", "--env-file"):
                assert (ROOT / value).is_file(), value
            if flag == "--target":
                dockerfile = (ROOT / "deploy" / "Dockerfile").read_text()
                assert re.search(rf"^FROM \S+ AS {value}$", dockerfile, re.M), value
    else:
        assert (ROOT / words[1]).is_file(), words[1]


@pytest.mark.parametrize("words", commands("kubectl") + commands("celery"))
def test_kubectl_and_celery_name_what_exists(words):
    """kubectl's folder and the Deployments it names are ours; celery's app imports."""
    k8s = [doc for path in (ROOT / "deploy" / "k8s").glob("*.yaml")
           for doc in yaml.safe_load_all(path.read_text()) if doc]
    for flag, value in zip(words, words[1:], strict=False):
        if flag == "-k":
            assert (ROOT / value / "kustomization.yaml").is_file(), value
        if flag == "-A":
            assert importlib.util.find_spec(value), value
        if value.startswith(("deploy/", "job/", "svc/")) and flag != "-k":
            kind, name = value.split("/")
            kind = {"deploy": "Deployment", "job": "Job", "svc": "Service"}[kind]
            assert any(d["kind"] == kind and d["metadata"]["name"] == name for d in k8s), value


@pytest.mark.parametrize("block", [b for b in BLOCKS if b.language == "python"],
                         ids=lambda b: b.name)
def test_every_python_block_compiles_and_imports_what_exists(block):
    check_imports(block.code, block.name)


OWN_VENVS = {"eval_protocol": ".venv-ep", "vllm": ".venv-vllm"}
"""Packages a README block imports that live in their own virtualenv (``make setup``)."""


def check_imports(code: str, where: str) -> None:
    """``code`` compiles; the project's modules it imports from have the names it takes,
    and other packages it imports are installed (not imported: they may be slow)."""
    tree = ast.parse(code, where)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            modules, names = [node.module], [a.name for a in node.names if a.name != "*"]
        elif isinstance(node, ast.Import):
            modules, names = [a.name for a in node.names], []
        else:
            continue
        for module in modules:
            if module.split(".")[0] in ("designrl", "services"):
                imported = importlib.import_module(module)
                missing = [n for n in names if not hasattr(imported, n)]
                assert not missing, f"{where}: {module} has no {missing}"
            elif module.split(".")[0] in OWN_VENVS:  # installed beside ours, not in it
                venv = ROOT / OWN_VENVS[module.split(".")[0]]
                assert list(venv.glob(f"lib/python*/site-packages/{module.split('.')[0]}")), \
                    f"{where}: {module} not in {venv.name} (make setup)"
            else:
                assert importlib.util.find_spec(module.split(".")[0]), f"{where}: {module}"


def test_every_repository_path_in_the_readme_exists():
    spans = re.findall(r"`([^`\s]+)`", TEXT) + re.findall(r"\]\(([^)#\s]+)", TEXT)
    paths = {s.rstrip(".,:") for s in spans if s.startswith(TOP) or s in TOP_FILES}
    assert len(paths) > 40
    missing = [p for p in sorted(paths)
               if not any(ROOT.glob(re.sub(r"<\w+>", "*", p).rstrip("/")))]
    assert not missing, missing


def test_every_link_to_a_section_names_a_heading():
    slugs = {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-")
             for h in re.findall(r"^#+ (.+)$", TEXT, re.M)}
    anchors = re.findall(r"\]\(#([^)]+)\)", TEXT)
    assert anchors and set(anchors) <= slugs, set(anchors) - slugs


def test_no_issue_numbers_and_no_paths_outside_the_repository():
    assert not re.findall(r"\bissues? #?\d+|#\d+\b", TEXT, re.I)
    assert "../" not in TEXT
    assert not re.findall(r"/work/|/home/|/tmp/", TEXT)


def test_the_readme_links_the_measured_results():
    assert "](bench/RESULTS.md)" in TEXT
    results = (ROOT / "bench" / "RESULTS.md").read_text(encoding="utf-8")
    headings = re.findall(r"^#+ (.+)$", results, re.M)
    table = TEXT[TEXT.index("## What is measured"):TEXT.index("## Repository map")]
    sections = {row.rsplit("|", 2)[-2].strip() for row in table.splitlines()
                if row.startswith("| ") and not row.startswith("| what")}
    assert len(sections) > 10
    unknown = [s for s in sections if not any(h.startswith(s) for h in headings)]
    assert not unknown, unknown



def _repository_map() -> tuple[list[str], str]:
    """The paths the README's repository map names as entries (an indented entry is under
    the last one at the margin), and the map's whole text."""
    section = TEXT[TEXT.index("## Repository map"):]
    block = section[section.index("```") + 3:]
    block = block[block.index("\n") + 1:block.index("```")]
    entries, top = [], ""
    for line in block.splitlines():
        if match := re.match(r"^(\S+)\s{2,}", line):
            top = match.group(1)
            entries.append(top)
        elif match := re.match(r"^  (\S+/|\S+\.py)\s{2,}", line):
            entries.append(top + match.group(1))
    return entries, block


def test_the_repository_map_matches_the_tree():
    """Every entry of the map exists, every tracked top-level folder is an entry, and every package
    and module right under ``designrl/`` and ``services/`` is named in the map."""
    entries, block = _repository_map()
    assert len(entries) > 20
    missing = [e for e in entries if not (ROOT / e).exists()]
    assert not missing, f"the map names what is not in the tree: {missing}"
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.split()  # not what tests and builds leave
    folders = {path.split("/")[0] + "/" for path in tracked
               if "/" in path and not path.startswith(".")}
    assert folders <= {e.split("/")[0] + "/" for e in entries}, folders
    named = set(re.findall(r"[\w/]+\.py|[\w/]+/", block))
    unnamed = []
    for package in ("designrl", "services"):
        for path in sorted((ROOT / package).iterdir()):
            if path.name.startswith(("_", ".")):
                continue
            if path.is_dir() and (path / "__init__.py").is_file():
                if f"{path.name}/" not in named and f"{package}/{path.name}/" not in named:
                    unnamed.append(f"{package}/{path.name}/")
            elif path.suffix == ".py" and not any(n.endswith(path.name) for n in named):
                unnamed.append(f"{package}/{path.name}")
    assert not unnamed, f"the map leaves out: {unnamed}"
