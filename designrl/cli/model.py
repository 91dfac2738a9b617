"""``designrl model tiny``: build the tiny test model locally."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_parser(sub) -> None:
    model = sub.add_parser("model", help="build models locally (the tiny test model)",
                           description="Build the tiny test model: a 2-layer Qwen2 with a "
                                       "tokenizer trained here and a chat template.")
    model.add_argument("kind", choices=["tiny"])
    model.add_argument("out", type=Path, help="directory to write the model to")
    model.add_argument("--seed", type=int, default=0, help="weight initialisation seed")


def run(args: argparse.Namespace) -> int:
    try:
        from designrl.models.tiny import build_tiny_model
        path = build_tiny_model(args.out, seed=args.seed)
    except ImportError as exc:
        print(f"error: {exc} (install the train extra: pip install 'designrl[train]')",
              file=sys.stderr)
        return 1
    print(f"tiny model written to {path}")
    return 0
