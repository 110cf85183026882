"""One colour and marker per model, made once for a whole report.

Matplotlib's colour cycle restarts on every axes and skips nothing, so a model missing from one
panel shifts every later model's colour there (a CNN drawn in a language model's colour). The
report makes this mapping once, from every model it names, and every figure and the item view
draw each model with it; a model absent from a panel is absent, never recoloured.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["PALETTE", "Style", "model_styles"]

#: Colour-blind-safe colours (Okabe & Ito 2008, then Tol's muted scheme), in the order given.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442",
           "#000000", "#332288", "#88CCEE", "#44AA99", "#117733", "#999933", "#DDCC77",
           "#CC6677", "#882255", "#AA4499", "#7F7F7F")
#: Markers, cycled at a different period so colour and marker together stay distinct longer.
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "<", ">", "*", "h")


class Style(NamedTuple):
    """How a model is drawn in every figure of a report."""

    colour: str
    marker: str


def model_styles(labels: list[str]) -> dict[str, Style]:
    """A fixed style per label, in the order first named (duplicates ignored).

    Beyond the palette the colours repeat with another marker (18 × 11 distinct pairs).

    >>> s = model_styles(["cnn", "random", "cnn"])
    >>> s["cnn"], s["random"].colour
    (Style(colour='#0072B2', marker='o'), '#E69F00')
    """
    out: dict[str, Style] = {}
    for label in labels:
        if label not in out:
            i = len(out)
            out[label] = Style(PALETTE[i % len(PALETTE)],
                               MARKERS[(i + i // len(PALETTE)) % len(MARKERS)])
    return out
