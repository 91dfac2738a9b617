"""Training: SFT data from expert rollouts (``sft_data``); the trainers come next."""
