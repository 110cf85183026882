"""``pip install medvqa`` without extras: the core imports and builds, runs an API model, scores
and reports, with every heavy optional dependency made unimportable.

A ``sitecustomize`` module on the child's path refuses to import the extras' packages (as if they
were not installed), so the commands below prove the core never needs them. A second check asks
for a local model and gets the one-line install hint, exit 2.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from medvqa._optional import EXTRA_OF
from medvqa.testing import ChatServer

REPO = Path(__file__).resolve().parents[1]
#: Packages of the extras (and their heavy dependencies) that the core must not need.
BLOCKED = sorted({*EXTRA_OF, "SimpleITK", "pandas", "datasets", "safetensors", "tokenizers"})

BLOCKER = """
import sys

BLOCKED = {blocked!r}


class _Refuse:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError(f"{{name}} is blocked: not part of the core install")
        return None


sys.meta_path.insert(0, _Refuse())
"""


@pytest.fixture(scope="module")
def core_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    site = tmp_path_factory.mktemp("site")
    (site / "sitecustomize.py").write_text(BLOCKER.format(blocked=BLOCKED), "utf-8")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(site), env.get("PYTHONPATH", "")])
    return env


def _medvqa(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "medvqa", *args], capture_output=True,
                          text=True, env=env, timeout=300, cwd=REPO)


def test_the_blocker_really_blocks(core_env: dict[str, str]) -> None:
    proc = subprocess.run([sys.executable, "-c", "import torch"], capture_output=True,
                          text=True, env=core_env)
    assert proc.returncode != 0 and "blocked" in proc.stderr


def test_core_workflow_without_extras(core_env: dict[str, str], tmp_path: Path) -> None:
    bench, run = tmp_path / "bench", tmp_path / "run"
    proc = _medvqa(core_env, "build", "lc25000_lung", "-o", str(bench), "--data-root",
                   str(REPO / "data"))
    assert proc.returncode == 0, proc.stderr
    with ChatServer() as server:
        proc = _medvqa(core_env, "run", str(bench), "--model", f"openai:m@{server.url}",
                       "--out", str(run), "--split", "test", "--limit", "6")
        assert proc.returncode == 0, proc.stderr
        assert sum(server.counts.values()) == 6, "the endpoint was not asked once per item"
    proc = _medvqa(core_env, "score", str(bench), str(run))
    assert proc.returncode == 0, proc.stderr
    assert (run / "metrics.json").is_file()
    proc = _medvqa(core_env, "report", str(run), "-o", str(tmp_path / "report.html"))
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "report.html").stat().st_size > 1000


def test_local_model_without_extra_names_the_extra(core_env: dict[str, str],
                                                   tmp_path: Path) -> None:
    bench = tmp_path / "bench"
    assert _medvqa(core_env, "build", "lc25000_lung", "-o", str(bench), "--data-root",
                   str(REPO / "data")).returncode == 0
    proc = _medvqa(core_env, "run", str(bench), "--model", "smollm2", "--out",
                   str(tmp_path / "run"), "--limit", "1")
    assert proc.returncode == 2, proc.stderr
    assert "pip install 'medvqa[local]'" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_audit_and_card_without_extras(core_env: dict[str, str], tmp_path: Path) -> None:
    """No scikit-learn: near-duplicate questions fall back to word Jaccard, and say so."""
    bench = tmp_path / "bench"
    assert _medvqa(core_env, "build", "vqa_rad", "-o", str(bench), "--data-root",
                   str(REPO / "data")).returncode == 0
    proc = _medvqa(core_env, "audit", str(bench), "--no-html")
    assert proc.returncode == 0, proc.stderr
    assert '"question_method": "jaccard"' in (bench / "audit.json").read_text()
    proc = _medvqa(core_env, "card", str(bench))
    assert proc.returncode == 0, proc.stderr
    assert "## Integrity audit" in (bench / "README.md").read_text()
