#!/usr/bin/env bash
# The README's real-model figures: the full suite on Qwen2.5-Coder-1.5B (0.5B drafter, depth 3),
# on the 0.5B alone, and a router (0.5B local, 1.5B "frontier" priced as GPT-5). Sequential: on a
# small machine two llama-servers at once only steal each other's cores.
# All three runs go into one database, so that `agentbench routes` compares them.
#   [SLOTS=N] [MODELS="qwen0.5b ..."] bash benchmarks/real/run.sh OUT_DIR [run options]
# MODELS: the single-model runs and their order (default "qwen1.5b qwen0.5b"; "" for none).
# On a machine others load, `taskset -c 1 bash benchmarks/real/run.sh …` gives the server one
# thread (-t follows the affinity): two threads spin-wait against the other processes and crawl
# (measured at load 7 on 2 cores: 0.3 tok/s a stream, every episode past its time limit).
# The README's figures: SLOTS=4 bash benchmarks/real/run.sh OUT --concurrency 4 --episode-timeout 600
set -euo pipefail
OUT="${1:?usage: run.sh OUT_DIR [run options]}"; shift || true
mkdir -p "$OUT"
stamp() { echo "== $1 $(date -u +%FT%TZ) load: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$OUT/log"; }
run() {  # NAME, then agentbench run options
  local name="$1"; shift
  stamp "start $name"
  "${PREFIX[@]}" python -m agentbench.cli.main run tasks/ "$@" --episode-timeout 300 --db "$OUT/real.db" --json "$OUT/$name.json" \
    --quiet "${EXTRA[@]}" > "$OUT/$name.txt" 2>&1 || echo "$name exited $?" | tee -a "$OUT/log"
  stamp "end $name"
}
EXTRA=("$@")
PREFIX=(env)  # what runs agentbench: the router run is pinned to one core below
declare -A ALIAS=([qwen1.5b]=embedded-qwen [qwen0.5b]=embedded-qwen-0.5b)
if [ "${SKIP_LOCAL:-}" != 1 ]; then  # SKIP_LOCAL=1: the router run alone
  for name in ${MODELS-qwen1.5b qwen0.5b}; do run "$name" --local "${ALIAS[$name]}"; done
fi
[ "${SKIP_ROUTER:-}" = 1 ] && { stamp done; exit 0; }
PORT=$(python -c "from agentbench.local.embedded import free_port; print(free_port())")
# One slot per episode in flight (SLOTS = the --concurrency given), or escalations queue there.
# The two servers get one core each (taskset; -t follows the affinity): two llama-servers with a
# thread per core each spin-wait against each other and both crawl (measured: 1 episode in 8 min).
PIN_FRONTIER=(env); PIN_LOCAL=(env)
if [ "$(nproc)" -ge 2 ]; then PIN_FRONTIER=(taskset -c 1); PIN_LOCAL=(taskset -c 0); fi
"${PIN_FRONTIER[@]}" python -m agentbench.cli.main serve --local embedded-qwen --draft-depth 0 --slots "${SLOTS:-1}" \
  --port "$PORT" > "$OUT/frontier.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 300); do curl -sf "http://127.0.0.1:$PORT/health" >/dev/null && break; sleep 1; done
PREFIX=("${PIN_LOCAL[@]}")
run router --local embedded-qwen-0.5b --router escalate-on-invalid \
  --frontier-base-url "http://127.0.0.1:$PORT/v1" --frontier-model qwen2.5-coder-1.5b \
  --prices benchmarks/real/frontier-as-gpt5.yaml --local-usd-per-hour 0
python -m agentbench.cli.main routes --db "$OUT/real.db" --prices benchmarks/real/frontier-as-gpt5.yaml --local-usd-per-hour 0 > "$OUT/routes.txt" 2>&1 || true
stamp done
