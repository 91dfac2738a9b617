"""Learner checkpoints: the Trainer's ``checkpoint-N`` folders plus our own state file.

The Trainer writes a checkpoint's weights, optimizer and scheduler; then we write
``designrl_state.json`` (the version and the ids of every group the weights have
been trained on) atomically, last. Its presence marks the checkpoint complete (as
prime-rl's ``STABLE`` file does), so a learner killed mid-save resumes from the
one before.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

STATE_FILE = "designrl_state.json"
_CHECKPOINT = re.compile(r"^checkpoint-(\d+)$")


def write_state(checkpoint_dir: str | Path, state: dict[str, Any]) -> Path:
    path = Path(checkpoint_dir) / STATE_FILE
    tmp = path.with_suffix(".tmp")
    with tmp.open("w", encoding="utf-8") as out:
        json.dump(state, out)
        out.flush()
        os.fsync(out.fileno())
    os.replace(tmp, path)
    return path


def read_state(checkpoint_dir: str | Path) -> dict[str, Any]:
    return json.loads((Path(checkpoint_dir) / STATE_FILE).read_text(encoding="utf-8"))


def latest_checkpoint(output_dir: str | Path) -> Path | None:
    """The newest complete checkpoint under ``output_dir``, or ``None``."""
    found = []
    for child in Path(output_dir).glob("checkpoint-*"):
        match = _CHECKPOINT.match(child.name)
        if match and (child / STATE_FILE).is_file():
            found.append((int(match.group(1)), child))
    return max(found)[1] if found else None


def write_version(model, tokenizer, version_dir: str | Path) -> Path:
    """Save weights (or a LoRA adapter) as one policy version, atomically: written to a
    temporary folder and renamed, so a reader never sees half a version."""
    version_dir = Path(version_dir)
    tmp = version_dir.with_name(version_dir.name + ".tmp")
    model.save_pretrained(tmp)
    tokenizer.save_pretrained(tmp)
    if version_dir.exists():
        import shutil
        shutil.rmtree(version_dir)
    os.replace(tmp, version_dir)
    return version_dir
