"""Model backends behind one async protocol, and the one parser of ``--model`` strings."""

from medvqa.models._backends import (
    BACKENDS,
    BackendInfo,
    backend_info,
    help_line,
    structured_extra,
)
from medvqa.models._base import (
    EndpointUnreachableError,
    GenerateRequest,
    GenerateResponse,
    ImageInput,
    ModelBackend,
    ModelConfig,
    ModelError,
    ModelRequestError,
    TransientModelError,
)
from medvqa.models._load import load_model
from medvqa.models._rate_limit import RateLimiter, estimate_tokens
from medvqa.models._reasoning import strip_thinking
from medvqa.models._spec import SPEC_KINDS, ModelSpec, parse_model_spec

__all__ = [
    "BACKENDS",
    "SPEC_KINDS",
    "BackendInfo",
    "RateLimiter",
    "EndpointUnreachableError",
    "GenerateRequest",
    "GenerateResponse",
    "ImageInput",
    "ModelBackend",
    "ModelConfig",
    "ModelError",
    "ModelRequestError",
    "ModelSpec",
    "TransientModelError",
    "backend_info",
    "estimate_tokens",
    "help_line",
    "load_model",
    "parse_model_spec",
    "strip_thinking",
    "structured_extra",
]
