"""The GRPO learner service: scored groups from Redis in, policy versions out."""
