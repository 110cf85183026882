"""Label tables: CSV, TSV and JSON read into rows; a table above the byte cap is refused unread."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from medvqa.sources import MAX_LABEL_TABLE_BYTES, read_table


def test_csv_with_a_byte_order_mark_and_crlf_reads_as_rows(tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    path.write_bytes(b"\xef\xbb\xbfimg ,label\r\na.png, x \r\nb.png,\"y, z\"\r\n")
    rows = list(read_table(path, name="t.csv"))
    assert [(r.where, r.values) for r in rows] == [
        ("t.csv:2", {"img": "a.png", "label": "x"}), ("t.csv:3", {"img": "b.png", "label": "y, z"})]


@pytest.mark.parametrize("suffix", [".csv", ".json"])
def test_a_table_above_the_cap_is_refused_unread(suffix: str, tmp_path: Path) -> None:
    path = tmp_path / f"big{suffix}"
    with path.open("wb") as fh:  # a sparse file: nothing of it is on disk
        fh.write(b"img,label\n" if suffix == ".csv" else json.dumps([{"img": "a"}]).encode())
        fh.truncate(MAX_LABEL_TABLE_BYTES + 1)
    with pytest.raises(OSError, match=f"{MAX_LABEL_TABLE_BYTES + 1:,} bytes, above the cap"):
        list(read_table(path, name=path.name))
