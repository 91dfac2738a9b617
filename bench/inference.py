"""Inference speed: the in-process transformers backend against vLLM, same model, same run.

    python bench/inference.py [--model DIR] [--episodes 4] [--batch 8] [--json]

Both backends serve the same weights (the tiny model unless ``--model``; vLLM on
CPU from ``.venv-vllm``):

* tokens per second: ``--batch`` layout prompts (compact), sampled together to
  ``--max-tokens`` each (the in-process backend batches them; vLLM gets them as
  one request per prompt, concurrently, as the workers would send them);
* episodes per second: ``--episodes`` layout episodes of ``--steps`` steps with
  the LLM policy (one completion per step, as an episode runs).

Prints each rate and vLLM's ratio over the in-process backend.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from designrl.inference.openai_backend import OpenAIBackend
from designrl.inference.transformers_backend import TransformersBackend
from designrl.inference.vllm_server import VLLMConfig, VLLMServer
from designrl.policies.llm.layout_policy import LLMLayoutPolicy
from designrl.rollout.layout_episode import run_episode
from designrl.tasks.layout.env import LayoutEnv
from designrl.tasks.layout.prompt import layout_messages
from services.stack import free_port

ROOT = Path(__file__).resolve().parents[1]
TASKS = ["gen-poster", "gen-slide", "gen-banner", "gen-flyer", "gen-mobile", "gen-editorial"]


def prompts(count: int) -> list[list[dict]]:
    out = []
    for i in range(count):
        env = LayoutEnv()
        out.append(layout_messages(env.reset(TASKS[i % len(TASKS)], seed=1_000_000 + i)))
    return out


def tokens_per_second(backend, conversations, max_tokens: int, concurrent: bool) -> float:
    started = time.perf_counter()
    if concurrent:
        with ThreadPoolExecutor(len(conversations)) as pool:
            rows = list(pool.map(lambda c: backend.complete([c], temperature=1.0,
                                                            max_tokens=max_tokens, seed=1)[0],
                                 conversations))
    else:
        rows = backend.complete(conversations, temperature=1.0, max_tokens=max_tokens, seed=1)
    seconds = time.perf_counter() - started
    return sum(len(c.token_ids) for row in rows for c in row) / seconds


def episodes_per_second(backend, episodes: int, steps: int) -> float:
    policy = LLMLayoutPolicy(backend, temperature=1.0, seed=2, max_tokens=48)
    started = time.perf_counter()
    for i in range(episodes):
        run_episode(LayoutEnv(), policy, TASKS[i % len(TASKS)], 1_000_000 + i, step_limit=steps)
    return episodes / (time.perf_counter() - started)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=None, help="model directory (default: tiny, built)")
    parser.add_argument("--vllm-python", default=str(ROOT / ".venv-vllm" / "bin" / "python"))
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--max-tokens", type=int, default=64)
    parser.add_argument("--episodes", type=int, default=4)
    parser.add_argument("--steps", type=int, default=6)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory() as tmp:
        model = args.model
        if model is None:
            from designrl.models.tiny import build_tiny_model
            model = str(build_tiny_model(Path(tmp) / "tiny"))
        conversations = prompts(args.batch)
        local = TransformersBackend(model)
        result = {"model": model, "batch": args.batch, "max_tokens": args.max_tokens,
                  "local_tokens_per_s": tokens_per_second(local, conversations,
                                                          args.max_tokens, concurrent=False),
                  "local_episodes_per_s": episodes_per_second(local, args.episodes, args.steps)}
        config = VLLMConfig(model=model, python=args.vllm_python, port=free_port(),
                            served_model_name="bench")
        with VLLMServer(config, log_path=Path(tmp) / "vllm.log",
                        base_env=os.environ) as server:
            remote = OpenAIBackend(server.url, "bench")
            remote.complete(conversations[:1], max_tokens=4)  # warm up
            result["vllm_tokens_per_s"] = tokens_per_second(remote, conversations,
                                                             args.max_tokens, concurrent=True)
            result["vllm_episodes_per_s"] = episodes_per_second(remote, args.episodes,
                                                                args.steps)
    result["tokens_ratio"] = result["vllm_tokens_per_s"] / result["local_tokens_per_s"]
    result["episodes_ratio"] = result["vllm_episodes_per_s"] / result["local_episodes_per_s"]
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    print(f"tokens/s ({args.batch} prompts x {args.max_tokens} tokens): in-process "
          f"{result['local_tokens_per_s']:.0f}, vLLM {result['vllm_tokens_per_s']:.0f} "
          f"({result['tokens_ratio']:.2f}x)")
    print(f"episodes/s ({args.episodes} x {args.steps} steps): in-process "
          f"{result['local_episodes_per_s']:.2f}, vLLM {result['vllm_episodes_per_s']:.2f} "
          f"({result['episodes_ratio']:.2f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
