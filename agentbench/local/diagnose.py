"""Known failure signatures of local serving, each with what it means and what to do.

`diagnose(text)` matches error text (a server's answer, a log tail, an exception message) against
the table below. The entries come from what users met (their write-ups of real deployments): a stale
container that looks like an unsupported model, Ollama's 412, Ollama's silent context truncation, a
vLLM memory share too high for a unified-memory machine, and plain "nothing listens there".
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Signature:
    key: str
    title: str
    patterns: tuple[str, ...]
    meaning: str
    fix: str

    def matches(self, text: str) -> bool:
        return any(re.search(p, text, re.IGNORECASE | re.DOTALL) for p in self.patterns)


SIGNATURES: tuple[Signature, ...] = (
    Signature(
        key="stale_container",
        title="model architecture not recognized (often a stale container image)",
        patterns=(
            r"model type\s+`?[\w.\-]+`?.{0,80}(not recogni[sz]ed|does not recogni[sz]e)",
            r"does not recogni[sz]e this architecture",
            r"unknown model architecture",
            r"architectures? \[?'?[\w]+'?\]? (are|is) not supported",
        ),
        meaning=(
            "The server's Transformers/vLLM (or Ollama) does not know this model's architecture. "
            "An unsupported architecture and a stale container image give the identical error, "
            "and a registry check (vLLM's ModelRegistry, Transformers' CONFIG_MAPPING) is only "
            "true of the image it ran in: NVIDIA's nvcr.io/nvidia/vllm:26.04-py3 ships vLLM "
            "0.19.0, which predates Nemotron 3.5, while vllm/vllm-openai:v0.27.1 serves it."
        ),
        fix=(
            "Run the check inside the image that serves: `docker run --rm --entrypoint python "
            'IMAGE -c "import vllm, transformers; print(vllm.__version__, '
            'transformers.__version__)"`; switch to an image with a vLLM release that supports '
            "the model (Nemotron 3.5 Lightning: vllm/vllm-openai:v0.27.1 or newer). On Ollama, "
            "upgrade Ollama."
        ),
    ),
    Signature(
        key="ollama_too_old",
        title="Ollama too old for this model (HTTP 412)",
        patterns=(
            r"requires a newer version of ollama",
            r"\b412\b.{0,40}(manifest|ollama)",
            r"ollama_too_old",
        ),
        meaning=(
            "The model needs a newer Ollama than the one running (Nemotron 3.5 Lightning needs "
            "Ollama >= 0.32.9). On launch days the ollama/ollama:latest image can lag behind "
            "the release."
        ),
        fix=(
            "Upgrade Ollama (`curl -fsSL https://ollama.com/install.sh | sh`, or a newer "
            "ollama/ollama image), restart it, then `ollama pull` the model again; "
            "`curl $OLLAMA_HOST/api/version` shows the running version."
        ),
    ),
    Signature(
        key="silent_truncation",
        title="prompt silently truncated to the context window (Ollama num_ctx)",
        patterns=(
            r"silent context truncation",
            r"prompt_eval_count \d+ is (far )?below",
            r"truncating input prompt",
        ),
        meaning=(
            "Ollama cut the start of a prompt longer than num_ctx without an error: the model "
            "answered a conversation it never fully saw, and prompt_eval_count shows the tokens "
            "it kept. Results of such steps are truncated, not wrong."
        ),
        fix=(
            "Raise the context: pass num_ctx (agentbench's Ollama adapter takes it as an option; "
            "Ollama: OLLAMA_CONTEXT_LENGTH, or `PARAMETER num_ctx` in a Modelfile), then check "
            "that prompt_eval_count matches the prompt you sent."
        ),
    ),
    Signature(
        key="gpu_memory_utilization",
        title="--gpu-memory-utilization too high for the free memory",
        patterns=(
            r"free memory on device.{0,200}less than desired gpu memory utilization",
            r"desired gpu memory utilization",
            r"gpu[-_ ]memory[-_ ]utilization.{0,80}(too high|exceed|not enough|insufficient)",
        ),
        meaning=(
            "vLLM reserves that share of the device's *total* memory up front. On a machine "
            "whose CPU and GPU share one memory pool (DGX Spark), the desktop and other "
            "processes already use part of it: the default 0.92 asks for ~112 GiB where ~99 GiB "
            "are free, and vLLM refuses to start. Near the limit (0.91) it starts but leaves "
            "~1 GB for everything else."
        ),
        fix=(
            "Set --gpu-memory-utilization explicitly, e.g. 0.80 (same single-stream speed, "
            "~12 GB headroom on a Spark); a lower value only limits concurrent requests."
        ),
    ),
    Signature(
        key="mamba_rounding_pair",
        title="Mamba stochastic rounding needs a float16 SSM cache",
        patterns=(r"stochastic[-_ ]rounding.{0,200}(float16|mamba[-_]ssm[-_]cache[-_]dtype)",),
        meaning=(
            "With speculative decoding a hybrid Mamba model rolls its state back on rejected "
            "drafts; vLLM validates the flags as a pair."
        ),
        fix=(
            "Pass --enable-mamba-cache-stochastic-rounding together with "
            "--mamba-ssm-cache-dtype float16 (and --mamba-cache-philox-rounds as in the recipe)."
        ),
    ),
    Signature(
        key="model_not_served",
        title="the server answers, but not under that model name",
        patterns=(
            r"the model `[^`]+` does not exist",
            r"model ['\"][^'\"]+['\"] not found",
            r"serves none of",
        ),
        meaning="The name asked for is not one the server serves (vLLM: --served-model-name).",
        fix=(
            "List what is served (`curl URL/v1/models`, Ollama: `ollama list`) and pass that "
            "name with --model, or add it to the profile's models."
        ),
    ),
    Signature(
        key="connection_refused",
        title="nothing answers at that address",
        patterns=(
            r"connection refused",
            r"\[errno 111\]",
            r"all connection attempts failed",
            r"cannot connect to",
            r"no answer",
        ),
        meaning=(
            "No server listens there: it is not started, still loading (vLLM takes a minute or "
            "two before it opens its port), crashed on start, or listens on another port/host."
        ),
        fix=(
            "Start the server (the profile's start hint shows how), read its log for the first "
            "error, and point agentbench at it: VLLM_BASE_URL, OLLAMA_HOST, or --base-url."
        ),
    ),
)


@dataclass(frozen=True)
class Diagnosis:
    key: str
    title: str
    meaning: str
    fix: str

    def render(self) -> str:
        return f"{self.title}: {self.meaning} What to do: {self.fix}"


def diagnose(text: str | None) -> list[Diagnosis]:
    """Every known signature found in `text`, most specific first (table order)."""
    if not text:
        return []
    return [Diagnosis(s.key, s.title, s.meaning, s.fix) for s in SIGNATURES if s.matches(text)]


def signature(key: str) -> Signature:
    return next(s for s in SIGNATURES if s.key == key)
