"""Every registered condition on real colour and greyscale images: deterministic bytes, same
size, greyscale kept, nothing written anywhere; plus name expansion and lookup errors."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from medvqa._registry import UnknownNameError
from medvqa.conditions import (
    CORRUPTIONS,
    PerturbedCache,
    decode,
    expand_conditions,
    get_condition,
)

EVERY = expand_conditions(
    ["clean", "blind", "blind:grey", "noise", "text-only", "corrupt:all@3", "swap", "permute@1",
     "ood"])
IMAGE_CONDITIONS = ["blind", "blind:grey", "noise", "ood"] + [f"corrupt:{c}@3" for c in CORRUPTIONS]


def fresh(name: str, seed: int = 0):
    cond = get_condition(name, seed)
    if hasattr(cond, "cache"):
        cond.cache = PerturbedCache()  # no sharing between the two runs compared
    return cond


@pytest.mark.parametrize("name", EVERY)
def test_every_condition_is_deterministic_on_real_images(name: str, real) -> None:
    item, image = real
    a, b = fresh(name), fresh(name)
    a.prepare([item]), b.prepare([item])
    assert a.transform_item(item) == b.transform_item(item)
    out_a, out_b = a.transform_images(item, (image,)), b.transform_images(item, (image,))
    assert (out_a is None) == (out_b is None)
    if out_a is not None:
        assert [i.data for i in out_a] == [i.data for i in out_b]


@pytest.mark.parametrize("name", IMAGE_CONDITIONS)
def test_image_conditions_keep_size_and_mode(name: str, real) -> None:
    item, image = real
    (out,) = fresh(name).transform_images(item, (image,))
    src, got = (cv2.imdecode(np.frombuffer(i.data, np.uint8), cv2.IMREAD_UNCHANGED)
                for i in (image, out))
    assert got.shape == src.shape  # same size, and one channel stays one channel
    assert out.mime == "image/png"


@pytest.mark.parametrize("name", ["noise", "ood", "corrupt:motion@3", "corrupt:bubble@3"])
def test_random_conditions_vary_with_item_and_seed(name: str, colour) -> None:
    item, image = colour
    other = item.model_copy(update={"id": "lung-1"})
    base = fresh(name).transform_images(item, (image,))[0].sha256
    assert fresh(name).transform_images(other, (image,))[0].sha256 != base or name == "ood"
    assert fresh(name, seed=1).transform_images(item, (image,))[0].sha256 != base or name == "ood"


def test_blind_is_black_and_blind_grey_is_the_mean(colour) -> None:
    item, image = colour
    black = decode(fresh("blind").transform_images(item, (image,))[0])
    grey = decode(fresh("blind:grey").transform_images(item, (image,))[0])
    assert black.max() == 0
    mean = decode(image).reshape(-1, 3).mean(axis=0)
    assert np.allclose(grey.reshape(-1, 3)[0], mean, atol=0.5)
    assert (grey == grey.reshape(-1, 3)[0]).all()


def test_noise_has_the_requested_moments(grey) -> None:
    item, image = grey
    pixels = decode(fresh("noise").transform_images(item, (image,))[0]).astype(float)
    assert abs(pixels.mean() - 128) < 2 and 55 < pixels.std() < 66


def test_text_only_sends_no_image(colour) -> None:
    item, image = colour
    assert fresh("text-only").transform_images(item, (image,)) is None


def test_ood_shows_a_natural_photo_and_asks_to_abstain(colour) -> None:
    item, image = colour
    cond = fresh("ood")
    assert "not a relevant medical image" in cond.transform_item(item).question
    photo = decode(cond.transform_images(item, (image,))[0])
    assert cv2.PSNR(photo, decode(image)) < 15


def test_hue_skips_greyscale_modalities(grey, colour) -> None:
    hue = get_condition("corrupt:hue@3")
    assert not hue.applies_to(grey[0]) and hue.applies_to(colour[0])
    assert get_condition("corrupt:jpeg@3").applies_to(grey[0])


def test_image_conditions_skip_items_without_images(colour) -> None:
    item = colour[0].model_copy(update={"images": []})
    assert not get_condition("blind").applies_to(item)
    assert not get_condition("corrupt:jpeg@1").applies_to(item)


def test_cache_on_disk_is_reused_by_a_new_process_cache(colour, tmp_path) -> None:
    item, image = colour
    first = get_condition("corrupt:defocus@2")
    first.cache = PerturbedCache(folder=tmp_path)
    out = first.transform_images(item, (image,))[0]
    second = get_condition("corrupt:defocus@2")
    second.cache = PerturbedCache(folder=tmp_path)
    assert second.transform_images(item, (image,))[0] == out
    assert second.cache.hits == 1 and second.cache.misses == 0


def test_corrupt_all_expands_to_forty_names() -> None:
    names = expand_conditions(["corrupt:all@1-5"])
    assert len(names) == 40
    assert names[0] == "corrupt:brightness@1" and names[-1] == "corrupt:motion@5"


def test_permute_expands_to_shifts_and_duplicates_collapse() -> None:
    assert expand_conditions(["permute", "permute@0"])[:2] == ["permute@0", "permute@1"]
    assert expand_conditions(["blind", "blind"]) == ["blind"]


@pytest.mark.parametrize("spec,hint", [("blnd", "blind"), ("corrupt:jpg@3", "jpeg"),
                                       ("corrupt:motoin@1", "motion")])
def test_unknown_names_suggest_close_ones(spec: str, hint: str) -> None:
    with pytest.raises(UnknownNameError, match=f"Did you mean '{hint}'"):
        expand_conditions([spec])


@pytest.mark.parametrize("spec", ["corrupt:jpeg@6", "corrupt:jpeg@0-2", "permute@x", "blind@3"])
def test_bad_parameters_are_value_errors(spec: str) -> None:
    with pytest.raises(ValueError):
        for name in expand_conditions([spec]):
            get_condition(name)


def test_undecodable_image_is_a_clear_image_error(colour) -> None:
    from medvqa.benchmark import ImageInput, ImageLoadError

    item, _ = colour
    bad = ImageInput(b"DICM not an image", "application/dicom", "ab" * 32)
    with pytest.raises(ImageLoadError, match="cannot be decoded"):
        get_condition("blind").transform_images(item, (bad,))
