"""The eight PathMMU corruptions on real images: monotone in severity, keep size and mode."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from _cond_images import LUNG, MIAS

from medvqa.conditions import CORRUPTIONS, SEVERITIES

COLOUR_TILES = [cv2.imread(str(p), cv2.IMREAD_COLOR) for p in LUNG[::400][:3]]
MAMMOGRAMS = [cv2.imread(str(p), cv2.IMREAD_GRAYSCALE) for p in MIAS[:3]]


def psnr(a: np.ndarray, b: np.ndarray) -> float:
    mse = float(np.mean((a.astype(float) - b.astype(float)) ** 2))
    return float("inf") if mse == 0 else 10 * np.log10(255**2 / mse)


def mean_psnr(name: str, images: list[np.ndarray], severity: int) -> float:
    fn = CORRUPTIONS[name].fn
    return float(np.mean([psnr(im, fn(im, severity, np.random.default_rng(0))) for im in images]))


@pytest.mark.parametrize("name", list(CORRUPTIONS))
def test_psnr_falls_with_severity_on_colour_tiles(name: str) -> None:
    curve = [mean_psnr(name, COLOUR_TILES, s) for s in SEVERITIES]
    assert all(a > b for a, b in zip(curve, curve[1:], strict=False)), curve


@pytest.mark.parametrize("name", [n for n, c in CORRUPTIONS.items() if not c.colour_only])
def test_psnr_falls_with_severity_on_mammograms(name: str) -> None:
    curve = [mean_psnr(name, MAMMOGRAMS, s) for s in SEVERITIES]
    assert all(a > b for a, b in zip(curve, curve[1:], strict=False)), curve


@pytest.mark.parametrize("name", list(CORRUPTIONS))
def test_greyscale_stays_greyscale_and_same_size(name: str) -> None:
    out = CORRUPTIONS[name].fn(MAMMOGRAMS[0], 3, np.random.default_rng(0))
    assert out.shape == MAMMOGRAMS[0].shape and out.dtype == np.uint8


@pytest.mark.parametrize("name", list(CORRUPTIONS))
def test_colour_stays_colour_and_same_size(name: str) -> None:
    out = CORRUPTIONS[name].fn(COLOUR_TILES[0], 3, np.random.default_rng(0))
    assert out.shape == COLOUR_TILES[0].shape and out.dtype == np.uint8


@pytest.mark.parametrize("name", ["hue", "saturation"])
def test_colour_only_corruptions_leave_greyscale_unchanged(name: str) -> None:
    out = CORRUPTIONS[name].fn(MAMMOGRAMS[0], 5, np.random.default_rng(0))
    assert np.array_equal(out, MAMMOGRAMS[0])


def test_severity_outside_1_to_5_is_refused() -> None:
    with pytest.raises(ValueError, match="severity"):
        CORRUPTIONS["jpeg"].fn(COLOUR_TILES[0], 6, np.random.default_rng(0))


@pytest.mark.parametrize("name", [n for n, c in CORRUPTIONS.items() if c.random])
def test_random_corruptions_depend_on_the_generator_only(name: str) -> None:
    fn = CORRUPTIONS[name].fn
    a = fn(COLOUR_TILES[0], 3, np.random.default_rng(7))
    b = fn(COLOUR_TILES[0], 3, np.random.default_rng(7))
    c = fn(COLOUR_TILES[0], 3, np.random.default_rng(8))
    assert np.array_equal(a, b) and not np.array_equal(a, c)
