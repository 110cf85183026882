"""A downloaded benchmark or a hostile endpoint must not get local files or secrets out.

Each test runs the real runner (and, where it matters, the real command line) against the real
loopback chat server and checks the bytes that arrived there and the bytes written to RUN/.
"""

from __future__ import annotations

import base64
import io
import json
import subprocess
import sys
from pathlib import Path

from _http import CountingServer
from PIL import Image

from medvqa.benchmark import validate_benchmark
from medvqa.models import ModelConfig
from medvqa.run import RunConfig, run_benchmark
from medvqa.schema import Prediction, read_jsonl

SECRET = b"PRIVATE-NOTES: patient 4711, password hunter2\n"


def _first_image(bench: Path, line: int = 0) -> str:
    return json.loads((bench / "items.jsonl").read_text().splitlines()[line])["images"][0]


def _everything_sent(server: CountingServer) -> bytes:
    return json.dumps(server.bodies).encode()


def _all_bytes(folder: Path) -> bytes:
    return b"".join(p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file())


def _run(bench: Path, out: Path, url: str, **kw) -> None:
    run_benchmark(RunConfig(bench_dir=bench, out_dir=out, model=ModelConfig(
        spec=f"openai:test@{url}", api_key_env=kw.pop("key_env", "")), max_retries=0, **kw))


def test_symlink_to_a_local_file_is_never_sent(bench: Path, tmp_path: Path) -> None:
    secret = tmp_path / "notes.txt"
    secret.write_bytes(SECRET)
    rel = _first_image(bench)
    (bench / rel).unlink()
    (bench / rel).symlink_to(secret)  # images/ab/<digest>.jpeg -> a private file
    with CountingServer() as server:
        _run(bench, tmp_path / "run", server.url)
        sent = _everything_sent(server)
        n_requests = len(server.bodies)
    assert base64.b64encode(SECRET) not in sent and b"hunter2" not in sent
    preds = {p.item_id: p for p in read_jsonl(tmp_path / "run" / "predictions.jsonl", Prediction)}
    assert "outside the benchmark folder" in (preds["lung-000"].error or "")
    assert n_requests == 11 and sum(p.error is None for p in preds.values()) == 11


