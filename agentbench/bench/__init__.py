"""`agentbench bench`: raw serving speed (prefill, decode, TTFT) of one model server.

Modules, one concept each: scenarios (what is measured), prompts (natural-text prompts cut to an
exact token count, with a per-repetition nonce), gate (coherence gate), specdecode (vLLM /metrics
counters), measure (one repetition at a given concurrency), engine (warm-up, runs, context
checks), results (summaries, JSON/CSV/store), compare (ratios with bootstrap CIs), report (rich).
"""
