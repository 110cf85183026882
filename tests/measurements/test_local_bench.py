"""The hf-backend bench: the GPU measurement code runs end to end on the CPU at the tiny size."""

from __future__ import annotations

import pytest
import torch

from medvqa.measurements._local import NoGPUError, bench_gpu, hf_vs_generate


@pytest.mark.slow
def test_hf_vs_generate_measures_every_configuration_on_cpu() -> None:
    rates = hf_vs_generate("tiny", "cpu", "float32", (1, 2), new_tokens=4, reps=1)
    assert set(rates) == {(c, b) for c in ("generate", "generate+static", "hf backend")
                          for b in (1, 2)}
    assert all(r > 0 for r in rates.values())


@pytest.mark.skipif(torch.cuda.is_available(), reason="this machine has a GPU")
def test_gpu_section_is_skipped_cleanly_without_cuda() -> None:
    with pytest.raises(NoGPUError, match="no CUDA GPU"):
        bench_gpu(quick=True)


def _torchvision_imports() -> bool:
    try:
        import torchvision  # noqa: F401
    except Exception:  # noqa: BLE001 - PyPI's torchvision does not import beside the CPU torch
        return False
    return True


@pytest.mark.slow
@pytest.mark.skipif(not _torchvision_imports(), reason="the Qwen2-VL processor needs torchvision")
def test_qwen2vl_shape_measures_every_configuration() -> None:
    rates = hf_vs_generate("qwen2vl-tiny", "cpu", "float32", (1, 2), new_tokens=4, reps=1)
    assert len(rates) == 6 and all(r > 0 for r in rates.values())


@pytest.mark.skipif(_torchvision_imports(), reason="torchvision imports here")
def test_qwen2vl_without_torchvision_says_so() -> None:
    from medvqa.testing._random_qwen2vl import NeedsTorchvisionError, random_qwen2vl

    with pytest.raises(NeedsTorchvisionError, match="torchvision"):
        random_qwen2vl("tiny")
