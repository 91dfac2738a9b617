"""``designrl inference``: run vLLM's server; load or unload LoRA adapters on it."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from designrl.cli.args import UsageError, add_option
from designrl.cli.foreground import wait_until_stopped
from designrl.config.inference import VLLMConfig


def add_parser(sub) -> None:
    inference = sub.add_parser(
        "inference", help="run vLLM's server; load or unload LoRA adapters on it",
        description="serve: start vLLM's OpenAI-compatible server (LoRA on, runtime updating "
                    "on) and wait until it answers; Ctrl-C stops. load/unload: manage adapters "
                    "on a running server by version name (policy-vN).")
    inference.add_argument("action", choices=["serve", "load", "unload"])
    inference.add_argument("name", nargs="?", help="load/unload: the adapter's name")
    inference.add_argument("path", nargs="?", help="load: the adapter's directory")
    inference.add_argument("--model", help="serve: the base model (a directory or hub id)")
    inference.add_argument("--python", default=None,
                           help="serve: the interpreter of vLLM's environment, a path or a "
                                "command on PATH (default: .venv-vllm/bin/python here if "
                                "present, else this one)")
    # Each default below is the config's (designrl.config.inference), shown in --help.
    add_option(inference, VLLMConfig, "device", choices=["cpu", "gpu"])
    add_option(inference, VLLMConfig, "port", type=int)
    add_option(inference, VLLMConfig, "max_loras", type=int)
    add_option(inference, VLLMConfig, "served_model_name")
    local = VLLMConfig(model="-")  # the server serve starts by default, on this machine
    inference.add_argument("--url", default=f"http://{local.host}:{local.port}",
                           help="load/unload: the server (default: %(default)s)")


def run(args: argparse.Namespace) -> int:
    if args.action in ("load", "unload"):
        return _manage_adapter(args)
    return _serve(args)


def _manage_adapter(args: argparse.Namespace) -> int:
    from designrl.inference.vllm_server import AdapterError, AdapterRegistry

    if not args.name or (args.action == "load" and not args.path):
        raise UsageError(f"{args.action} needs NAME" + (" and PATH" if args.action == "load"
                                                        else ""))
    registry = AdapterRegistry(args.url)
    try:
        if args.action == "load":
            registry.load(args.name, args.path)
        else:
            registry.unload(args.name)
    except (AdapterError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(json.dumps({"served": registry.served()}))
    return 0


def _serve(args: argparse.Namespace) -> int:
    from designrl.inference.vllm_server import (
        VLLMNotFound,
        VLLMServer,
        check_vllm_python,
        find_vllm_python,
    )

    if not args.model:
        raise UsageError("serve needs --model")
    try:  # an absolute interpreter that has vLLM, or the reason there is none
        python = find_vllm_python(args.python, Path.cwd(), args.environ.get("PATH"))
        check_vllm_python(python)
    except VLLMNotFound as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    config = VLLMConfig(model=args.model, python=python, port=args.port, host="0.0.0.0",
                        device=args.device, dtype="float32" if args.device == "cpu" else "auto",
                        max_loras=args.max_loras, served_model_name=args.served_model_name)
    server = VLLMServer(config, base_env=args.environ)  # vLLM inherits this environment
    try:
        server.start()
    except RuntimeError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"vLLM serving {args.model} on port {args.port} (LoRA runtime loading on); "
          "Ctrl-C stops", flush=True)
    return wait_until_stopped(lambda: server.process.poll() is None, server.stop)
