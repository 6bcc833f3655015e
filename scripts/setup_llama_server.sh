#!/usr/bin/env bash
# Build llama.cpp's own server (llama-server) from the llama.cpp source vendored in the pinned
# llama-cpp-python sdist on PyPI: CPU only, no curl, no OpenSSL, only the llama-server target.
# Installs into $AGENTBENCH_CACHE/llama-server/<pin>/ (default ~/.cache/agentbench), where
# agentbench finds it. Idempotent: a finished build is reused. Prints version and commit.
set -euo pipefail
PIN="${LLAMA_CPP_PYTHON_PIN:-0.3.36}"
CACHE="${AGENTBENCH_CACHE:-$HOME/.cache/agentbench}"
DEST="$CACHE/llama-server/$PIN"
if [ -x "$DEST/bin/llama-server" ]; then
  echo "llama-server: cached at $DEST/bin/llama-server"
  "$DEST/bin/llama-server" --version 2>&1 | tail -n 2
  exit 0
fi
mkdir -p "$CACHE/llama-server"
WORK=$(mktemp -d "$CACHE/llama-server/build.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
start=$(date +%s)
echo "llama-server: fetching llama-cpp-python==$PIN sdist from PyPI"
python3 -m pip download -q --no-deps --no-binary :all: "llama-cpp-python==$PIN" -d "$WORK"
tar xzf "$WORK"/llama_cpp_python-"$PIN".tar.gz -C "$WORK"
SRC="$WORK/llama_cpp_python-$PIN/vendor/llama.cpp"
echo "llama-server: building (CPU, $(nproc) jobs; about 10 minutes on 2 cores)"
cmake -S "$SRC" -B "$WORK/build" -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF -DLLAMA_BUILD_TESTS=OFF \
  -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_SERVER=ON -DCMAKE_BUILD_TYPE=Release \
  -DBUILD_SHARED_LIBS=OFF -DGGML_NATIVE=ON >"$WORK/cmake.log" 2>&1 || { tail -n 30 "$WORK/cmake.log"; exit 1; }
cmake --build "$WORK/build" --target llama-server -j"$(nproc)" >"$WORK/build.log" 2>&1 \
  || { tail -n 40 "$WORK/build.log"; exit 1; }
mkdir -p "$DEST.tmp/bin"
cp "$WORK/build/bin/llama-server" "$DEST.tmp/bin/"
rm -rf "$DEST"; mv "$DEST.tmp" "$DEST"
echo "llama-server: built in $(( $(date +%s) - start )) s -> $DEST/bin/llama-server"
"$DEST/bin/llama-server" --version 2>&1 | tail -n 2
