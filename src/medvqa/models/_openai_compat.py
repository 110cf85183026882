"""``openai:MODEL@BASE_URL``: any OpenAI-compatible chat-completions endpoint over aiohttp.

vLLM, SGLang, Ollama, LM Studio and OpenAI all speak this protocol. aiohttp is used because the
runner's throughput target (≥ 1,000 items/s) is out of reach for the openai SDK and httpx on two
cores (measured). Each image's ``data:`` URL is built once and its JSON fragment reused,
so a request costs one small ``json.dumps`` plus string joins. The API key is read here, from
the environment variable the user names, and is sent only as a header: it never enters
``params``, ``info``, error messages, logs or stored answers (an answer that echoes it has it
replaced by ``[redacted]``).
"""

from __future__ import annotations

import asyncio
import base64
import io
import json
import os
import time
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

import aiohttp

from medvqa.benchmark import ImageInput
from medvqa.models._base import (
    EndpointAuthError,
    EndpointUnreachableError,
    GenerateRequest,
    GenerateResponse,
    ModelConfig,
    ModelRequestError,
    TransientModelError,
)
from medvqa.models._endpoint import (
    check_endpoint_url,
    query_secrets,
    redact_known,
    redact_secrets,
    redact_url_query,
    retry_after_seconds,
    with_path,
)

DEFAULT_BASE_URL = "https://api.openai.com/v1"
_TRANSIENT = {408, 409, 425, 429, 500, 502, 503, 504}
#: Statuses that mean the key is missing or refused: the run stops instead of retrying.
_AUTH = {401, 403}


#: Image types every hosted API accepts; anything else (TIFF, BMP …) is sent as PNG.
WEB_MIMES = frozenset({"image/png", "image/jpeg", "image/webp", "image/gif"})


def web_image(image: ImageInput) -> tuple[bytes, str]:
    """The image's bytes and MIME type, transcoded losslessly to PNG when not a web format."""
    if image.mime in WEB_MIMES:
        return image.data, image.mime
    from PIL import Image

    buf = io.BytesIO()
    Image.open(io.BytesIO(image.data)).save(buf, format="PNG")
    return buf.getvalue(), "image/png"


class ImagePartCache:
    """JSON text of an image's content part, built once per image hash (LRU).

    Subclasses change :meth:`encode` for another API's image part.
    """

    def __init__(self, max_entries: int = 256):
        self._parts: OrderedDict[str, str] = OrderedDict()
        self.max_entries = max_entries

    def encode(self, image: ImageInput) -> str:
        """The serialised OpenAI ``image_url`` part with a base64 ``data:`` URL."""
        data, mime = web_image(image)
        url = f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"
        return json.dumps({"type": "image_url", "image_url": {"url": url}})

    def part(self, image: ImageInput) -> str:
        """The serialised content part for ``image``."""
        cached = self._parts.get(image.sha256)
        if cached is not None:
            self._parts.move_to_end(image.sha256)
            return cached
        text = self.encode(image)
        self._parts[image.sha256] = text
        if len(self._parts) > self.max_entries:
            self._parts.popitem(last=False)
        return text


