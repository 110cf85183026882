"""What the demo does, as data: which benchmarks to build and which runs to make on them.

The demo drives medvqa through its own command line (in one process, so SmolLM2 is loaded once),
which keeps it an honest end-to-end check of what a user types.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class DemoRun:
    """One model on one benchmark."""

    model: str
    conditions: tuple[str, ...] = ("clean",)
    limit: int | None = None
    max_tokens: int | None = None
    #: Parser styles set beside strict when scoring (``medvqa score --styles strict,…``).
    compare_styles: tuple[str, ...] = ()


@dataclass(frozen=True)
class DemoBenchmark:
    """A shipped recipe built from the repository's data, and the runs made on it."""

    recipe: str
    runs: tuple[DemoRun, ...] = field(default_factory=tuple)


#: SmolLM2 never sees the image, so blind and corrupted images must leave its accuracy unchanged:
#: the controls section of the report shows that as "needs the image: no".
LOCAL_CONTROLS = ("clean", "blind", "corrupt:jpeg@3")
#: A language model writes free text: the report shows how the published scorer reads it.
COMPARED = ("mammovqa",)
#: A letter or a short phrase answers a choice question; SmolLM2 would otherwise ramble on to
#: the default 64 tokens, which triples the demo's generation time and changes no parse.
LOCAL_MAX_TOKENS = 16

DEMO_PLAN: tuple[DemoBenchmark, ...] = (
    DemoBenchmark(
        "idrid_dr_grade",
        (DemoRun("random"), DemoRun("frequent"),
         DemoRun("smollm2", LOCAL_CONTROLS, limit=12, max_tokens=LOCAL_MAX_TOKENS,
                 compare_styles=COMPARED)),
    ),
    # The fundus set a small CNN can learn from: IDRiD ships 60 photographs (all of them are in
    # data/), too few to learn five grades; RetinaMNIST's 28-pixel fundus images are plenty.
    DemoBenchmark("retinamnist_dr_grade", (DemoRun("random"), DemoRun("frequent"))),
    DemoBenchmark(
        "lc25000_lung",
        (DemoRun("random"), DemoRun("frequent"),
         DemoRun("smollm2", ("clean",), limit=12, max_tokens=LOCAL_MAX_TOKENS,
                 compare_styles=COMPARED)),
    ),
    DemoBenchmark(
        "vqa_rad",
        (DemoRun("random"), DemoRun("frequent"),
         DemoRun("smollm2", ("clean",), limit=12, max_tokens=LOCAL_MAX_TOKENS,
                 compare_styles=COMPARED)),
    ),
)
