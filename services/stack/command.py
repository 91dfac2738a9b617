"""``designrl stack up``: the API and renderer workers (and vLLM, with ``--inference-model``)
as local processes. The ``designrl`` command finds this module through the
``designrl.commands`` entry point group; like its own subcommands it has ``add_parser(sub)``
and ``run(args)``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from designrl.cli.args import DB_HELP, UsageError, add_option, database_url
from designrl.cli.foreground import wait_until_stopped
from designrl.config.api import ApiConfig
from designrl.config.common import GROUPS_STREAM, REDIS_URL, VERSION_KEY, QueueConfig
from designrl.config.inference import VLLMConfig

if TYPE_CHECKING:
    from services.stack.launcher import StackConfig


def add_parser(sub) -> None:
    stack = sub.add_parser(
        "stack", help="run the API and renderer workers as local processes",
        description="Run the compose stack's API and workers as local processes against the "
                    "local Redis and Postgres (for machines without Docker); each service's "
                    "output goes to the console after its name and to <log-dir>/<name>.log; "
                    "Ctrl-C stops. Relative paths are this directory's.")
    stack.add_argument("action", choices=["up"])
    stack.add_argument("--db", default=None, help=DB_HELP)
    stack.add_argument("--redis", default=None,
                       help=f"Redis URL (default: $REDIS_URL, else {REDIS_URL})")
    stack.add_argument("--groups-stream", default=None,
                       help="the Redis stream workers publish scored groups to, the "
                            "learner's (default: $DESIGNRL_GROUPS_STREAM, else "
                            f"{GROUPS_STREAM})")
    stack.add_argument("--version-key", default=None,
                       help="the Redis key the learner announces its newest version at, "
                            "which `vllm:latest` episodes sample (default: "
                            f"$DESIGNRL_VERSION_KEY, else {VERSION_KEY})")
    stack.add_argument("--workers", type=int, default=2, help="worker processes (default: 2)")
    stack.add_argument("--port", type=int, default=8000, help="API port (default: 8000)")
    stack.add_argument("--metrics-port", type=int, default=0,
                       help="the first worker's /metrics port, the next ones counting up "
                            "(default: 0, free ports; the API's is <api>/metrics)")
    add_option(stack, QueueConfig, "queue")
    add_option(stack, ApiConfig, "training_runs_dir", "--out",
               help="the learner runs and adapter versions the API reads (adapters in "
                    "<out>/adapters)")
    _add_inference_options(stack)
    stack.add_argument("--log-dir", default=None,
                       help="one log file per service, <name>.log (default: <out>/logs)")
    stack.add_argument("--log-level", default="info",
                       choices=["debug", "info", "warning", "error"],
                       help="the services' log level (default: info)")
    stack.add_argument("--log-max-mb", type=float, default=10.0,
                       help="a log file this big moves to <name>.log.1, and so on "
                            "(default: 10)")
    stack.add_argument("--log-backups", type=int, default=3,
                       help="rotated log files kept per service (default: 3)")
    stack.add_argument("--json", action="store_true", help="print the endpoints as JSON")


def _add_inference_options(stack: argparse.ArgumentParser) -> None:
    stack.add_argument("--inference-url", default=None,
                       help="the OpenAI-compatible (vLLM) server `vllm:` policies sample on "
                            "(default: $DESIGNRL_INFERENCE_URL, else none)")
    stack.add_argument("--inference-model", default=None,
                       help="start vLLM too, serving this model (a folder or hub id) as "
                            "`policy`, and point the services at it")
    stack.add_argument("--inference-port", type=int, default=8001,
                       help="with --inference-model: vLLM's port (default: 8001)")
    add_option(stack, VLLMConfig, "device", "--inference-device", choices=["cpu", "gpu"])
    stack.add_argument("--vllm-python", default=None,
                       help="with --inference-model: the interpreter of vLLM's environment "
                            "(default: .venv-vllm/bin/python here if present, else this one)")


def run(args: argparse.Namespace) -> int:
    from services.stack.launcher import LocalStack

    config = stack_config(args)
    try:
        stack = LocalStack(config)  # resolves the paths: a vLLM interpreter may be missing
    except RuntimeError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    try:
        stack.start()
    except RuntimeError as exc:  # StackError: what is unreachable, busy or exited, and why
        stack.stop()
        print(f"error: {exc}", file=sys.stderr)
        return 1
    _print_endpoints(stack, args.json)
    return wait_until_stopped(lambda: stack.exited() is None, stack.stop, stack.exited)


def stack_config(args: argparse.Namespace) -> StackConfig:
    """The ``StackConfig`` the command line and the environment (``args.environ``) ask
    for: a flag, else its variable, else the default."""
    from services.stack.launcher import StackConfig

    if args.inference_url and args.inference_model:
        raise UsageError("--inference-url and --inference-model exclude each other: give the "
                         "server's URL, or the model for the vLLM the stack starts")
    if (args.vllm_python or args.inference_device != "cpu") and not args.inference_model:
        raise UsageError("--vllm-python and --inference-device need --inference-model")
    environ = args.environ
    # Relative paths are the caller's: LocalStack makes them absolute against this directory.
    # The services inherit this command's environment (its DESIGNRL_ settings too).
    return StackConfig(
        database_url=database_url(args.db, environ),
        redis_url=args.redis or environ.get("REDIS_URL") or REDIS_URL,
        groups_stream=args.groups_stream or environ.get("DESIGNRL_GROUPS_STREAM")
        or GROUPS_STREAM,
        version_key=args.version_key or environ.get("DESIGNRL_VERSION_KEY") or VERSION_KEY,
        workers=args.workers, api_port=args.port, queue=args.queue,
        metrics_port=args.metrics_port, out_dir=args.out,
        log_dir=args.log_dir or str(Path(args.out) / "logs"), log_level=args.log_level,
        log_max_bytes=int(args.log_max_mb * 1024 * 1024), log_backups=args.log_backups,
        console=sys.stderr,
        inference_url=args.inference_url or environ.get("DESIGNRL_INFERENCE_URL"),
        vllm=_vllm(args), vllm_python=args.vllm_python, base_env=environ,
        import_paths=[_import_root()])


def _vllm(args: argparse.Namespace) -> VLLMConfig | None:
    if not args.inference_model:
        return None
    cpu = args.inference_device == "cpu"
    return VLLMConfig(model=args.inference_model, port=args.inference_port,
                      device=args.inference_device, dtype="float32" if cpu else "auto",
                      served_model_name="policy")  # the workers' inference_base_model


def _import_root() -> str:
    """The folder this interpreter imports ``services`` from: the services run this code."""
    import services

    return str(Path(services.__file__).resolve().parents[1])


def _print_endpoints(stack, as_json: bool) -> None:
    endpoints = {"api": stack.api_url, "docs": f"{stack.api_url}/docs",
                 "metrics": [f"{stack.api_url}/metrics", *stack.worker_metrics.values()],
                 "inference": stack.inference_url,
                 "database": stack.config.database_url, "logs": str(stack.log_dir)}
    if as_json:
        print(json.dumps(endpoints), flush=True)
        return
    inference = f"inference {stack.inference_url}; " if stack.inference_url else ""
    print(f"api {endpoints['api']} (docs {endpoints['docs']}); "
          f"{stack.config.workers} workers; {inference}"
          f"metrics: {', '.join(endpoints['metrics'])}; "
          f"logs in {endpoints['logs']}; Ctrl-C stops", flush=True)
