"""Dependencies point inward (issue 19): ``designrl/`` imports nothing from ``services/`` and
does not start them by module name. Services import the library, never the reverse; the
``designrl stack`` command lives with the services and reaches the ``designrl`` command
through the ``designrl.commands`` entry point group."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = ROOT / "designrl"
# A module path, file path or package name of the services: "services.api.main:app",
# "-m services.renderer", Path("services") / ..., "services/api". Prose ("the services.")
# does not match.
SERVICE_NAME = re.compile(r"^services$|(?<![\w.])services(\.[A-Za-z_]|/)")


def docstrings(tree: ast.Module) -> set[int]:
    """The ids of the string nodes that are docstrings (prose, never run)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def service_references(source: str) -> list[str]:
    """``line: what`` for each import of a service and each string naming one."""
    tree = ast.parse(source)
    prose = docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""] if node.level == 0 else []
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and id(node) not in prose and SERVICE_NAME.search(node.value):
            found.append(f"{node.lineno}: the string {node.value!r}")
            continue
        else:
            continue
        found += [f"{node.lineno}: import {name}" for name in names
                  if name == "services" or name.startswith("services.")]
    return found


def test_the_library_neither_imports_nor_names_a_service():
    modules = sorted(LIBRARY.rglob("*.py"))
    assert len(modules) > 100
    found = [f"{path.relative_to(ROOT)}:{ref}" for path in modules
             for ref in service_references(path.read_text())]
    assert not found, "designrl/ must not import or start services:\n" + "\n".join(found)


def test_the_check_finds_what_it_looks_for():
    source = ('"""Starts ``services.api.main:app``: prose, allowed."""\n'
              "import services.api\n"
              "from services.renderer import app\n"
              "ARGS = ['-m', 'uvicorn', 'services.api.main:app']\n"
              "HERE = ROOT / 'services'\n"
              "TEXT = 'nothing but the services.'\n")
    found = service_references(source)
    assert [f.split(":")[0] for f in found] == ["2", "3", "4", "5"], found


def test_designrl_stack_is_registered_by_the_services_and_answers():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["entry-points"]["designrl.commands"]["stack"] == "services.stack.command"
    done = subprocess.run([sys.executable, "-m", "designrl.cli", "stack", "--help"],
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 0, "designrl stack is not registered; reinstall the package " \
        "(`make setup` or `pip install -e .`) so its entry points are current\n" + done.stderr
    assert "--log-dir" in done.stdout and "--inference-url" in done.stdout