class OpenAICompatModel:
    """Chat completions over HTTP; one request per item, concurrency set by the runner."""

    batch_size = 1
    default_base_url = DEFAULT_BASE_URL
    default_key_env = "OPENAI_API_KEY"

    def __init__(self, config: ModelConfig, model: str, base_url: str):
        self.key_env = config.api_key_env or self.default_key_env
        check_endpoint_url(base_url, self.key_env)
        self.model = model
        self.base_url = (base_url or self.default_base_url).rstrip("/")
        # A key in the URL's query is sent, never recorded (run.json, cache key, console).
        self.name = redact_url_query(config.spec)
        self.timeout_s = config.timeout_s
        self.params: dict[str, Any] = self.request_params(config)
        self.info: dict[str, Any] = {"text_only": False,
                                     "endpoint": redact_url_query(self.base_url)}
        key = os.environ.get(self.key_env, "")
        self._secrets = ((key,) if key else ()) + query_secrets(self.base_url)
        self._headers = {"Content-Type": "application/json"}
        if key:
            self._headers |= self.auth_headers(key)
        self._images = self.image_parts()
        self._session: aiohttp.ClientSession | None = None
        self._fixed = json.dumps(
            {"model": model, **{k: v for k, v in self.params.items() if v is not None}}
        )[1:-1]

    def __repr__(self) -> str:
        return (f"{type(self).__name__}(model={self.model!r}, "
                f"base_url={redact_url_query(self.base_url)!r})")

    def request_params(self, config: ModelConfig) -> dict[str, Any]:
        """Answer-changing body parameters (also the cache identity)."""
        return {"temperature": config.temperature, "max_tokens": config.max_tokens,
                "seed": config.seed, **config.extra}

    def auth_headers(self, key: str) -> dict[str, str]:
        """Headers that carry the API key (never logged, never written)."""
        return {"Authorization": f"Bearer {key}"}

    def image_parts(self) -> ImagePartCache:
        """The cache that serialises image content parts for this API."""
        return ImagePartCache()

    async def start(self) -> None:
        """Open the session and check that something listens at the endpoint (fast)."""
        connector = aiohttp.TCPConnector(limit=0, ttl_dns_cache=300, keepalive_timeout=60)
        self._session = aiohttp.ClientSession(
            connector=connector,
            headers=self._headers,
            timeout=aiohttp.ClientTimeout(total=self.timeout_s, sock_connect=10),
        )
        parts = urlsplit(self.base_url)
        host, port = parts.hostname or "", parts.port or (443 if parts.scheme == "https" else 80)
        try:
            _, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout=5)
            writer.close()
        except (OSError, asyncio.TimeoutError) as exc:
            await self.aclose()
            raise EndpointUnreachableError(
                f"cannot reach {redact_url_query(self.base_url)}: {exc.__class__.__name__}: {exc}"
            ) from None

    async def aclose(self) -> None:
        """Close the HTTP session."""
        if self._session is not None:
            await self._session.close()
            self._session = None

    def body(self, request: GenerateRequest) -> str:
        """The JSON request body, assembled from cached fragments."""
        content = [json.dumps({"type": "text", "text": request.prompt})]
        content += [self._images.part(img) for img in request.images]
        user = '{"role":"user","content":[' + ",".join(content) + "]}"
        messages = user
        if request.system:
            messages = json.dumps({"role": "system", "content": request.system}) + "," + user
        return "{" + self._fixed + ',"messages":[' + messages + "]}"

    async def generate(self, requests: Sequence[GenerateRequest]) -> list[GenerateResponse]:
        """Send each request (the runner calls with one at a time, concurrently)."""
        return [await self._one(r) for r in requests]

    @property
    def endpoint(self) -> str:
        """The URL requests are posted to."""
        return with_path(self.base_url, "/chat/completions")

    def answer_text(self, payload: Any) -> str:
        """The answer text in a decoded response body (KeyError/IndexError/TypeError if none).

        ``content: null`` is no answer: a :class:`ModelRequestError` naming the finish reason,
        unless the endpoint says the model refused (``message.refusal``), whose text is then the
        answer (scored as whatever the parser makes of it, usually invalid).
        """
        choice = payload["choices"][0]
        message = choice["message"]
        content = message.get("content")
        if isinstance(content, str):
            return content
        if isinstance(content, list):  # content parts
            return "".join(p.get("text", "") for p in content if isinstance(p, dict))
        refusal = message.get("refusal")
        if isinstance(refusal, str):
            return refusal
        raise ModelRequestError(
            f"no answer from {redact_url_query(self.endpoint)}: content is null "
            f"(finish_reason {choice.get('finish_reason')!r})"
        )

    async def _one(self, request: GenerateRequest) -> GenerateResponse:
        if self._session is None:
            await self.start()
        assert self._session is not None
        url = redact_url_query(self.endpoint)  # as shown in messages; the post gets the key
        try:
            body = self.body(request)
        except Exception as exc:  # noqa: BLE001 - an image that cannot be encoded fails its item
            raise ModelRequestError(
                f"cannot encode the request for {url}: {type(exc).__name__}: {exc}"
            ) from None
        t0 = time.perf_counter()
        try:
            async with self._session.post(self.endpoint, data=body) as resp:
                raw = await resp.read()
                status = resp.status
                retry_after = resp.headers.get("Retry-After")
        except asyncio.TimeoutError:
            raise TransientModelError(f"timeout after {self.timeout_s:g} s from {url}") from None
        except aiohttp.ClientConnectorError as exc:
            raise TransientModelError(f"cannot connect to {url}: {exc.os_error}") from None
        except aiohttp.ClientError as exc:
            raise TransientModelError(f"{exc.__class__.__name__} from {url}") from None
        latency = time.perf_counter() - t0
        if status != 200:
            excerpt = redact_secrets(
                raw[:200].decode("utf-8", "replace").replace("\n", " "), self._secrets
            )
            message = f"HTTP {status} from {url}: {excerpt}"
            if status in _AUTH:
                raise EndpointAuthError(
                    f"{message} (check the key in ${self.key_env}, or name another variable "
                    "with --api-key-env)"
                )
            if status in _TRANSIENT or status >= 500:
                raise TransientModelError(message, retry_after_s=retry_after_seconds(retry_after))
            raise ModelRequestError(message)
        try:
            text = self.answer_text(json.loads(raw))
        except (ValueError, KeyError, IndexError, TypeError):
            excerpt = redact_secrets(repr(raw[:200]), self._secrets)
            raise ModelRequestError(f"malformed response from {url}: {excerpt}") from None
        # An endpoint may echo the key in a 200 answer; it must not reach the cache or a file.
        return GenerateResponse(text=redact_known(text, self._secrets), latency_s=latency)
