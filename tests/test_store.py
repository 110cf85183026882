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