def test_symlinked_folder_leaving_the_benchmark_is_refused(bench: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    rel = _first_image(bench)
    folder = (bench / rel).parent
    (outside / Path(rel).name).write_bytes((bench / rel).read_bytes())
    for f in folder.iterdir():
        f.unlink()
    folder.rmdir()
    folder.symlink_to(outside, target_is_directory=True)  # a real image, but outside BENCH/
    report = validate_benchmark(bench)
    assert any("outside the benchmark folder" in p.message for p in report.problems)
    with CountingServer() as server:
        _run(bench, tmp_path / "run", server.url)
        n_images = len(server.images)
    errors = [p for p in read_jsonl(tmp_path / "run" / "predictions.jsonl", Prediction) if p.error]
    assert errors and all("outside the benchmark folder" in p.error for p in errors)
    assert n_images == 12 - len(errors)


def test_bytes_that_are_not_an_image_are_never_sent(bench: Path, tmp_path: Path) -> None:
    rel = _first_image(bench)
    (bench / rel).write_bytes(SECRET)  # inside BENCH/, named .jpeg, not an image
    with CountingServer() as server:
        _run(bench, tmp_path / "run", server.url)
        sent = _everything_sent(server)
    assert base64.b64encode(SECRET) not in sent
    pred = next(p for p in read_jsonl(tmp_path / "run" / "predictions.jsonl", Prediction)
                if p.item_id == "lung-000")
    assert "not an image of an allowed format" in (pred.error or "")


def test_credentials_in_the_url_never_arrive_nor_are_recorded(bench: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    with CountingServer() as server:
        url = server.url.replace("http://", "http://alice:s3cretpw@")
        proc = subprocess.run(
            [sys.executable, "-m", "medvqa.cli", "run", str(bench), "-m", f"openai:m@{url}",
             "-o", str(out)], capture_output=True, text=True, timeout=120)
        arrived = len(server.bodies) + len(server.headers)
    assert proc.returncode == 1 and "--api-key-env" in proc.stderr
    assert "s3cretpw" not in proc.stdout + proc.stderr
    assert arrived == 0 and not out.exists()


def test_a_key_in_the_url_query_is_sent_but_never_recorded(bench: Path, tmp_path: Path) -> None:
    """``…/v1?api_key=…`` (some hosted endpoints take the key so): the requests reach the
    endpoint, and run.json, the cache, predictions and the console show ``[redacted]``."""
    key = "sk-query-0123456789abcdef"
    out = tmp_path / "run"
    with CountingServer(fail={"[lung-001]": [400]},
                        fail_body=lambda h: {"error": f"echo api_key={key}"}) as server:
        url = f"{server.url}?api-version=2&api_key={key}"
        proc = subprocess.run(
            [sys.executable, "-m", "medvqa.cli", "run", str(bench), "-m", f"openai:m@{url}",
             "-o", str(out), "--max-retries", "0", "--split", "all"], capture_output=True,
            text=True, timeout=120)
        answered = len(server.bodies)
    assert proc.returncode == 0, proc.stderr
    assert answered == 12  # the query did not break the request path
    assert key.encode() not in _all_bytes(out)
    assert key not in proc.stdout + proc.stderr
    assert "api_key=[redacted]" in (out / "run.json").read_text()


def test_keys_echoed_in_error_bodies_are_redacted(
    bench: Path, tmp_path: Path, monkeypatch
) -> None:
    key = "sk-test-0123456789abcdef"
    monkeypatch.setenv("MEDVQA_TEST_KEY", key)
    echo = {"[lung-001]": [400], "[lung-002]": [500]}

    def body(headers) -> dict:  # a server that echoes the credentials it got, as some do
        return {"error": f"bad request; got Authorization: {headers.get('Authorization')} "
                         f"and api_key={key}"}

    with CountingServer(fail=echo, fail_body=body) as server:
        _run(bench, tmp_path / "run", server.url, key_env="MEDVQA_TEST_KEY")
        assert server.headers and all(h == f"Bearer {key}" for h in server.headers)
    written = _all_bytes(tmp_path / "run")
    assert key.encode() not in written
    preds = {p.item_id: p for p in read_jsonl(tmp_path / "run" / "predictions.jsonl", Prediction)}
    assert "HTTP 400" in preds["lung-001"].error and "[redacted]" in preds["lung-001"].error


def _encoded(fmt: str) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (16, 16), (200, 30, 30)).save(buf, format=fmt)
    return buf.getvalue()


def test_corrupt_tiff_bmp_and_unknown_suffix_fail_their_item_only(
    bench_factory, tmp_path: Path
) -> None:
    bench = bench_factory(tmp_path / "bench", 6)
    lines = (bench / "items.jsonl").read_text().splitlines()
    files = {
        "images/x/corrupt.tif": _encoded("TIFF")[:60],
        "images/x/corrupt.bmp": _encoded("BMP")[:40],
        "images/x/scan.xyz": _encoded("PNG"),  # unknown suffix, a real PNG: sent as PNG
        "images/x/blob.xyz": b"\x00\x01garbage" * 10,
    }
    for i, (rel, data) in enumerate(files.items()):
        (bench / rel).parent.mkdir(parents=True, exist_ok=True)
        (bench / rel).write_bytes(data)
        item = json.loads(lines[i])
        item["images"] = [rel]
        lines[i] = json.dumps(item)
    (bench / "items.jsonl").write_text("\n".join(lines) + "\n")
    with CountingServer() as server:
        _run(bench, tmp_path / "run", server.url)
        mimes = [u.split(";")[0] for u in server.images]
    preds = {p.item_id: p for p in read_jsonl(tmp_path / "run" / "predictions.jsonl", Prediction)}
    assert len(preds) == 6
    for item, name in (("lung-000", "corrupt.tif"), ("lung-001", "corrupt.bmp")):
        error = preds[item].error or ""
        assert name in error and ("corrupt image" in error or "allowed format" in error)
    assert preds["lung-002"].error is None and "data:image/png" in mimes
    assert "not an image of an allowed format" in preds["lung-003"].error
    assert preds["lung-004"].error is None and preds["lung-005"].error is None
