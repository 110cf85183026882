"""A models.yaml's local weights: inside its folder or a --weights-root; hub ids stay hub ids.

The hostile forms (absolute, ``..``, links, FIFOs, NUL) through the command line are in
tests/test_untrusted_paths.py; here, what the resolution gives for the forms it accepts.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from medvqa._path_guard import UnsafePathError
from medvqa.errors import BadInputError
from medvqa.models import ModelConfig
from medvqa.run._models_file import load_models_file, model_config_for
from medvqa.run._models_weights import local_weights, resolve_weights


def _resolved(folder: Path, text: str, roots: tuple[Path, ...] = ()) -> list[ModelConfig]:
    path = folder / "models.yaml"
    path.write_text(text)
    models = load_models_file(path)
    resolve_weights(path, models, roots)
    return [model_config_for(e, models.defaults, ModelConfig(spec="")) for e in models.models]


@pytest.mark.parametrize("hub_id", ["HuggingFaceTB/SmolLM2-135M", "org/name", "gpt2"])
def test_a_hub_id_stays_a_hub_id(hub_id: str, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (config,) = _resolved(tmp_path, f"models:\n  - spec: hf:{hub_id}\n")
    assert config.spec == f"hf:{hub_id}"


def test_weights_beside_the_file_are_their_real_path_and_keep_their_folder_name(
        tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "mf" / "org" / "name").mkdir(parents=True)
    (tmp_path / "mf" / "adapter").mkdir()
    monkeypatch.chdir(tmp_path)  # the working folder is not where they are looked for
    path = tmp_path / "mf" / "models.yaml"
    path.write_text("models:\n  - spec: hf:org/name\n"
                    "    parameters: {extra: {adapter: adapter}}\n")
    models = load_models_file(path)
    resolve_weights(path, models)
    entry = models.models[0]
    assert entry.run_spec == f"hf:{tmp_path / 'mf' / 'org' / 'name'}"
    assert entry.display_name == "hf-org-name"  # the RUN/ sub-folder, as written
    config = model_config_for(entry, models.defaults, ModelConfig(spec=""))
    assert config.spec == entry.run_spec
    assert config.extra["adapter"] == str(tmp_path / "mf" / "adapter")


def test_a_weights_root_is_searched_after_the_folder(tmp_path: Path) -> None:
    store = tmp_path / "store"
    (store / "llava").mkdir(parents=True)
    (store / "ckpt.gguf").write_bytes(b"GGUF")
    (tmp_path / "mf").mkdir()
    configs = _resolved(tmp_path / "mf", f"models:\n  - spec: hf:llava\n"
                        f"  - spec: hf:{store / 'ckpt.gguf'}\n", (store,))
    assert [c.spec for c in configs] == [f"hf:{store / 'llava'}", f"hf:{store / 'ckpt.gguf'}"]


def test_without_the_root_the_same_file_is_refused_naming_line_and_field(tmp_path: Path) -> None:
    store = tmp_path / "store"
    (store / "llava").mkdir(parents=True)
    (tmp_path / "mf").mkdir()
    with pytest.raises(BadInputError) as refused:
        _resolved(tmp_path / "mf", f"models:\n  - spec: random\n  - spec: hf:{store / 'llava'}\n")
    message = str(refused.value)
    assert message.startswith(f"{tmp_path / 'mf' / 'models.yaml'}:3: models[1].spec: local "
                              f"weights '{store / 'llava'}' is an absolute path")
    assert message.endswith("--weights-root DIR") and "\n" not in message


@pytest.mark.parametrize("name", ["a/b/c", "./missing", "ckpt.gguf", "-x"])
def test_what_is_neither_there_nor_a_hub_id_is_refused(name: str, tmp_path: Path) -> None:
    with pytest.raises(UnsafePathError, match="is not in the models file's folder"):
        local_weights(tmp_path, name, hub=True)


def test_an_adapter_or_a_classifier_is_never_a_hub_id(tmp_path: Path) -> None:
    with pytest.raises(UnsafePathError, match="is not in the models file's folder$"):
        local_weights(tmp_path, "org/name", hub=False)
    (tmp_path / "mf").mkdir()
    with pytest.raises(BadInputError, match=r"models\[0\].spec: local weights 'runs/cnn'"):
        _resolved(tmp_path / "mf", "models:\n  - spec: supervised:runs/cnn\n")


def test_an_adapter_that_is_not_text_is_refused(tmp_path: Path) -> None:
    with pytest.raises(BadInputError, match=r"models.yaml:2: defaults.extra.adapter: an "
                                            r"adapter is a folder's path"):
        _resolved(tmp_path, "defaults:\n  extra: {adapter: [a, b]}\nmodels:\n  - spec: random\n")
