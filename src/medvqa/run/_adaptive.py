"""``medvqa run --adaptive irt.json``: ask a model only the items that tell the most about it.

The same runner as every run — the same request builder, cache, retries, journal and resume —
only the selection is chosen as answers arrive (:class:`medvqa.irt.AdaptiveSession`): a batch of
items is chosen, sent through :class:`~medvqa.run._sending.RequestSender`, read with the
calibration's parser style, and the next batch chosen from what they said, until the estimated
full-benchmark accuracy's standard error reaches the target, the budget is spent, or every item
was asked.

Resume: the choices depend only on the answers and on a generator seeded by the run's seed, so a
rerun makes the same choices; every answer the journal already holds is read from it instead of
being sent again. A request that fails is set aside (it stays predicted, like an item not
asked) and recorded in run.json's ``adaptive.failed_ids``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from medvqa.conditions import Condition
from medvqa.errors import BadInputError
from medvqa.irt import (
    EXPOSURE_CONTROLS,
    AdaptiveSession,
    AdaptiveSettings,
    Grader,
    ItemBank,
    bank_of,
    load_calibration,
)
from medvqa.rng import rng_for
from medvqa.run._config import AdaptiveRun
from medvqa.run._journal import PredictionJournal
from medvqa.run._selection import ItemSelection
from medvqa.run._sending import RequestSender, SendCounts
from medvqa.schema import (
    AdaptiveEstimate,
    AdaptiveRecord,
    IrtCalibration,
    Item,
    file_sha256,
)


@dataclass
class AdaptivePlan:
    """Everything an adaptive run checked before RUN/ is touched."""

    spec: AdaptiveRun
    calibration: IrtCalibration
    irt_sha256: str
    items: list[tuple[int, Item]]
    bank: ItemBank
    condition: Condition


def plan_adaptive(spec: AdaptiveRun, selection: ItemSelection, items_sha256: str,
                  conditions: list[Condition]) -> AdaptivePlan:
    """Check an adaptive run against its calibration; read the selected items.

    Raises:
        BadInputError: irt.json is missing, malformed or of other items; more than one
            condition, or one the calibration's zoo was not answered under; a target SE that is
            not positive; a budget below 1; an unknown exposure control.
    """
    if spec.exposure not in EXPOSURE_CONTROLS:
        raise BadInputError(f"--exposure {spec.exposure!r}: use one of "
                            f"{', '.join(EXPOSURE_CONTROLS)}")
    if spec.target_se <= 0:
        raise BadInputError(f"--target-se {spec.target_se}: use a standard error above 0")
    if spec.budget is not None and spec.budget < 1:
        raise BadInputError(f"--budget {spec.budget}: use at least 1 item")
    cal = load_calibration(spec.irt, items_sha256)
    if len(conditions) != 1:
        raise BadInputError(f"--adaptive asks one condition, not {len(conditions)} "
                            f"({', '.join(c.name for c in conditions)})")
    cond = conditions[0]
    if cond.name not in cal.conditions:
        raise BadInputError(f"{spec.irt}: conditions: calibrated on "
                            f"{', '.join(cal.conditions)}, not {cond.name!r}")
    items = [(line, item) for line, item in selection if cond.applies_to(item)]
    if not items:
        raise BadInputError(f"no selected item takes the condition {cond.name!r}")
    return AdaptivePlan(spec, cal, file_sha256(spec.irt), items,
                        bank_of(cal, [item for _, item in items]), cond)


class _Chosen:
    """A selection of the chosen items only (what the sender iterates)."""

    def __init__(self, rows: list[tuple[int, Item]]) -> None:
        self.rows = rows

    def __iter__(self) -> Iterator[tuple[int, Item]]:
        return iter(self.rows)


def _record(plan: AdaptivePlan, session: AdaptiveSession, failed: list[str],
            stop: str = "", note: str = "") -> AdaptiveRecord:
    est = session.estimate()
    spec = plan.spec
    return AdaptiveRecord(
        irt=str(spec.irt), irt_sha256=plan.irt_sha256,
        item_model=plan.calibration.item_model, style=plan.calibration.style or "strict",
        condition=plan.condition.name, target_se=spec.target_se, budget=spec.budget,
        exposure=spec.exposure, randomesque=spec.randomesque, batch=spec.batch,
        inflation=plan.calibration.interval_inflation, items_total=len(plan.items),
        asked_ids=[plan.items[i][1].id for i in session.asked], failed_ids=list(failed),
        stop=stop, note=note,
        estimate=AdaptiveEstimate(
            accuracy=round(est.value, 6), se=round(est.se, 6),
            ci=[round(est.low, 6), round(est.high, 6)], theta=round(est.theta, 6),
            theta_sd=round(est.theta_sd, 6), asked=est.asked, right=sum(session.answers)))


def _note(stop: str, session: AdaptiveSession, spec: AdaptiveRun) -> str:
    est = session.estimate()
    if stop == "target" or est.se <= spec.target_se:
        return ""
    why = "the budget" if stop == "budget" else "every item"
    return (f"target SE {spec.target_se:g} not reached: SE {est.se:.4f} after "
            f"{est.asked} items ({why})")


async def send_adaptive(plan: AdaptivePlan, sender: RequestSender, journal: PredictionJournal,
                        seed: int, progress: Callable[[SendCounts], None] | None,
                        checkpoint: Callable[[AdaptiveRecord], None]) -> AdaptiveRecord:
    """Ask adaptively until the target, the budget or the end of the items.

    ``checkpoint`` is given the record after every batch (run.json is rewritten with it, so a
    killed run's file says how far it got).
    """
    spec = plan.spec
    settings = AdaptiveSettings(target_se=spec.target_se, budget=spec.budget,
                                exposure=spec.exposure, randomesque=spec.randomesque,
                                batch=spec.batch,
                                inflation=plan.calibration.interval_inflation)
    session = AdaptiveSession(plan.bank, settings,
                              rng_for(seed, "adaptive", plan.calibration.items_sha256))
    grader = Grader(plan.calibration.style or "strict")
    failed: list[str] = []
    cond = plan.condition
    while (stop := session.stop_reason()) is None:
        chosen = session.next_items()
        if not chosen:
            stop = "exhausted"
            break
        await sender.send(_Chosen([plan.items[i] for i in chosen]), progress)  # type: ignore[arg-type]
        for i in chosen:
            item = plan.items[i][1]
            got = journal.get(item.id, cond.name)
            if got is None or got[1] is not None or got[0] is None:
                session.skip(i)
                failed.append(item.id)
                continue
            session.record(i, grader.correct(cond.transform_item(item), got[0]))
        checkpoint(_record(plan, session, failed))
    return _record(plan, session, failed, stop, _note(stop, session, spec))
