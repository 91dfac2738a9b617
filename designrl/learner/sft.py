"""Supervised fine-tuning on chat JSONL (the layout expert's answers) with TRL's ``SFTTrainer``.

The loss covers the assistant's answer only (``assistant_only_loss``: the chat
template's generation marks say which tokens those are), so a model learns to
answer prompts, not to echo them. ``train_sft`` writes a model directory that
``from_pretrained`` loads (with the tokenizer), plus ``sft_log.json`` (TRL's log
history: loss per logging step). With ``lora_r`` set it trains a LoRA adapter,
keeps it under ``adapter/`` and saves the weights with the adapter merged in, so
inference needs no peft.

The loss is TRL's (mean negative log-likelihood of the answer tokens), computed
on the answer positions only: an answer is about 25 tokens of a 700-token
example, and TRL off-GPU projects every position through the LM head, which
makes a step of the tiny model five times slower.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from designrl.config.training import SFTSettings
from designrl.tasks.layout.prompt import PromptStyle, write_prompt_style


def _answer_only_trainer():
    """``SFTTrainer`` whose loss runs the LM head on the labelled positions alone."""
    import torch
    import torch.nn.functional as F  # noqa: N812 - torch's own alias
    from trl import SFTTrainer

    class AnswerOnlySFTTrainer(SFTTrainer):
        def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
            lm = self.accelerator.unwrap_model(model)
            lm = lm.get_base_model() if hasattr(lm, "get_base_model") else lm  # peft
            labels = inputs["labels"][:, 1:]
            mask = labels != -100
            features = {k: v for k, v in inputs.items() if k != "labels"}
            mask_in = features.get("attention_mask")
            if mask_in is not None and bool((mask_in[:, :-1] >= mask_in[:, 1:]).all()):
                # right padding only: causal attention already keeps real tokens off the
                # padding after them, and without a mask attention takes its fast path
                del features["attention_mask"]
            hidden = lm.get_decoder()(**features, use_cache=False).last_hidden_state
            logits = lm.get_output_embeddings()(hidden[:, :-1][mask])
            count = mask.sum() if num_items_in_batch is None else num_items_in_batch
            loss = F.cross_entropy(logits.float(), labels[mask], reduction="sum")
            loss = loss / torch.as_tensor(count).clamp(min=1)
            return (loss, {"loss": loss}) if return_outputs else loss

    return AnswerOnlySFTTrainer


def load_chat_dataset(data_path: str | Path, tokenizer, max_length: int):
    """The ``messages`` column of a chat JSONL, without examples over ``max_length``."""
    from datasets import load_dataset

    data = load_dataset("json", data_files=str(data_path), split="train")
    data = data.select_columns(["messages"])

    def fits(example) -> bool:
        ids = tokenizer.apply_chat_template(example["messages"], tokenize=True,
                                            return_dict=True)["input_ids"]
        return len(ids) <= max_length

    return data.filter(fits)


def data_prompt_style(data_path: str | Path) -> PromptStyle | None:
    """The prompt style of a chat JSONL's examples (``style``, as ``expert_examples``
    writes it); None when they do not say. One file, one style: a model learns one."""
    with Path(data_path).open(encoding="utf-8") as lines:
        styles = {json.loads(line).get("style") for line in lines if line.strip()}
    if len(styles) > 1:
        raise ValueError(f"{data_path} mixes prompt styles: {sorted(map(str, styles))}")
    return next(iter(styles), None)


def train_sft(model_dir: str | Path, data_path: str | Path, out_dir: str | Path,
              settings: SFTSettings | None = None) -> Path:
    """Fine-tune ``model_dir`` on ``data_path`` and save the result to ``out_dir``, with
    the prompt style of the data (``designrl_prompt.json``)."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from trl import SFTConfig

    settings = settings or SFTSettings()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    tokenizer = AutoTokenizer.from_pretrained(model_dir)
    model = AutoModelForCausalLM.from_pretrained(model_dir, dtype=torch.float32)
    style = data_prompt_style(data_path)
    data = load_chat_dataset(data_path, tokenizer, settings.max_length)
    if len(data) == 0:
        raise ValueError(f"no example in {data_path} fits in {settings.max_length} tokens")
    steps = math.ceil(math.ceil(len(data) / settings.batch_size) * settings.epochs)
    config = SFTConfig(
        output_dir=str(out / "checkpoints"), num_train_epochs=settings.epochs,
        learning_rate=settings.learning_rate, per_device_train_batch_size=settings.batch_size,
        max_length=settings.max_length, assistant_only_loss=True, packing=False,
        warmup_steps=round(steps * settings.warmup_ratio),
        lr_scheduler_type=settings.lr_scheduler, weight_decay=settings.weight_decay,
        seed=settings.seed, data_seed=settings.seed, logging_steps=settings.logging_steps,
        save_strategy="steps" if settings.checkpoints else "no",
        save_steps=max(1, steps // (settings.checkpoints + 1)), save_only_model=True,
        report_to="none", use_cpu=not torch.cuda.is_available(), bf16=False,
        fp16=False, disable_tqdm=not settings.progress, dataloader_num_workers=0,
        gradient_checkpointing=False)  # TRL turns it on; a tiny model needs the speed
    peft_config = None
    if settings.lora_r is not None:
        from peft import LoraConfig

        peft_config = LoraConfig(r=settings.lora_r, lora_alpha=settings.lora_alpha,
                                 lora_dropout=settings.lora_dropout,
                                 target_modules="all-linear", task_type="CAUSAL_LM")
    trainer = _answer_only_trainer()(model=model, args=config, train_dataset=data,
                         processing_class=tokenizer, peft_config=peft_config)
    trainer.train()
    trained = trainer.model
    if settings.lora_r is not None:
        trained.save_pretrained(out / "adapter")
        trained = trained.merge_and_unload()
    trained.save_pretrained(out)
    tokenizer.save_pretrained(out)
    if style is not None:  # the model answers this prompt now; its users read it from here
        write_prompt_style(out, style)
    log = {"settings": settings.model_dump(), "examples": len(data),
           "log_history": trainer.state.log_history}
    (out / "sft_log.json").write_text(json.dumps(log, indent=1))
    return out


def saved_checkpoints(out_dir: str | Path) -> list[Path]:
    """The models ``train_sft`` saved along the way (``SFTSettings.checkpoints``), by step;
    each loads with ``from_pretrained``, tokenizer included."""
    found = Path(out_dir, "checkpoints").glob("checkpoint-*")
    return sorted(found, key=lambda path: int(path.name.rsplit("-", 1)[1]))


def candidate_models(model: str | Path) -> list[Path]:
    """A finished ``train_sft`` run's models to choose from, in training order: the
    checkpoints saved before its last step, then the final model itself (the last
    checkpoint is the same weights)."""
    model = Path(model)
    history = json.loads((model / "sft_log.json").read_text())["log_history"]
    last = max((row.get("step", 0) for row in history), default=0)
    return [*(c for c in saved_checkpoints(model) if int(c.name.rsplit("-", 1)[1]) < last),
            model]


def losses(out_dir: str | Path) -> list[float]:
    """The training loss at each logging step of a finished ``train_sft`` run."""
    log = json.loads((Path(out_dir) / "sft_log.json").read_text())
    return [row["loss"] for row in log["log_history"] if "loss" in row]
