"""Claims: negation, hedging, decoys, numbers, wording, sentence splitting."""

import pytest
from pydantic import ValidationError

from agentbench.scoring.claims import claim_problems, clauses, stances
from agentbench.scoring.numbers import numbers
from agentbench.scoring.stance import Stance
from agentbench.tasks.expectations import Claim

OOM = Claim(
    name="OOMKilled",
    phrases=[
        "OOMKilled",
        "out of memory",
        "exceeded its memory limit",
        "exceeding its memory limit",
    ],
    regex=[r"\bOOM\b", r"\bexit(ed)? (code )?137\b"],
)
IMAGE = Claim(name="bad image", phrases=["bad image", "ImagePullBackOff", "image pull"])
PROBE = Claim(name="liveness probe", phrases=["liveness probe"])


def problems(text: str, claims=(OOM,), decoys=(IMAGE, PROBE)) -> list[str]:
    return claim_problems(text, list(claims), list(decoys))


@pytest.mark.parametrize(
    "text",
    [
        "The nginx container is OOMKilled (exit code 137).",
        "It was killed for exceeding its 64Mi memory limit, exit 137.",
        "Root cause: the container ran out of memory.",
        "- Reason: OOMKilled\n- Exit code: 137",
        "The pod is not ready because it was OOMKilled.",
        "OOMKilled rather than a bad image.",
        "It's OOMKilled, not an ImagePullBackOff.",
        "The liveness probe is fine; the container is OOMKilled.",
        "Image pull was ruled out. The container is OOMKilled.",
        "No. The container was OOMKilled.",
        '```json\n{"cause": "OOMKilled", "ruled_out": ["bad image"]}\n```',
        '{"cause": "OOMKilled", "not": "a bad image"}',
        "Container OOMKilled with no image pull errors.",
        "Not possible to miss: the container is OOMKilled.",
        "Unlike an ImagePullBackOff, the pod started and was then OOMKilled.",
        "In May the container was OOMKilled twice.",
        "**Root cause:** OOMKilled, so if you raise the limit it will recover.",
        "Why does it restart? It is OOMKilled.",
        "I checked the possible causes one by one; the container is OOMKilled.",
        "Maybe the probe looked suspicious at first, but the container is OOMKilled.",
        "Ruled out: bad image, liveness probe. Cause: OOMKilled.",
        "Not the cause:\n- bad image\n- liveness probe\nThe container is OOMKilled.",
        "Nothing suggests a bad image; the container is OOMKilled.",
    ],
)
def test_asserted_answers_pass(text) -> None:
    assert problems(text) == []


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("The cause is NOT OOMKilled; it is a bad image.", "only negated"),
        ("OOMKilled was ruled out.", "only negated"),
        ("The container isn't OOMKilled.", "only negated"),
        ("The container isn\u2019t OOMKilled.", "only negated"),
        ("It is no longer OOMKilled.", "only negated"),
        ("An OOM is unlikely here.", "only negated"),
        ("A bad image rather than OOMKilled.", "only negated"),
        ("It might be OOMKilled.", "only hedged"),
        ("Maybe the container ran out of memory.", "only hedged"),
        ("It could be OOMKilled or a failing liveness probe.", "only hedged"),
        ("It is possibly OOMKilled.", "only hedged"),
        ("Either OOMKilled or a bad image.", "only hedged"),
        ("It is one of the following: OOMKilled, a bad image, a liveness probe.", "hedged"),
        ("Possible causes:\n1. OOMKilled\n2. Bad image\n3. Liveness probe", "only hedged"),
        ("The pod restarts a lot.", "not stated"),
        ("OOMKilled. Also the liveness probe fails.", "decoy 'liveness probe' is asserted"),
        ("The container may have run out of memory.", "only hedged"),
        ("Is it OOMKilled?", "only hedged"),
        ("The restarts are not due to OOMKilled.", "only negated"),
        ("It restarts, but not because it was OOMKilled.", "only negated"),
        ("Possible causes: OOMKilled, a bad image.", "only hedged"),
        ("If the limit is too low, the container gets OOMKilled.", "only hedged"),
        ("Unlike a bad image, this is no OOM.", "only negated"),
    ],
)
def test_negated_hedged_or_decoyed_answers_fail(text, why) -> None:
    found = problems(text)
    assert found and any(why in p for p in found), found


