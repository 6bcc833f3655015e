#!/usr/bin/env bash
# Build llama.cpp's own server (llama-server) from the llama.cpp source vendored in the pinned
# llama-cpp-python sdist on PyPI: CPU only, no curl, no OpenSSL, only the llama-server target.
# Installs into $AGENTBENCH_CACHE/llama-server/<pin>/ (default ~/.cache/agentbench), where
# agentbench finds it. Idempotent: a finished build is reused. Prints version and commit.
# The build itself lives in agentbench.local.llama_build (the embedded profiles run it on first
# use too); run this after `pip install -e .`, with that environment's python.
set -euo pipefail
exec "${PYTHON:-python}" -m agentbench.local.llama_build
