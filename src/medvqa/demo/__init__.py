"""The end-to-end demo on shipped real data: what it builds, runs and trains (its plan)."""

from medvqa.demo._plan import DEMO_PLAN, DemoRun
from medvqa.demo._trained import train_steps

__all__ = ["DEMO_PLAN", "DemoRun", "train_steps"]
