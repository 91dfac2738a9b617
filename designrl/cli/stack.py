"""``designrl stack up``: the API and renderer workers as local processes."""

from __future__ import annotations

import argparse
import json
import sys

from designrl.cli.args import DB_HELP, add_option, database_url
from designrl.cli.foreground import wait_until_stopped
from designrl.config.api import ApiConfig
from designrl.config.common import REDIS_URL, QueueConfig


def add_parser(sub) -> None:
    stack = sub.add_parser(
        "stack", help="run the API and renderer workers as local processes",
        description="Run the compose stack's API and workers as local processes against the "
                    "local Redis and Postgres (for machines without Docker); Ctrl-C stops.")
    stack.add_argument("action", choices=["up"])
    stack.add_argument("--db", default=None, help=DB_HELP)
    stack.add_argument("--redis", default=None,
                       help=f"Redis URL (default: $REDIS_URL, else {REDIS_URL})")
    stack.add_argument("--workers", type=int, default=2, help="worker processes (default: 2)")
    stack.add_argument("--port", type=int, default=8000, help="API port (default: 8000)")
    add_option(stack, QueueConfig, "queue")
    add_option(stack, ApiConfig, "training_runs_dir", "--out",
               help="the learner runs and adapter versions the API reads (adapters in "
                    "<out>/adapters)")
    stack.add_argument("--log-dir", default=None,
                       help="one log file per service, <name>.log (default: <out>/logs)")
    stack.add_argument("--log-level", default="info",
                       choices=["debug", "info", "warning", "error"],
                       help="the services' log level (default: info)")
    stack.add_argument("--json", action="store_true", help="print the endpoints as JSON")


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from designrl.stack import LocalStack, StackConfig

    # Relative paths are the caller's: LocalStack makes them absolute against this directory.
    # The services inherit this command's environment (its DESIGNRL_ settings too).
    config = StackConfig(database_url=database_url(args.db, args.environ),
                         redis_url=args.redis or args.environ.get("REDIS_URL") or REDIS_URL,
                         workers=args.workers, api_port=args.port, queue=args.queue,
                         out_dir=args.out, log_dir=args.log_dir or str(Path(args.out) / "logs"),
                         log_level=args.log_level, base_env=args.environ)
    stack = LocalStack(config)
    try:
        stack.start()
    except RuntimeError as exc:
        stack.stop()
        print(f"error: {exc}", file=sys.stderr)
        return 1
    endpoints = {"api": stack.api_url, "docs": f"{stack.api_url}/docs",
                 "metrics": [f"{stack.api_url}/metrics", *stack.worker_metrics.values()],
                 "database": stack.config.database_url, "logs": str(stack.log_dir)}
    if args.json:
        print(json.dumps(endpoints), flush=True)
    else:
        print(f"api {endpoints['api']} (docs {endpoints['docs']}); "
              f"{args.workers} workers; metrics: {', '.join(endpoints['metrics'])}; "
              f"logs in {endpoints['logs']}; Ctrl-C stops", flush=True)
    return wait_until_stopped(lambda: stack.exited() is None, stack.stop, stack.exited)
