"""Device, dtype and attention flags of local models: resolved and checked before any load."""

from __future__ import annotations

import pytest
import torch

from medvqa.errors import BadInputError
from medvqa.models import ModelConfig, load_model
from medvqa.models._hf_device import (
    generate_with_fallback,
    resolve_device,
    resolve_dtype,
    resolve_placement,
)

NO_CUDA = not torch.cuda.is_available()


def test_auto_on_a_cpu_machine_is_cpu_float32() -> None:
    if not NO_CUDA:
        pytest.skip("this machine has a GPU")
    p = resolve_placement()
    assert (p.device, p.dtype, p.cache) == ("cpu", "float32", "dynamic")
    assert p.record()["attn_implementation"] == "default"


@pytest.mark.parametrize("bad", ["gpu", "cuda:x", "tpu", "cuda0"])
def test_unknown_device_is_one_line(bad: str) -> None:
    with pytest.raises(BadInputError, match="unknown device") as exc:
        resolve_device(bad)
    assert "\n" not in str(exc.value)


@pytest.mark.skipif(not NO_CUDA, reason="this machine has a GPU")
@pytest.mark.parametrize("asked", ["cuda", "cuda:1"])
def test_cuda_asked_where_none_exists(asked: str) -> None:
    with pytest.raises(BadInputError, match="no CUDA GPU is visible"):
        resolve_device(asked)


def test_dtype_checked_and_resolved() -> None:
    assert resolve_dtype("auto", "cpu") == "float32"
    assert resolve_dtype("bfloat16", "cpu") == "bfloat16"
    with pytest.raises(BadInputError, match="unknown dtype"):
        resolve_dtype("fp8", "cpu")


def test_flash_attention_without_the_package_is_one_line() -> None:
    pytest.importorskip("torch")
    import importlib.util

    if importlib.util.find_spec("flash_attn") is not None:
        pytest.skip("flash-attn is installed")
    with pytest.raises(BadInputError, match="flash-attn package is not installed"):
        resolve_placement(device="cpu", attn_implementation="flash_attention_2")


def test_bad_device_refused_before_loading(tmp_path) -> None:
    (tmp_path / "config.json").write_text('{"vision_config": {}}')
    with pytest.raises(BadInputError, match="unknown device"):
        load_model(ModelConfig(spec=f"hf:{tmp_path}", device="gpu0"))


def test_static_cache_failure_falls_back_once_and_says_why() -> None:
    calls: list[dict] = []

    def generate(**kwargs):
        calls.append(kwargs)
        if kwargs.get("cache_implementation") == "static":
            raise RuntimeError("rope code cannot be captured")
        return "ok"

    state = {"cache": "static"}
    assert generate_with_fallback(generate, {"x": 1}, state) == "ok"
    assert state["cache"] == "dynamic" and "rope code" in state["cache_fallback"]
    assert generate_with_fallback(generate, {"x": 2}, state) == "ok"
    assert [c.get("cache_implementation") for c in calls] == ["static", None, None]


@pytest.mark.skipif(NO_CUDA, reason="needs a CUDA GPU")
def test_auto_on_a_gpu_is_cuda_half_precision_static_cache() -> None:
    p = resolve_placement()
    assert p.device == "cuda:0" and p.dtype in {"bfloat16", "float16"} and p.cache == "static"