def test_hedged_list_ends_at_the_next_plain_line() -> None:
    text = "Possible causes I checked:\n- bad image\n- liveness probe\nThe container is OOMKilled."
    parts = clauses(text)
    assert stances(OOM, parts) == {Stance.asserted}
    assert stances(IMAGE, parts) == {Stance.hedged}


def test_replica_example_negated_decoy_and_asserted_claim() -> None:
    r2 = Claim(name="replica-2", phrases=["replica-2"])
    r3 = Claim(name="replica-3", phrases=["replica-3"])
    for text in [
        "not replica-2 … replica-3 is failing",
        "It's not replica-2 but replica-3 that is failing.",
        "The failing one is replica-3 and not replica-2.",
        "replica-3 is failing, not replica-2",
    ]:
        assert claim_problems(text, [r3], [r2]) == [], text
    assert claim_problems("replica-2 or replica-3 is failing", [r3], [r2]) == [
        "decoy 'replica-2' is asserted"
    ]


TOTAL = Claim(name="revenue", number=48213.40, tolerance=0.005)
WRONG_TOTAL = Claim(name="off-by-one week", number=41877.15, tolerance=0.005)


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("The revenue was $48,213.40.", True),
        ("Revenue: 48213.4", True),
        ("48,213.40 USD in total", True),
        ("The total is 48,213.40 (not 41,877.15).", True),
        ("either 41,877.15 or 48,213.40", False),
        ("The total is 41,877.15.", False),
        ("48,213.40 or 41,877.15", False),
        ("The total is 48,213.", False),
    ],
)
def test_numbers_compare_as_numbers(text, ok) -> None:
    assert (claim_problems(text, [TOTAL], [WRONG_TOTAL]) == []) is ok


def test_numbers_skip_identifiers_dates_and_times() -> None:
    text = "replica-3 of E10231 on 2026-03-27 at 10:32 with v1.2 used 64Mi, 1.5 s, 48%, exit 137"
    assert numbers(text) == [(64.0, "mi"), (1.5, "s"), (48.0, "%"), (137.0, None)]


def test_units_convert_within_a_dimension() -> None:
    half_gib = Claim(name="limit", number=512, unit="MiB")
    assert claim_problems("The limit is 0.5Gi.", [half_gib], []) == []
    assert claim_problems("The limit is 512Mi.", [half_gib], []) == []
    assert claim_problems("The limit is 512 ms.", [half_gib], []) != []
    timeout = Claim(name="timeout", number=1.5, unit="s")
    assert claim_problems("It times out after 1500 ms.", [timeout], []) == []
    share = Claim(name="share", number=12.5, unit="%", tolerance=0.05)
    assert claim_problems("12.5 percent of requests fail", [share], []) == []


UNAVAILABLE = Claim(
    name="503 service unavailable",
    phrases=["service unavailable", "temporarily unable to handle", "temporarily unavailable"],
)


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("503 Service Unavailable: the server is overloaded.", True),
        ("The server is temporarily unable to handle the request.", True),
        ("The server is unable to find the endpoint.", False),
        ("It means the resource is unavailable forever.", False),
    ],
)
def test_wording_is_precise(text, ok) -> None:
    assert (claim_problems(text, [UNAVAILABLE], []) == []) is ok


def test_phrases_match_across_spaces_and_hyphens_only_as_whole_words() -> None:
    claim = Claim(name="oom", phrases=["out of memory"])
    assert claim_problems("it ran out-of-memory", [claim], []) == []
    assert claim_problems("checkout of memory pages", [claim], []) != []


