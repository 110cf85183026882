#!/bin/bash
# Issue 25 device run: wheels, CUDA-only tests, then the GPU figures (see .gpu/figures.py).
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv 2>&1 | tee $OUT/nvidia-smi.txt
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .gpu/whl/*.whl || exit 3
export PYTHONPATH=/tmp/site:$PWD/src
python3 -c "import torch, transformers, torchvision; print(torch.__version__, transformers.__version__, torchvision.__version__, torch.cuda.is_available())" 2>&1 | tee $OUT/versions.txt
timeout 90 python3 -m pytest -q -p no:cacheprovider -p no:randomly -o addopts="" \
  tests/models/test_hf_device.py "tests/train/test_classifier_bad_input.py::test_trains_on_a_gpu" \
  "tests/train/test_classifier_bad_input.py::test_unknown_arch_and_missing_gpu" > $OUT/cuda-tests.log 2>&1
echo "cuda tests exit $?"; tail -5 $OUT/cuda-tests.log
timeout ${FIG_TIMEOUT:-420} python3 .gpu/figures.py ${FIG_BUDGET:-300} 2>&1 | tee $OUT/figures.log | grep -v Warning | tail -40
echo "figures exit ${PIPESTATUS[0]}"
