"""Training: SFT on the layout expert (``sft``), GRPO on scored groups (``grpo``), one
machine (``embedded``) or from the Redis stream (``sources``), with checkpoints and
published policy versions (``checkpoint``, ``versions``)."""