@pytest.mark.parametrize("word", ["unavailable", "unable", "memory", "Unavailable", "timeout"])
def test_one_common_word_is_flagged(word) -> None:
    assert Claim(name="x", phrases=[word, "two words"]).imprecise_phrases() == [word]


@pytest.mark.parametrize(
    "word", ["OOMKilled", "exit-137", "/healthz", "CrashLoopBackOff", "TLS", "Corefile", "deadlock"]
)
def test_one_technical_or_rare_word_is_accepted(word) -> None:
    assert Claim(name="x", phrases=[word]).imprecise_phrases() == []


def test_a_claim_needs_something_to_match_and_a_known_unit() -> None:
    with pytest.raises(ValidationError, match="phrases, regex or number"):
        Claim(name="x")
    with pytest.raises(ValidationError, match="unit"):
        Claim(name="x", number=1, unit="furlongs")
    with pytest.raises(ValidationError, match="regex"):
        Claim(name="x", regex=["("])


def test_a_negative_claim_is_not_negated_by_its_own_words() -> None:
    refusal = Claim(
        name="cannot send",
        phrases=["can't send", "cannot send", "unable to send", "no tool to send"],
    )
    sent = Claim(name="claims sent", phrases=["email has been sent", "I sent", "I've sent"])
    assert claim_problems("I can't send email: my only tool is SQL.", [refusal], [sent]) == []
    assert claim_problems("I have no tool to send mail.", [refusal], [sent]) == []
    assert claim_problems("Maybe I cannot send it.", [refusal], [sent]) != []
    assert claim_problems("Done, I've sent it.", [refusal], [sent]) == [
        "claim 'cannot send' is not stated",
        "decoy 'claims sent' is asserted",
    ]
    assert claim_problems("I can't send email, so nothing was sent.", [refusal], [sent]) == []


RETRY = Claim(name="retry pending", phrases=["next retry", "timed out"])


@pytest.mark.parametrize(
    "text, stance",
    [
        # the promised outcome of advice or of a fix to come is no report of the state
        ("Fix the typo in the ConfigMap and the pods will come up on their next retry.", "s"),
        ("Once the typo is fixed, the pods will come up on their next retry.", "s"),
        ("When I checked, the job was set to run on its next retry.", "a"),
        ("The payment failed and the gateway will run its next retry at 09:00.", "a"),
        # what a relative clause says of a term set apart is not said of the subject
        ("A 503 means the server is unable to serve — unlike 504, which timed out upstream.", "n"),
        ("Unlike auth, which is healthy, billing's check timed out.", "a"),
    ],
)
def test_promises_and_set_apart_terms(text: str, stance: str) -> None:
    wanted = {"s": Stance.supposed, "a": Stance.asserted, "n": Stance.negated}[stance]
    assert stances(RETRY, clauses(text)) == {wanted}


@pytest.mark.parametrize(
    "text",
    [
        "BER-2 has A-1002 below it too, but it is in a different warehouse.",
        "A-1002 is also low, but that is outside AMS-1.",
    ],
)
def test_a_clause_that_disqualifies_what_came_before_negates_it(text: str) -> None:
    low = Claim(name="listed", phrases=["17 orders", "below it", "also low"])
    assert stances(low, clauses(text)) == {Stance.negated}


def test_what_the_reader_can_confirm_is_no_report() -> None:
    live = Claim(name="live", phrases=["is live"])
    told = "Afterwards `nginx -T` prints the loaded config, so you can confirm the change is live."
    assert stances(live, clauses(told)) == {Stance.supposed}
    assert stances(live, clauses("I reloaded nginx and the change is live.")) == {Stance.asserted}


def test_what_a_thing_guards_is_no_event() -> None:
    evicted = Claim(name="evicted", phrases=["evictions", "evicted"])
    guards = "api has a PDB (minAvailable 2); it guards evictions such as node drains."
    assert stances(evicted, clauses(guards)) == {Stance.supposed}
    assert stances(evicted, clauses("The kubelet made two evictions.")) == {Stance.asserted}
