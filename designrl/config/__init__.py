"""Every component's settings, declared once as documented pydantic models.

The library takes these as arguments and never reads the environment: each service's
``BaseSettings`` inherits its component's model (``services/*/settings.py``), and the
``designrl`` command takes its options' defaults and help from the same fields, so a
default lives in one place. ``configs/*.toml`` holds an example per component
(``load_config``).
"""

from designrl.config.api import ApiConfig
from designrl.config.common import (
    GROUPS_STREAM,
    VERSION_KEY,
    AdapterConfig,
    DatasetsConfig,
    EpisodeLimits,
    InferenceClientConfig,
    MetricsConfig,
    QueueConfig,
    RedisConfig,
    ScoringConfig,
    StoreConfig,
    VersionKeyConfig,
)
from designrl.config.files import COMPONENTS, load_config
from designrl.config.inference import VLLMConfig
from designrl.config.learner import LearnerConfig
from designrl.config.renderer import RendererConfig
from designrl.config.training import (
    GRPOSettings,
    RolloutSettings,
    SFTSettings,
    SFTWorkflowConfig,
    TrainConfig,
)

__all__ = [
    "COMPONENTS", "GROUPS_STREAM", "VERSION_KEY", "AdapterConfig", "ApiConfig",
    "DatasetsConfig", "EpisodeLimits", "GRPOSettings", "InferenceClientConfig",
    "LearnerConfig", "MetricsConfig", "QueueConfig", "RedisConfig", "RendererConfig",
    "RolloutSettings", "SFTSettings", "SFTWorkflowConfig", "ScoringConfig", "StoreConfig",
    "TrainConfig", "VLLMConfig", "VersionKeyConfig", "load_config",
]
