"""The hf-backend bench: the GPU measurement code runs end to end on the CPU at the tiny size."""

from __future__ import annotations

import pytest
import torch

from medvqa.bench._local import NoGPUError, bench_gpu, hf_vs_generate


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
