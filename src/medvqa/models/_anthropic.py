"""``anthropic:MODEL[@BASE_URL]``: Anthropic's Messages API over the same aiohttp client.

The wire format differs from chat completions in three places, and only those are overridden:
the key travels in ``x-api-key`` with an ``anthropic-version`` header, images are
``{"type": "image", "source": {"type": "base64", …}}`` parts placed before the text, and the
answer is the concatenated ``text`` blocks of ``content``. Retries, timeouts, the fast
unreachable check and error classification (429 and 529 "overloaded" are transient) are the
OpenAI-compatible backend's.
"""

from __future__ import annotations

import base64
import json
from typing import Any

from medvqa.benchmark import ImageInput
from medvqa.models._base import GenerateRequest, ModelConfig, ModelRequestError
from medvqa.models._endpoint import redact_url_query, with_path
from medvqa.models._openai_compat import ImagePartCache, OpenAICompatModel, web_image

ANTHROPIC_BASE_URL = "https://api.anthropic.com/v1"
ANTHROPIC_VERSION = "2023-06-01"


class AnthropicImageParts(ImagePartCache):
    """Base64 ``image`` source parts, built once per image hash."""

    def encode(self, image: ImageInput) -> str:
        """The serialised Messages API image part."""
        data, mime = web_image(image)
        source = {"type": "base64", "media_type": mime,
                  "data": base64.b64encode(data).decode("ascii")}
        return json.dumps({"type": "image", "source": source})


class AnthropicModel(OpenAICompatModel):
    """Claude models (or any server speaking the Messages API), one request per item."""

    default_base_url = ANTHROPIC_BASE_URL
    default_key_env = "ANTHROPIC_API_KEY"

    def request_params(self, config: ModelConfig) -> dict[str, Any]:
        """Temperature and max_tokens (the Messages API takes no seed)."""
        return {"temperature": config.temperature, "max_tokens": config.max_tokens,
                **config.extra}

    def auth_headers(self, key: str) -> dict[str, str]:
        """``x-api-key`` and the API version header."""
        return {"x-api-key": key, "anthropic-version": ANTHROPIC_VERSION}

    def image_parts(self) -> ImagePartCache:
        """Messages API image parts."""
        return AnthropicImageParts()

    @property
    def endpoint(self) -> str:
        """``{base_url}/messages``."""
        return with_path(self.base_url, "/messages")

    def body(self, request: GenerateRequest) -> str:
        """Images first, then the prompt; the system prompt is a top-level field."""
        content = [self._images.part(img) for img in request.images]
        content.append(json.dumps({"type": "text", "text": request.prompt}))
        system = f',"system":{json.dumps(request.system)}' if request.system else ""
        user = '{"role":"user","content":[' + ",".join(content) + "]}"
        return "{" + self._fixed + system + ',"messages":[' + user + "]}"

    def answer_text(self, payload: Any) -> str:
        """The concatenated text blocks of ``content``.

        No text block at all is no answer (a :class:`ModelRequestError` naming the stop
        reason), unless the model ended its turn normally (``end_turn``): it chose to say
        nothing, and the empty answer is scored.
        """
        blocks = payload["content"]
        texts = [b["text"] for b in blocks if b.get("type") == "text"]
        if not texts and payload.get("stop_reason") != "end_turn":
            raise ModelRequestError(
                f"no answer from {redact_url_query(self.endpoint)}: no text block "
                f"(stop_reason {payload.get('stop_reason')!r})"
            )
        return "".join(texts)
