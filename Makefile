# Developer shortcuts; CI runs .ci/run.
.PHONY: install check test test-fast validate

install:
	pip install -e ".[embedded,dev]"

check:
	ruff check agentbench router tests
	mypy agentbench router
	agentbench tasks validate tasks/

test:
	python -m pytest -ra

test-fast:  # no real servers, no browser
	python -m pytest -ra -m "not embedded and not vllm and not switchyard and not browser"

validate:
	agentbench tasks validate tasks/
