import os

from medvqa.store import ImageStore, atomic_write_text, sha256_bytes


def test_image_stored_once_under_its_hash(tmp_path, data_dir):
    src = next((data_dir / "lc25000_lung_224" / "lung_image_sets" / "lung_n").iterdir())
    store = ImageStore(tmp_path)
    rel = store.add_file(src)
    assert rel == store.add_file(src)
    assert rel.startswith("images/") and rel.endswith(src.suffix.lower())
    assert (tmp_path / rel).read_bytes() == src.read_bytes()
    assert store.verify(rel)
    assert store.add_bytes(src.read_bytes(), src.suffix) == rel


def test_verify_detects_tampering(tmp_path):
    store = ImageStore(tmp_path)
    rel = store.add_bytes(b"\x89PNG fake", ".png")
    (tmp_path / rel).write_bytes(b"changed")
    assert not store.verify(rel)
    assert not store.verify("images/00/missing.png")


def test_atomic_write_leaves_no_temporary_files(tmp_path):
    target = tmp_path / "sub" / "f.txt"
    atomic_write_text(target, "one")
    atomic_write_text(target, "two")
    assert target.read_text() == "two"
    assert os.listdir(target.parent) == ["f.txt"]
    assert sha256_bytes(b"two") == sha256_bytes(target.read_bytes())


def test_atomic_write_follows_the_umask_and_keeps_a_replaced_files_mode(tmp_path):
    import stat

    old = os.umask(0o027)
    try:
        atomic_write_text(tmp_path / "new.txt", "x")
        (tmp_path / "kept.txt").write_text("old")
        os.chmod(tmp_path / "kept.txt", 0o604)
        atomic_write_text(tmp_path / "kept.txt", "new")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.txt").stat().st_mode) == 0o640  # not mkstemp's 0600
    assert stat.S_IMODE((tmp_path / "kept.txt").stat().st_mode) == 0o604


def test_a_folder_that_may_not_be_written_is_one_line_naming_it(tmp_path):
    import errno

    import pytest

    from medvqa.store import NotWritableError, not_writable_line, write_errors_are_bad_input

    err = OSError(errno.EACCES, "Permission denied", str(tmp_path / ".x.tmp"))
    assert not_writable_line(err) == f"{tmp_path}: permission denied"
    with pytest.raises(NotWritableError, match=r"run: read-only file system; left; choose a"):
        with write_errors_are_bad_input(tmp_path / "run", "left"):
            raise OSError(errno.EROFS, "Read-only file system", str(tmp_path / "run"))
    with pytest.raises(ValueError):  # anything else passes
        with write_errors_are_bad_input(tmp_path, "left"):
            raise ValueError("no")
