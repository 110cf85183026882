"""``RUN/metrics.json``'s models, re-exported from :mod:`medvqa.schema`, where they are public."""

from __future__ import annotations

from medvqa.schema import (
    METRICS_VERSION,
    ConditionMetrics,
    MetricsBlock,
    MetricsFile,
    MetricValue,
)

__all__ = ["METRICS_VERSION", "ConditionMetrics", "MetricValue", "MetricsBlock", "MetricsFile"]
