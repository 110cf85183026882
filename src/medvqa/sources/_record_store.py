"""A list of records kept on disk, with only each record's offset in memory.

Each :class:`Record` is pickled to an anonymous scratch file and only its offset stays in memory
(8 bytes), so holding every record of a large source costs next to nothing. Records come back as
fresh copies, by index or in order.
"""

from __future__ import annotations

import pickle
import tempfile
from array import array
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from types import TracebackType

from medvqa.sources._record import Record


class RecordStore(Sequence[Record]):
    """Append-only, disk-backed sequence of records (see module docstring).

    Args:
        folder: where the scratch file lives (a build's private folder); the file has no name
            there and disappears when the store is closed or the process ends.

    """

    def __init__(self, folder: Path | None = None):
        self._fh = tempfile.TemporaryFile(dir=folder, prefix=".records-")
        self._ends: array[int] = array("q")
        self._size = 0

    def append(self, record: Record) -> None:
        """Add one record at the end."""
        data = pickle.dumps(record, protocol=pickle.HIGHEST_PROTOCOL)
        self._fh.seek(self._size)
        self._fh.write(data)
        self._size += len(data)
        self._ends.append(self._size)

    def extend(self, records: Iterable[Record]) -> None:
        """Add records at the end, in order."""
        for record in records:
            self.append(record)

    def __len__(self) -> int:
        return len(self._ends)

    def __getitem__(self, index: int) -> Record:  # type: ignore[override]  # no slices: records are read one at a time
        if index < 0:
            index += len(self._ends)
        start = self._ends[index - 1] if index > 0 else 0
        self._fh.seek(start)
        record: Record = pickle.loads(self._fh.read(self._ends[index] - start))
        return record

    def __iter__(self) -> Iterator[Record]:
        for i in range(len(self._ends)):
            yield self[i]

    def close(self) -> None:
        """Drop the scratch file."""
        self._fh.close()

    def __enter__(self) -> RecordStore:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
