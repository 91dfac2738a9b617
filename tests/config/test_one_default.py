"""A default lives once, in ``designrl.config``: the services' settings and the
``designrl`` command's options take theirs from the same field."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from designrl.cli import build_parser
from designrl.config import GRPOSettings, QueueConfig, RolloutSettings, SFTWorkflowConfig

ROOT = Path(__file__).resolve().parents[2]


def _defaults(argv: list[str]) -> dict:
    return vars(build_parser().parse_args(argv))


def test_the_command_shows_and_uses_the_configs_defaults():
    train = _defaults(["train", "--model", "m", "--out", "o"])
    assert train["steps"] == GRPOSettings.model_fields["max_steps"].default
    assert train["group_size"] == RolloutSettings.model_fields["group_size"].default
    assert train["train_seeds"] == RolloutSettings().train_seeds
    sft = _defaults(["sft", "--model", "m", "--out", "o"])
    assert sft["step_limit"] == SFTWorkflowConfig.model_fields["step_limit"].default
    assert _defaults(["stack", "up"])["queue"] == QueueConfig.model_fields["queue"].default


def test_changing_a_default_in_the_config_changes_it_for_the_command_and_the_services(
        tmp_path):
    """Edit four defaults in a copy of ``designrl/config`` alone, then, in a fresh
    interpreter that imports that copy, read them back from the CLI's parser and each
    service's settings."""
    copy = shutil.copytree(ROOT / "designrl" / "config", tmp_path / "config")
    for name, old, new in (
            ("common.py", 'queue: str = Field("episodes"', 'queue: str = Field("changed-queue"'),
            ("common.py", 'GROUPS_STREAM = "designrl:groups"', 'GROUPS_STREAM = "changed-stream"'),
            ("common.py", 'VERSION_KEY = "designrl:policy_version"',
             'VERSION_KEY = "changed-key"'),
            ("training.py", "max_steps: int = Field(40,", "max_steps: int = Field(7,")):
        source = (copy / name).read_text()
        assert source.count(old) == 1, (name, old)
        (copy / name).write_text(source.replace(old, new))
    code = f"""
import json
import designrl
designrl.__path__.insert(0, {str(tmp_path)!r})  # the edited designrl.config
from designrl.cli import build_parser
from services.api.settings import ApiSettings
from services.learner.settings import LearnerSettings
from services.renderer.settings import RendererSettings
cli = build_parser()
print(json.dumps({{
    "cli_queue": cli.parse_args(["stack", "up"]).queue,
    "cli_steps": cli.parse_args(["train", "--model", "m", "--out", "o"]).steps,
    "api": [ApiSettings().queue, ApiSettings().groups_stream, ApiSettings().version_key],
    "renderer": [RendererSettings().queue, RendererSettings().groups_stream,
                 RendererSettings().version_key],
    "learner": [LearnerSettings(model_dir="m").groups_stream,
                LearnerSettings(model_dir="m").version_key,
                LearnerSettings(model_dir="m").grpo.max_steps],
}}))
"""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("DESIGNRL_") and k not in ("REDIS_URL", "DATABASE_URL")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True)
    assert json.loads(out.stdout) == {"cli_queue": "changed-queue", "cli_steps": 7,
                                      "api": ["changed-queue", "changed-stream", "changed-key"],
                                      "renderer": ["changed-queue", "changed-stream",
                                                   "changed-key"],
                                      "learner": ["changed-stream", "changed-key", 7]}
