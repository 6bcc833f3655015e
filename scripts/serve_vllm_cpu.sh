#!/usr/bin/env bash
# Serve the model prepared by scripts/setup_vllm_cpu.sh with vLLM's OpenAI-compatible
# server on the CPU, in the foreground (background it yourself: `... &`, then kill
# the PID; `exec` below makes that PID the server itself).
#
#   bash scripts/serve_vllm_cpu.sh PORT [SERVED_NAME] [CACHE_DIR]
#
# SERVED_NAME defaults to nemotron-3.5-lightning (SmolLM2-135M-Instruct stands in for
# that profile); CACHE_DIR defaults to $HOME/.cache/agentbench/vllm-cpu.
# AGENTBENCH_VLLM_MODEL picks the model: smollm2 (default: pythonic tool parser, our ChatML template, an
# ngram drafter) or qwen2.5-coder-1.5b (a real tool-calling model: hermes parser, the model's own
# chat template, context 8192; converted by setup_vllm_cpu.sh when the `qwen` extra is installed).
# Listens on 127.0.0.1 only. Extra vLLM flags can be appended via VLLM_EXTRA_ARGS.
#
# Notes (see /work/shared/REAL-SERVERS.md):
# - `vllm serve` fails in the vllm-cpu package (PackageNotFoundError: vllm), hence
#   `python -m vllm.entrypoints.openai.api_server`.
# - Without VLLM_CPU_OMP_THREADS_BIND / VLLM_CPU_NUM_OF_RESERVED_CPU it decodes on one
#   thread on a 2-core machine.
# - --enforce-eager avoids a slow graph recompile on every start.
set -Eeuo pipefail

usage() { echo "usage: $0 PORT [SERVED_NAME] [CACHE_DIR]" >&2; exit 2; }
[[ $# -ge 1 && $# -le 3 ]] || usage
PORT=$1
[[ $PORT =~ ^[0-9]+$ ]] && ((PORT > 0 && PORT < 65536)) || { echo "serve_vllm_cpu: PORT must be a number in 1..65535, got '$PORT'" >&2; usage; }
SERVED_NAME=${2:-nemotron-3.5-lightning}

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ORIG_HOME=${HOME:-/root}
CACHE_DIR=${3:-$ORIG_HOME/.cache/agentbench/vllm-cpu}
VPY=$CACHE_DIR/venv/bin/python
TEMPLATE=$SCRIPT_DIR/vllm_chatml_tools.jinja
die() { echo "serve_vllm_cpu: $*" >&2; exit 1; }
case ${AGENTBENCH_VLLM_MODEL:-smollm2} in
    smollm2)
        HF_DIR=$CACHE_DIR/smollm2-135m-instruct-hf
        MODEL_ARGS=(--max-model-len 2048 --tool-call-parser pythonic --chat-template "$TEMPLATE"
            --speculative-config '{"method":"ngram","num_speculative_tokens":3,"prompt_lookup_max":4}')
        ;;
    qwen2.5-coder-1.5b)
        HF_DIR=$CACHE_DIR/qwen2.5-coder-1.5b-instruct-hf
        MODEL_ARGS=(--max-model-len 8192 --tool-call-parser hermes)
        ;;
    *) die "AGENTBENCH_VLLM_MODEL must be smollm2 or qwen2.5-coder-1.5b, got '$AGENTBENCH_VLLM_MODEL'" ;;
esac

[[ -x $VPY ]] || die "no venv at $CACHE_DIR/venv; run: bash $SCRIPT_DIR/setup_vllm_cpu.sh $CACHE_DIR"
[[ -f $HF_DIR/config.json ]] || die "no converted model at $HF_DIR; run: bash $SCRIPT_DIR/setup_vllm_cpu.sh $CACHE_DIR (the Qwen model needs the qwen extra installed first)"
[[ -f $TEMPLATE ]] || die "chat template missing: $TEMPLATE"

export HOME=$CACHE_DIR/home
export TMPDIR=$CACHE_DIR/tmp
export XDG_CACHE_HOME=$HOME/.cache
export HF_HOME=$CACHE_DIR/hf
export VLLM_CACHE_ROOT=$XDG_CACHE_HOME/vllm
export HF_HUB_OFFLINE=1
export TRANSFORMERS_OFFLINE=1
export HF_HUB_DISABLE_TELEMETRY=1
export VLLM_NO_USAGE_STATS=1
export DO_NOT_TRACK=1
export PYTHONNOUSERSITE=1
export VLLM_CPU_KVCACHE_SPACE=1
export VLLM_CPU_OMP_THREADS_BIND=0-1
export VLLM_CPU_NUM_OF_RESERVED_CPU=0
mkdir -p "$HOME" "$TMPDIR" "$HF_HOME"

ARGS=(
    -m vllm.entrypoints.openai.api_server
    --model "$HF_DIR"
    --served-model-name "$SERVED_NAME"
    --host 127.0.0.1
    --port "$PORT"
    --dtype bfloat16
    --enforce-eager
    --enable-auto-tool-choice
    "${MODEL_ARGS[@]}"
)
# shellcheck disable=SC2206  # word splitting of the extra args is intended
[[ -n ${VLLM_EXTRA_ARGS:-} ]] && ARGS+=($VLLM_EXTRA_ARGS)

echo "serve_vllm_cpu: serving $HF_DIR as '$SERVED_NAME' on http://127.0.0.1:$PORT (ready in about a minute)" >&2
exec "$VPY" "${ARGS[@]}"
