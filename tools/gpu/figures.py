"""Device driver for issue 25: the same measurement as `medvqa bench --only gpu`
(medvqa.measurements._local.hf_vs_generate), one (model, batch) at a time, each result written to
$OUT/figures.json as soon as it exists. The SmolLM2 tokenizer comes from a saved folder
(.gpu/tokenizer) because the 98 MB GGUF it is normally read from does not travel."""

import gc
import json
import os
import platform
import sys
import time
import traceback

START = time.time()
BUDGET_S = float(sys.argv[1]) if len(sys.argv) > 1 else 330.0
OUT = os.environ.get("OUT", ".")
res = {"figures": [], "errors": [], "backend_info": [], "skipped": []}


def save() -> None:
    res["elapsed_s"] = round(time.time() - START, 1)
    with open(f"{OUT}/figures.json", "w") as f:
        json.dump(res, f, indent=1, default=str)


import accelerate  # noqa: E402
import torch  # noqa: E402
import transformers  # noqa: E402

CUDA = torch.cuda.is_available()  # without it: a dry run of this script at the tiny sizes
res.update(device=torch.cuda.get_device_name(0) if CUDA else "cpu (dry run)", torch=torch.__version__,
           transformers=transformers.__version__, accelerate=accelerate.__version__,
           python=platform.python_version(), cuda=torch.version.cuda)
save()
print({k: res[k] for k in ("device", "torch", "transformers", "accelerate", "python")}, flush=True)

from transformers import AutoTokenizer  # noqa: E402

import medvqa.testing._random_qwen2vl as rq  # noqa: E402
import medvqa.testing._random_vlm as rv  # noqa: E402


def saved_tokenizer(extra):
    t = AutoTokenizer.from_pretrained(".gpu/tokenizer")
    t.add_special_tokens({"additional_special_tokens": extra})
    return t


rv.smollm2_tokenizer = saved_tokenizer
rq.smollm2_tokenizer = saved_tokenizer

from medvqa.measurements._local import GPU_MODELS, hf_vs_generate  # noqa: E402
from medvqa.models import _hf_vlm  # noqa: E402

_close = _hf_vlm.LocalVLM.aclose


async def close_and_record(self):
    res["backend_info"].append(dict({k: self.info.get(k) for k in
                                ("weights", "device", "dtype", "cache", "cache_fallback",
                                 "attn_implementation", "batch_size")},
                               tokens=self.tokens_generated, generate_s=round(self.generate_s, 3),
                               generate_only_tokens_per_s=round(
                                   self.tokens_generated / max(self.generate_s, 1e-9), 1)))
    await _close(self)


_hf_vlm.LocalVLM.aclose = close_and_record

MODELS = GPU_MODELS if CUDA else {"tiny LLaVA": "tiny", "tiny Qwen2-VL": "qwen2vl-tiny"}
ORDER = [(label, shape, b) for label, shape in MODELS.items() for b in (1, 16)]
if os.environ.get("FIG_ORDER"):  # e.g. "0,1,3,2": which stages, in which order
    ORDER = [ORDER[int(i)] for i in os.environ["FIG_ORDER"].split(",")]
for label, shape, b in ORDER:
    if True:
        if time.time() - START > BUDGET_S:
            res["skipped"].append(f"{label} batch {b}: time budget spent")
            save()
            continue
        t0 = time.time()
        try:
            rates = (hf_vs_generate(shape, "cuda:0", "bfloat16", (b,), reps=3) if CUDA else
                     hf_vs_generate(shape, "cpu", "float32", (b,), new_tokens=4, reps=1))
            best = max(rates[("generate", b)], rates[("generate+static", b)])
            for (config, bb), r in rates.items():
                res["figures"].append({"model": label, "batch": bb, "config": config,
                                       "tokens_per_s": round(r, 1)})
            res["figures"].append({"model": label, "batch": b,
                                   "config": "hf backend / best generate",
                                   "ratio": round(rates[("hf backend", b)] / best, 3),
                                   "stage_s": round(time.time() - t0, 1)})
        except Exception as exc:  # noqa: BLE001
            res["errors"].append({"stage": f"{label} batch {b}", "error": repr(exc),
                                  "traceback": traceback.format_exc()[-4000:]})
            if "torchvision" in repr(exc):
                save()
                break
        gc.collect()
        if CUDA:
            torch.cuda.empty_cache()
            res["max_memory_gb"] = round(torch.cuda.max_memory_allocated() / 2**30, 2)
        save()
        print(json.dumps(res["figures"][-4:]), flush=True)
print("done", round(time.time() - START, 1), flush=True)
