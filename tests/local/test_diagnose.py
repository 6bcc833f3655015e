"""One test per known failure signature (agentbench.local.diagnose), on the text users met."""

from __future__ import annotations

from agentbench.local.diagnose import SIGNATURES, diagnose


def keys(text: str) -> list[str]:
    return [d.key for d in diagnose(text)]


def test_stale_container_model_type_not_recognized() -> None:
    text = ("Value error, The checkpoint you are trying to load has model type `nemotron_h` but "
            "Transformers does not recognize this architecture. This could be because of an "
            "issue with the checkpoint, or because your version of Transformers is out of date.")
    found = diagnose(text)
    assert found[0].key == "stale_container"
    assert "image it ran in" in found[0].meaning and "v0.27.1" in found[0].fix


def test_ollama_412_requires_newer_version() -> None:
    text = ("Error: pull model manifest: 412:\nThe model you are attempting to pull requires a "
            "newer version of Ollama.")
    found = diagnose(text)
    assert [d.key for d in found] == ["ollama_too_old"]
    assert "0.32.9" in found[0].meaning and "ollama pull" in found[0].fix


def test_silent_truncation_from_the_adapter_reason() -> None:
    text = ("silent context truncation: prompt_eval_count 8194 is far below the ~21000 tokens "
            "sent (num_ctx=8192); Ollama dropped the start of the prompt — raise num_ctx")
    assert keys(text) == ["silent_truncation"]
    assert "num_ctx" in diagnose(text)[0].fix


def test_gpu_memory_utilization_too_high_on_unified_memory() -> None:
    text = ("ValueError: Free memory on device (98.7/121.7 GiB) on startup is less than desired "
            "GPU memory utilization (0.92, 111.95 GiB). Decrease GPU memory utilization or "
            "reduce GPU memory used by other processes.")
    found = diagnose(text)
    assert found[0].key == "gpu_memory_utilization"
    assert "0.80" in found[0].fix and "share one memory pool" in found[0].meaning


def test_mamba_stochastic_rounding_needs_float16() -> None:
    text = ("--enable-mamba-cache-stochastic-rounding requires --mamba-ssm-cache-dtype float16")
    assert keys(text) == ["mamba_rounding_pair"]


def test_model_not_served() -> None:
    assert keys("The model `nemotron` does not exist.") == ["model_not_served"]


def test_connection_refused() -> None:
    text = ("cannot connect to http://127.0.0.1:8000/v1/chat/completions: [Errno 111] "
            "Connection refused")
    assert keys(text) == ["connection_refused"]
    assert "VLLM_BASE_URL" in diagnose(text)[0].fix


def test_unknown_text_has_no_diagnosis() -> None:
    assert diagnose("everything is fine") == [] and diagnose(None) == []
    assert len({s.key for s in SIGNATURES}) == len(SIGNATURES)
