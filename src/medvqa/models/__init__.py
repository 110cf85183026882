"""Model backends behind one async protocol, the ``--model`` spec parser, and the LLM client.

The LLM client (:func:`complete`, :func:`complete_requests`: cache first, bounded concurrency,
retries) is used by the runner, the LLM builders, the judges and the guessability filter; it and
the response cache live here, below every stage that calls a model.

The client and cache are imported on first use (PEP 562), so ``medvqa --help``
does not pay for tenacity or SQLite.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from medvqa._lazy import lazy_exports
from medvqa.models._backends import (
    BACKENDS,
    BackendInfo,
    backend_info,
    structured_extra,
)
from medvqa.models._base import (
    EndpointAuthError,
    EndpointUnreachableError,
    GenerateRequest,
    GenerateResponse,
    ModelBackend,
    ModelConfig,
    ModelError,
    ModelRequestError,
    TransientModelError,
)
from medvqa.models._load import load_model
from medvqa.models._rate_limit import RateLimiter, estimate_tokens
from medvqa.models._retry import RetryPolicy
from medvqa.models._settings import LLMSettings, structured_output
from medvqa.models._spec import (
    SPEC_KINDS,
    ModelSpec,
    display_name,
    display_name_problem,
    parse_model_spec,
)

if TYPE_CHECKING:
    from medvqa.models._cache import (
        ResponseCache,
        Transaction,
        cache_key,
        canonical_json,
        open_cache_db,
        request_key,
    )
    from medvqa.models._complete import (
        Completion,
        acomplete,
        complete,
        complete_requests,
        load_backend,
    )
    from medvqa.models._endpoint import missing_key_problem, redact_url_query
    from medvqa.models._first_use import StartOnFirstUse
    from medvqa.models._hf_device import (
        ATTENTION,
        DEVICES,
        DTYPES,
        check_placement_flags,
        placement_problem,
        resolve_device,
        resolve_placement,
        supports_static_cache,
    )
    from medvqa.models._hf_local import load_local_lm, smollm2_location
    from medvqa.models._hf_vlm import (
        GROUP_WINDOW,
        LOADED_VLMS,
        LoadedVLM,
        LocalVLM,
        chat_messages,
        is_vision_checkpoint,
    )
    from medvqa.models._serve import Server, launch_argv, start_server
    from medvqa.models._supervised import (
        CARD_FILE,
        CLASSIFIER_DIR,
        WEIGHTS_FILE,
        ClassifierCard,
        norm_text,
    )
    from medvqa.models._vision_nets import (
        ARCHS,
        build_net,
        decode_image,
        load_trunk_weights,
        to_tensor,
    )
    from medvqa.models._weights import readable_weights

_LAZY: dict[str, str] = {
    "ATTENTION": "_hf_device",
    "DTYPES": "_hf_device",
    "DEVICES": "_hf_device",
    "start_server": "_serve",
    "launch_argv": "_serve",
    "Server": "_serve",
    "resolve_device": "_hf_device",
    "missing_key_problem": "_endpoint",
    "StartOnFirstUse": "_first_use",
    "check_placement_flags": "_hf_device",
    "ResponseCache": "_cache",
    "Transaction": "_cache",
    "cache_key": "_cache",
    "canonical_json": "_cache",
    "open_cache_db": "_cache",
    "request_key": "_cache",
    "Completion": "_complete",
    "acomplete": "_complete",
    "complete": "_complete",
    "complete_requests": "_complete",
    "load_backend": "_complete",
    "redact_url_query": "_endpoint",
    "placement_problem": "_hf_device",
    "resolve_placement": "_hf_device",
    "supports_static_cache": "_hf_device",
    "load_local_lm": "_hf_local",
    "smollm2_location": "_hf_local",
    "GROUP_WINDOW": "_hf_vlm",
    "LOADED_VLMS": "_hf_vlm",
    "LoadedVLM": "_hf_vlm",
    "LocalVLM": "_hf_vlm",
    "chat_messages": "_hf_vlm",
    "is_vision_checkpoint": "_hf_vlm",
    "CARD_FILE": "_supervised",
    "CLASSIFIER_DIR": "_supervised",
    "ClassifierCard": "_supervised",
    "WEIGHTS_FILE": "_supervised",
    "norm_text": "_supervised",
    "ARCHS": "_vision_nets",
    "build_net": "_vision_nets",
    "decode_image": "_vision_nets",
    "load_trunk_weights": "_vision_nets",
    "to_tensor": "_vision_nets",
    "readable_weights": "_weights",
}

__all__ = [
    "ATTENTION",
    "DTYPES",
    "DEVICES",
    "start_server",
    "launch_argv",
    "Server",
    "resolve_device",
    "missing_key_problem",
    "check_placement_flags",
    "BACKENDS",
    "SPEC_KINDS",
    "BackendInfo",
    "Completion",
    "EndpointAuthError",
    "EndpointUnreachableError",
    "GenerateRequest",
    "GenerateResponse",
    "LLMSettings",
    "ModelBackend",
    "ModelConfig",
    "ModelError",
    "ModelRequestError",
    "ModelSpec",
    "RateLimiter",
    "ResponseCache",
    "RetryPolicy",
    "StartOnFirstUse",
    "Transaction",
    "TransientModelError",
    "acomplete",
    "backend_info",
    "cache_key",
    "canonical_json",
    "complete",
    "complete_requests",
    "display_name",
    "display_name_problem",
    "estimate_tokens",
    "load_model",
    "open_cache_db",
    "parse_model_spec",
    "request_key",
    "structured_extra",
    "structured_output",
    "load_backend",
    "redact_url_query",
    "placement_problem",
    "resolve_placement",
    "supports_static_cache",
    "load_local_lm",
    "smollm2_location",
    "GROUP_WINDOW",
    "LOADED_VLMS",
    "LoadedVLM",
    "LocalVLM",
    "chat_messages",
    "is_vision_checkpoint",
    "CARD_FILE",
    "CLASSIFIER_DIR",
    "ClassifierCard",
    "WEIGHTS_FILE",
    "norm_text",
    "ARCHS",
    "build_net",
    "decode_image",
    "load_trunk_weights",
    "to_tensor",
    "readable_weights",
]


__getattr__, __dir__ = lazy_exports(__name__, _LAZY, globals())
