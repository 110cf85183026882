"""Ctrl-C during ``medvqa build``: exit 130, one line saying so, and no partial benchmark."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path


def test_ctrl_c_leaves_nothing_and_says_so(tmp_path: Path) -> None:
    inherited = signal.signal(signal.SIGINT, signal.default_int_handler)  # as from a terminal
    try:
        proc = subprocess.Popen([sys.executable, "-m", "medvqa", "build", "lc25000_lung", "-o",
                                 str(tmp_path / "b")], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
    finally:
        signal.signal(signal.SIGINT, inherited)
    deadline = time.monotonic() + 60
    while not list(tmp_path.glob(".b.building-*")) and time.monotonic() < deadline:
        time.sleep(0.002)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted (Ctrl-C)" in err and "Traceback" not in err
    assert os.listdir(tmp_path) == []  # neither b/ nor the private building folder
