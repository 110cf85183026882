"""Model backends behind one async protocol, and the one parser of ``--model`` strings."""

from medvqa.models._base import (
    EndpointAuthError,
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
from medvqa.models._spec import SPEC_KINDS, ModelSpec, parse_model_spec

__all__ = [
    "SPEC_KINDS",
    "EndpointAuthError",
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
    "load_model",
    "parse_model_spec",
]
