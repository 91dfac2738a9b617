"""GRPO from scored groups: TRL's ``GRPOTrainer`` with batches from a ``GroupFeed``.

``QueueGRPOTrainer`` overrides one method, ``_generate_and_score_completions``: instead
of generating and scoring in the trainer, it takes the next batch of already scored
groups and returns the tensors TRL's loss reads (see ``designrl.learner.batch``).
TRL's loss types, clipping, KL term and optimizer options apply unchanged. The
behaviour log-probabilities recorded at sampling are ``old_per_token_logps``, so the
PPO ratio is taken against the policy that actually sampled, however stale.

``Learner`` wires it up: after every update the new weights become policy version
``N`` (``publish(version, model)``); every ``checkpoint_every`` updates a checkpoint
is written and only then are its groups acknowledged; on start it resumes from the
newest complete checkpoint; every update appends one row of curves
(``curves.jsonl``, drawn as ``curves.png`` when training ends and at checkpoints at most
once a minute) and a few of the samples it trained on (``samples.jsonl``; the folder's
format is ``designrl.learner.runs``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from designrl.config.training import GRPOSettings
from designrl.learner.checkpoint import latest_checkpoint, read_state, write_state
from designrl.learner.feed import Batch, FeedStats, FeedStopped, GroupFeed
from designrl.learner.plots import plot_curves, read_curves
from designrl.learner.runs import CURVES_FILE, append_samples, sample_rows
from designrl.learner.sources import GroupSource

CURVES_PNG = "curves.png"
PLOT_EVERY_S = 60.0  # drawing takes about a second: not after every update


def scored_upstream(prompts, completions, **kwargs):
    """The trainer's reward source is the scored groups themselves; TRL requires a
    reward function at construction, and this one is never called (the override
    below replaces generation and scoring)."""
    raise RuntimeError("rewards come with the scored groups; the trainer must not score")


def _trainer_class():
    from trl import GRPOTrainer

    class QueueGRPOTrainer(GRPOTrainer):
        """A ``GRPOTrainer`` whose batches come from a ``GroupFeed``."""

        def __init__(self, *args, feed: GroupFeed, **kwargs):
            self.feed = feed
            self.last_batch: Batch | None = None
            super().__init__(*args, **kwargs)

        def _generate_and_score_completions(self, inputs):
            from designrl.learner.batch import collate

            batch = self.feed.next_batch(version=self.state.global_step)
            self.last_batch = batch
            tensors = collate(batch.samples, self._tokenizer.pad_token_id,
                              self.accelerator.device)
            if self.beta != 0.0:
                tensors["ref_per_token_logps"] = self._reference_logps(tensors)
            metrics = self._metrics["train"]
            for name, value in batch_metrics(batch).items():
                metrics[name].append(value)
            return tensors

        def _reference_logps(self, tensors):
            import torch
            from trl.trainer.utils import use_adapter

            ids = torch.cat([tensors["prompt_ids"], tensors["completion_ids"]], 1)
            mask = torch.cat([tensors["prompt_mask"], tensors["completion_mask"]], 1)
            width = tensors["completion_ids"].size(1)
            with torch.no_grad():
                if self.ref_model is not None:
                    return self._get_per_token_logps_and_entropies(self.ref_model, ids, mask,
                                                                   width)[0]
                model = self.accelerator.unwrap_model(self.model)  # LoRA: adapters off
                with use_adapter(model, adapter_name=None):
                    return self._get_per_token_logps_and_entropies(self.model, ids, mask,
                                                                   width)[0]

    return QueueGRPOTrainer


def batch_metrics(batch: Batch) -> dict[str, float]:
    """What one update trained on: rewards, the share of turns whose output parsed as a
    valid action, staleness."""
    rewards = [s.reward for g in batch.groups for s in g.samples if s.reward is not None]
    turns = [t for g in batch.groups for s in g.samples for t in (s.turns or ())]
    valid = sum(t.get("ran") == "model" for t in turns)
    return {"group_reward_mean": sum(rewards) / max(1, len(rewards)),
            "valid_action_rate": valid / max(1, len(turns)),
            "staleness_mean": sum(batch.staleness) / max(1, len(batch.staleness)),
            "turns": float(len(batch.samples))}


class Learner:
    """Trains a model on scored groups from ``source`` and publishes each version.

    ``publish(version, model, tokenizer)`` runs after every update (embedded: copy
    the weights to the sampler; the service: write ``policy-vN`` and tell inference
    and the workers), and once before the first: the starting weights as version 0,
    or a resumed checkpoint's as its version.
    """

    def __init__(self, model_dir: str | Path, output_dir: str | Path, source: GroupSource,
                 settings: GRPOSettings | None = None,
                 publish: Callable[[int, Any, Any], None] | None = None,
                 log: Callable[[dict], None] | None = None) -> None:
        from transformers import AutoModelForCausalLM, AutoTokenizer

        self.settings = settings or GRPOSettings()
        self.output_dir = Path(output_dir)
        self.output_dir.mkdir(parents=True, exist_ok=True)
        self.publish = publish
        self.log = log
        self.model_dir = str(model_dir)
        self.tokenizer = AutoTokenizer.from_pretrained(model_dir)
        self.resume_from = latest_checkpoint(self.output_dir)
        state = read_state(self.resume_from) if self.resume_from else {}
        self.feed = GroupFeed(source, self._prompt_ids, groups_per_step=self.settings.groups_per_step,
                              max_staleness=self.settings.max_staleness,
                              scale=self.settings.scale_rewards,
                              trained_ids=set(state.get("trained_group_ids", ())))
        self.feed.stats = FeedStats.resumed(state.get("stats", {}))
        # which groups made each version of these weights: [version, [group ids]] per update
        self.lineage: list[list] = state.get("lineage", [])
        model = AutoModelForCausalLM.from_pretrained(model_dir)
        self.trainer = self._make_trainer(model)
        self._step_started, self._idle_before = time.monotonic(), 0.0
        self._plotted_at = time.monotonic()

    def _prompt_ids(self, messages) -> list[int]:
        from designrl.inference.transformers_backend import chat_prompt_ids

        return chat_prompt_ids(self.tokenizer, messages)

    def _make_trainer(self, model):
        import torch
        from datasets import Dataset
        from transformers import PrinterCallback, TrainerCallback
        from trl import GRPOConfig

        s = self.settings
        args = GRPOConfig(
            output_dir=str(self.output_dir), max_steps=s.max_steps, learning_rate=s.learning_rate,
            lr_scheduler_type="constant", warmup_steps=0, loss_type=s.loss_type, beta=s.beta,
            epsilon=s.epsilon, temperature=s.temperature, scale_rewards=s.scale_rewards,
            max_grad_norm=s.max_grad_norm, seed=s.seed,
            gradient_checkpointing=s.gradient_checkpointing,
            # the dataloader only paces the loop: 2 placeholder rows a step, never read
            per_device_train_batch_size=2, num_generations=2, steps_per_generation=1,
            gradient_accumulation_steps=1,
            save_strategy="steps", save_steps=s.checkpoint_every, save_total_limit=s.keep_checkpoints,
            logging_steps=1, report_to="none", use_cpu=not torch.cuda.is_available(), bf16=False,
            use_vllm=False, disable_tqdm=True)
        peft_config = None
        if s.lora_r:
            from peft import LoraConfig
            peft_config = LoraConfig(r=s.lora_r, lora_alpha=s.lora_alpha, task_type="CAUSAL_LM",
                                     target_modules="all-linear")
        placeholder = Dataset.from_dict({"prompt": [""] * (2 * s.max_steps)})
        learner = self

        class Hooks(TrainerCallback):
            def on_train_begin(self, args, state, control, **kwargs):
                # after the Trainer has loaded a checkpoint's weights: resume publishes them
                if learner.publish is not None:
                    learner.publish(state.global_step, learner._model(), learner.tokenizer)

            def on_step_end(self, args, state, control, **kwargs):
                learner._on_update(state.global_step)

            def on_save(self, args, state, control, **kwargs):
                learner._on_checkpoint(state.global_step)

            def on_log(self, args, state, control, logs=None, **kwargs):
                learner._on_log(state.global_step, logs or {})

        trainer = _trainer_class()(model=model, reward_funcs=[scored_upstream], args=args,
                                   train_dataset=placeholder, processing_class=self.tokenizer,
                                   peft_config=peft_config, callbacks=[Hooks()], feed=self.feed)
        trainer.remove_callback(PrinterCallback)  # our log callback reports each update
        return trainer

    @property
    def version(self) -> int:
        return self.trainer.state.global_step

    def train(self) -> dict[str, Any]:
        """Train until ``max_steps`` updates are done (or ``stop()``); returns the stats."""
        self._step_started, self._idle_before = time.monotonic(), self.feed.stats.idle_seconds
        try:
            self.trainer.train(resume_from_checkpoint=str(self.resume_from)
                               if self.resume_from else None)
        except FeedStopped:
            pass
        self.plot()
        return self.feed.stats.as_dict()

    def stop(self) -> None:
        self.feed.stop()

    def plot(self) -> Path | None:
        """Draw ``curves.jsonl`` as ``curves.png``; None before the first update."""
        self._plotted_at = time.monotonic()
        curves = self.output_dir / CURVES_FILE
        if not curves.exists():
            return None
        return plot_curves(read_curves(curves), self.output_dir / CURVES_PNG,
                           title=f"GRPO from {self.model_dir}")

    def _model(self):
        return self.trainer.accelerator.unwrap_model(self.trainer.model)

    def _on_update(self, version: int) -> None:
        batch = self.trainer.last_batch
        self.lineage.append([version, [g.group_id for g in batch.groups] if batch else []])
        if self.publish is not None:
            self.publish(version, self._model(), self.tokenizer)

    def _on_checkpoint(self, version: int) -> None:
        folder = self.output_dir / f"checkpoint-{version}"
        write_state(folder, {"version": version,
                             "trained_group_ids": sorted(self.feed.trained_ids),
                             "lineage": self.lineage,
                             "stats": self.feed.stats.as_dict()})
        self.feed.commit()
        if time.monotonic() - self._plotted_at >= PLOT_EVERY_S:  # a live run's picture
            self.plot()

    def _on_log(self, version: int, logs: dict) -> None:
        if "loss" not in logs:  # the closing summary, not an update
            return
        now = time.monotonic()
        batch = self.trainer.last_batch
        idle = self.feed.stats.idle_seconds
        row = {"version": version, "seconds": round(now - self._step_started, 3),
               # this update's share of time spent waiting for groups
               "idle_fraction": round((idle - self._idle_before) /
                                      max(1e-9, now - self._step_started), 4),
               "dropped": dict(self.feed.stats.dropped),
               "staleness": list(batch.staleness) if batch else [], **logs}
        self._step_started, self._idle_before = now, idle
        with (self.output_dir / CURVES_FILE).open("a", encoding="utf-8") as out:
            out.write(json.dumps(row) + "\n")
        append_samples(self.output_dir, sample_rows(version, batch.groups if batch else []))
        if self.log is not None:
            self.log(row)
