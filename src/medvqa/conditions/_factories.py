"""One factory per condition family: ``fn(seed, variant, parameter) -> Condition``.

The registry in :mod:`._registry` maps family names to these; each checks that the name it is
given has exactly the parts its family takes, so ``blind@3`` or ``swap:x`` is an error rather
than silently the same as ``blind`` or ``swap``.
"""

from __future__ import annotations

from medvqa.conditions._base import Condition


def _no_parts(family: str, variant: str, param: str) -> None:
    if variant or param:
        extra = (f":{variant}" if variant else "") + (f"@{param}" if param else "")
        raise ValueError(f"condition {family!r} takes no {extra!r}")


def make_clean(seed: int, variant: str, param: str) -> Condition:
    """``clean``: the identity."""
    _no_parts("clean", variant, param)
    return Condition(seed)


def make_blind(seed: int, variant: str, param: str) -> Condition:
    """``blind`` (black) or ``blind:grey`` (mean grey)."""
    from medvqa.conditions._image import Blind

    _no_parts("blind", "", param)
    return Blind(seed, variant or "black")


def make_noise(seed: int, variant: str, param: str) -> Condition:
    """``noise``: Gaussian noise image."""
    from medvqa.conditions._image import Noise

    _no_parts("noise", variant, param)
    return Noise(seed)


def make_text_only(seed: int, variant: str, param: str) -> Condition:
    """``text-only``: no image sent."""
    from medvqa.conditions._image import TextOnly

    _no_parts("text-only", variant, param)
    return TextOnly(seed)


def make_corrupt(seed: int, variant: str, param: str) -> Condition:
    """``corrupt:NAME@SEVERITY``."""
    from medvqa.conditions._image import Corrupt

    if not variant or variant == "all" or not param or not param.isdigit():
        raise ValueError(
            f"corrupt:{variant}@{param}: name one corruption and one severity, e.g. corrupt:jpeg@3 "
            "(expand_conditions turns corrupt:all@1-5 into those)"
        )
    return Corrupt(seed, variant, int(param))


def make_swap(seed: int, variant: str, param: str) -> Condition:
    """``swap``: question swap."""
    from medvqa.conditions._text import Swap

    _no_parts("swap", variant, param)
    return Swap(seed)


def make_permute(seed: int, variant: str, param: str) -> Condition:
    """``permute@K``: options shifted by K."""
    from medvqa.conditions._text import Permute

    if variant or not param.isdigit():
        raise ValueError(f"permute:{variant}@{param}: a concrete shift is needed, e.g. permute@1")
    return Permute(seed, int(param))


def make_ood(seed: int, variant: str, param: str) -> Condition:
    """``ood``: a natural photo and an abstention instruction."""
    from medvqa.conditions._ood import OutOfDomain

    _no_parts("ood", variant, param)
    return OutOfDomain(seed)
