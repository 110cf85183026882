"""Fixtures of the condition tests: a real colour H&E tile and a real greyscale mammogram."""

from __future__ import annotations

import pytest
from _cond_images import LUNG, MIAS, image_input, make_item

from medvqa.benchmark import ImageInput
from medvqa.schema import Item


@pytest.fixture(scope="session")
def colour() -> tuple[Item, ImageInput]:
    """A 224² H&E tile (colour)."""
    img = image_input(LUNG[0])
    return make_item(img, "lung-0", "histopathology (H&E)"), img


@pytest.fixture(scope="session")
def grey() -> tuple[Item, ImageInput]:
    """A 1024² mammogram (greyscale JPEG)."""
    img = image_input(MIAS[0])
    return make_item(img, "mias-0", "mammography (MLO)"), img


@pytest.fixture(params=["colour", "grey"])
def real(request) -> tuple[Item, ImageInput]:
    """Each of the two real images in turn."""
    return request.getfixturevalue(request.param)
