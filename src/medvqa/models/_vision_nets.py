"""Image classifiers in plain PyTorch for the ``supervised:`` backend and ``medvqa train``.

Three trunks (a small CNN as in LMOD's 128-pixel baseline, ResNet-18 and ResNet-50 as in
MammoVQA) share one shape: ``trunk(x) -> (N, features)``. The ResNets use torchvision's
parameter names, so a torchvision ``state_dict`` file loads with ``--weights`` (torchvision itself
does not import beside the CPU torch wheel used here). :class:`HeadedNet` puts one linear head per
question category either on one shared trunk (``multi``) or on one trunk per category
(``expert``), the two set-ups MammoVQA compared.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import numpy as np

from medvqa.errors import BadInputError

ARCHS = ("small-cnn", "resnet18", "resnet50")
#: ImageNet channel statistics: pixels are normalised with them, so pretrained weights fit.
MEAN = np.array([0.485, 0.456, 0.406], dtype=np.float32)
STD = np.array([0.229, 0.224, 0.225], dtype=np.float32)


def decode_image(data: bytes, size: int) -> np.ndarray:
    """Decode image bytes to an RGB ``(size, size, 3)`` uint8 array (bilinear resize, no crop).

    Raises:
        OSError or ValueError: the bytes are not an image PIL can read.
    """
    from PIL import Image

    with Image.open(io.BytesIO(data)) as img:
        rgb = img.convert("RGB").resize((size, size), Image.Resampling.BILINEAR)
        return np.asarray(rgb, dtype=np.uint8)


def to_tensor(batch: np.ndarray) -> Any:
    """``(N, H, W, 3)`` uint8 → normalised float ``(N, 3, H, W)`` tensor.

    An all-zero normalised image is the training mean: the classifier's input when a condition
    sends no image (``blind``).
    """
    import torch

    x = (batch.astype(np.float32) / 255.0 - MEAN) / STD
    return torch.from_numpy(np.ascontiguousarray(x.transpose(0, 3, 1, 2)))


def _small_cnn() -> tuple[Any, int]:
    from torch import nn

    layers: list[nn.Module] = []
    width = 3
    for out in (16, 32, 64, 128):
        layers += [nn.Conv2d(width, out, 3, padding=1, bias=False), nn.BatchNorm2d(out),
                   nn.ReLU(inplace=True), nn.MaxPool2d(2)]
        width = out
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten()]
    return nn.Sequential(*layers), width


def _resnet(depth: int) -> tuple[Any, int]:
    """A torchvision-compatible ResNet trunk (no ``fc``): 18 = basic blocks, 50 = bottlenecks."""
    import torch
    from torch import nn

    class Basic(nn.Module):
        expansion = 1

        def __init__(self, cin: int, width: int, stride: int):
            super().__init__()
            self.conv1 = nn.Conv2d(cin, width, 3, stride, 1, bias=False)
            self.bn1 = nn.BatchNorm2d(width)
            self.conv2 = nn.Conv2d(width, width, 3, 1, 1, bias=False)
            self.bn2 = nn.BatchNorm2d(width)
            self.downsample = _down(cin, width, stride)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            out = torch.relu(self.bn1(self.conv1(x)))
            out = self.bn2(self.conv2(out))
            return torch.relu(out + (x if self.downsample is None else self.downsample(x)))

    class Bottleneck(nn.Module):
        expansion = 4

        def __init__(self, cin: int, width: int, stride: int):
            super().__init__()
            self.conv1 = nn.Conv2d(cin, width, 1, bias=False)
            self.bn1 = nn.BatchNorm2d(width)
            self.conv2 = nn.Conv2d(width, width, 3, stride, 1, bias=False)
            self.bn2 = nn.BatchNorm2d(width)
            self.conv3 = nn.Conv2d(width, width * 4, 1, bias=False)
            self.bn3 = nn.BatchNorm2d(width * 4)
            self.downsample = _down(cin, width * 4, stride)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            out = torch.relu(self.bn1(self.conv1(x)))
            out = torch.relu(self.bn2(self.conv2(out)))
            out = self.bn3(self.conv3(out))
            return torch.relu(out + (x if self.downsample is None else self.downsample(x)))

    def _down(cin: int, cout: int, stride: int) -> nn.Module | None:
        if stride == 1 and cin == cout:
            return None
        return nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

    block, counts = (Basic, (2, 2, 2, 2)) if depth == 18 else (Bottleneck, (3, 4, 6, 3))

    class ResNetTrunk(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.conv1 = nn.Conv2d(3, 64, 7, 2, 3, bias=False)
            self.bn1 = nn.BatchNorm2d(64)
            self.maxpool = nn.MaxPool2d(3, 2, 1)
            cin = 64
            for i, (width, n) in enumerate(zip((64, 128, 256, 512), counts, strict=True)):
                blocks = []
                for j in range(n):
                    blocks.append(block(cin, width, 2 if (j == 0 and i > 0) else 1))
                    cin = width * block.expansion
                setattr(self, f"layer{i + 1}", nn.Sequential(*blocks))
            self.out_features = cin

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            x = self.maxpool(torch.relu(self.bn1(self.conv1(x))))
            for i in range(1, 5):
                x = getattr(self, f"layer{i}")(x)
            return torch.flatten(torch.nn.functional.adaptive_avg_pool2d(x, 1), 1)

    trunk = ResNetTrunk()
    return trunk, trunk.out_features


def build_trunk(arch: str) -> tuple[Any, int]:
    """A randomly initialised trunk and its feature width (torch's default init; caller seeds)."""
    if arch == "small-cnn":
        return _small_cnn()
    if arch in {"resnet18", "resnet50"}:
        return _resnet(int(arch[6:]))
    raise BadInputError(f"unknown architecture {arch!r}; choose one of {', '.join(ARCHS)}")


def load_trunk_weights(trunk: Any, path: Path, arch: str) -> None:
    """Load a ``state_dict`` file (``.safetensors``, or ``.pt``/``.pth`` read weights-only).

    A classification head (``fc.*``) in the file is ignored; every other tensor must match.

    Raises:
        BadInputError: unreadable file, or tensors that do not fit ``arch`` (names the first).
    """
    import torch

    try:
        if path.suffix == ".safetensors":
            from safetensors.torch import load_file

            state = load_file(str(path))
        else:
            loaded = torch.load(path, map_location="cpu", weights_only=True)
            if isinstance(loaded, dict) and isinstance(loaded.get("state_dict"), dict):
                loaded = loaded["state_dict"]
            state = loaded
    except Exception as exc:  # noqa: BLE001  (any unreadable file is one bad-input line)
        raise BadInputError(f"--weights {path}: cannot read a state_dict ({exc})") from None
    if not isinstance(state, dict):
        raise BadInputError(f"--weights {path}: not a state_dict (a {type(state).__name__})")
    state = {k.removeprefix("module."): v for k, v in state.items() if not k.startswith("fc.")}
    own = trunk.state_dict()
    missing = [k for k in own if k not in state]
    extra = [k for k in state if k not in own]
    wrong = [k for k in own if k in state and tuple(state[k].shape) != tuple(own[k].shape)]
    if missing or extra or wrong:
        what = (f"shape of {wrong[0]} is {tuple(state[wrong[0]].shape)}, not "
                f"{tuple(own[wrong[0]].shape)}" if wrong
                else f"{len(missing)} tensors missing (first {missing[0]!r})" if missing
                else f"{len(extra)} unexpected tensors (first {extra[0]!r})")
        raise BadInputError(f"--weights {path}: not {arch} weights ({what})")
    trunk.load_state_dict(state)


def build_net(arch: str, heads: dict[str, int], mode: str) -> Any:
    """A :class:`HeadedNet` for ``arch`` with one head of ``heads[category]`` classes each."""
    from torch import nn

    class HeadedNet(nn.Module):
        """Trunks (one shared, or one per category) and one linear head per category."""

        def __init__(self) -> None:
            super().__init__()
            self.categories = list(heads)
            self.mode = mode
            keys = ["shared"] if mode == "multi" else [f"c{i}" for i in range(len(heads))]
            self.trunks = nn.ModuleDict()
            self.heads = nn.ModuleDict()
            width = 0
            for key in keys:
                self.trunks[key], width = build_trunk(arch)
            for i, n in enumerate(heads.values()):
                self.heads[f"c{i}"] = nn.Linear(width, n)
            self.width = width

        def trunk_of(self, category: str) -> Any:
            return self.trunks["shared" if self.mode == "multi" else self._key(category)]

        def _key(self, category: str) -> str:
            return f"c{self.categories.index(category)}"

        def forward(self, x: Any, category: str) -> Any:
            """Logits of ``category``'s head for a batch of that category."""
            return self.heads[self._key(category)](self.trunk_of(category)(x))

    return HeadedNet()
