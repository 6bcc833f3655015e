"""`agentbench bench`: raw serving speed (prefill, decode, TTFT, TPOT, ITL) of one model server.

Modules, one concept each: scenarios (what is measured), prompts (natural-text prompts cut to an
exact token count, with a per-repetition nonce), gate (coherence gate), specdecode (drafter
counters), arrivals (request-rate schedules), measure (one repetition at a concurrency or a
rate), engine (warm-up, runs, context checks), records (the typed results), results (row
summaries, goodput, CSV and store), compare (ratios with bootstrap CIs), report (rich), plot
(sweep curves).
"""
