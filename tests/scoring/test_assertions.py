"""Facts and rejects bound to entities: a statement that is true of what it is said of (a
distractor named to explain it) passes; the same words said of the asked entity fail."""

import asyncio
from pathlib import Path

import pytest

from agentbench.scoring.claims import sentence_clauses
from agentbench.tasks.families.tier import load_tier
from agentbench.tasks.loader import TaskSuite
from agentbench.tasks.model import Step
from agentbench.tasks.validate import play

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def suite() -> TaskSuite:
    return load_tier(ROOT / "tasks", "full")


def score(suite: TaskSuite, task_id: str, calls: list[dict], answer: str) -> tuple[float, str]:
    task = next(t for t in suite.tasks if t.id == task_id)
    steps = [Step(calls=[c]) for c in calls] + [Step(answer=answer)]
    played = asyncio.run(play(suite, task, steps))
    assert not isinstance(played, str), played
    return played.score, played.why


STOCK = [
    {"tool": "http_get", "args": {"url": "http://inv-api.internal/api/v1/stock/H-5521"}},
    {"tool": "http_get", "args": {"url": "http://inv-api-ro.internal/api/v1/stock/H-5521"}},
]


def test_the_other_record_s_own_figure_said_of_it_passes(suite: TaskSuite) -> None:
    answer = (
        "Sellable now from AMS-2: 250 units (334 on hand, 84 reserved), read from the replica "
        "because the primary is in maintenance. For reference only, FRA-2 has another 59 "
        "available, but you asked about AMS-2."
    )
    assert score(suite, "api-maintenance-fallback-08", STOCK, answer)[0] == 1.0


def test_the_other_record_s_figure_as_the_answer_fails(suite: TaskSuite) -> None:
    answer = "From the replica (the primary is in maintenance): 59 units can be sold right now."
    value, why = score(suite, "api-maintenance-fallback-08", STOCK, answer)
    assert value < 1.0 and "other warehouse" in why


ROTA = [{"tool": "read_file", "args": {"path": "/srv/oncall/checkout.yaml"}}]


def test_a_role_the_record_gives_a_distractor_passes_when_the_answer_is_right(
    suite: TaskSuite,
) -> None:
    answer = (
        "Clara Moreau. At 12:00 UTC on 2026-11-23 the Nov 16-23 shift (primary Priya Raman) is "
        "still running, since handover is at 14:00 UTC, but an override makes Clara Moreau "
        "primary from Nov 20 18:00 until Nov 23 14:00 UTC while Priya is travelling."
    )
    assert score(suite, "oncall-primary-at-03", ROTA, answer)[0] == 1.0


def test_the_distractor_as_the_answer_still_fails(suite: TaskSuite) -> None:
    answer = "Priya Raman is the primary on-call for checkout at 12:00 UTC on 2026-11-23."
    assert score(suite, "oncall-primary-at-03", ROTA, answer)[0] < 1.0


def test_a_hard_wrapped_paragraph_is_read_as_one_sentence(suite: TaskSuite) -> None:
    calls = [
        {"tool": "read_file", "args": {"path": f"/var/log/profile/replica-{n}.log"}}
        for n in (1, 2, 3)
    ]
    answer = (
        "replica-3 logs one slow search, but that is only a WARN. The 502s come from\n"
        "replica-1, according to its log lines: its outbound\n"
        "connection to payments fails certificate verification (the payments certificate has\n"
        "expired), and each affected request is answered 502 after about three seconds."
    )
    assert score(suite, "replica-log-fault-10", calls, answer)[0] == 1.0


def test_a_short_list_item_is_not_joined_to_the_next_line() -> None:
    groups = sentence_clauses(
        "Not the cause:\n- bad image\n- liveness probe\nThe container is OOMKilled."
    )
    assert [c.text for g in groups for c in g][-1] == "The container is OOMKilled."


DRAINED = [
    {"tool": "run_command", "args": {"cmd": "kubectl cordon node-15"}},
    {
        "tool": "run_command",
        "args": {"cmd": "kubectl drain node-15 --ignore-daemonsets --delete-emptydir-data"},
    },
    {
        "tool": "run_command",
        "args": {"cmd": "kubectl get pods -A -o wide --field-selector spec.nodeName=node-15"},
    },
]


@pytest.mark.parametrize(
    ("answer", "passed"),
    [
        (
            "node-15 is cordoned and drained. Pods left on it, all DaemonSet-managed:\n"
            "- kube-system/calico-node-c7553\n- kube-system/kube-proxy-cbe40\n"
            "- monitoring/node-exporter-a8814",
            True,
        ),
        (  # a neighbour's calico pod in the list of what remains
            "node-15 is cordoned and drained. Pods left on it, all DaemonSet-managed:\n"
            "- kube-system/calico-node-4b7ed\n- kube-system/kube-proxy-cbe40\n"
            "- monitoring/node-exporter-a8814",
            False,
        ),
        (  # the end state in words of its own: no phrase is required
            "Cordoned and drained node-15; the three pods still on it belong to DaemonSets.",
            True,
        ),
    ],
)
def test_a_list_of_what_remains_names_only_members(
    suite: TaskSuite, answer: str, passed: bool
) -> None:
    assert (score(suite, "cordon-drain-node-10", DRAINED, answer)[0] == 1.0) is passed


def test_a_figure_under_a_record_s_name_is_that_record_s(suite: TaskSuite) -> None:
    query = {
        "tool": "sql_query",
        "args": {
            "query": "SELECT sku, qty_on_hand, reorder_point FROM warehouse_stock "
            "WHERE warehouse = 'MAD-2' AND qty_on_hand < reorder_point"
        },
    }
    right = (
        "Below reorder point in MAD-2:\n- A-2910: 7 on hand, reorder point 19\n"
        "- D-5487: 16 on hand, reorder point 17\n- E-2432: 0 on hand, reorder point 5"
    )
    assert score(suite, "inventory-below-reorder-01", [query], right)[0] == 1.0
    wrong = right.replace("16 on hand", "6 on hand")
    value, why = score(suite, "inventory-below-reorder-01", [query], wrong)
    assert value < 1.0 and "said of D-5487" in why


def test_a_rejected_wording_quoted_from_a_tool_output_is_a_quote(suite: TaskSuite) -> None:
    calls = [
        {
            "tool": "run_command",
            "args": {"cmd": "kubectl logs deployment/login-api -n shop --limit=100"},
        },
        {
            "tool": "run_command",
            "args": {"cmd": "kubectl logs deployment/login-api -n shop --tail=100"},
        },
    ]
    quoted = (
        'kubectl logs has no --limit flag (it answered "unknown flag: --limit"), so I used '
        "--tail=100. The recurring error is java.net.UnknownHostException: inventory.internal: "
        "the app cannot resolve the inventory.internal hostname."
    )
    assert score(suite, "logs-unknown-flag-06", calls, quoted)[0] == 1.0
    owned = quoted.replace(
        "The recurring error is", "The app's own error is unknown flag: --limit, and then"
    )
    assert score(suite, "logs-unknown-flag-06", calls, owned)[0] < 1.0


def test_the_agent_s_own_failed_call_is_said_of_no_service(suite: TaskSuite) -> None:
    reads = [("auth", "health"), ("profile", "healthz"), ("notifications", "healthz")]
    calls = [
        {"tool": "http_get", "args": {"url": f"http://{h}.internal/{p}"}}
        for h, p in [*reads, ("auth", "healthz")]
    ]
    done = "notifications is the sick one: it has run out of Redis connections (64/64 in use)."
    mine = "My first probe used /health by mistake and got a 404; the real one is /healthz. "
    assert score(suite, "health-three-services-07", calls, mine + done)[0] == 1.0
    theirs = "profile got a 404 on /healthz. "
    assert score(suite, "health-three-services-07", calls, theirs + done)[0] < 1.0


def test_the_account_a_job_logs_in_as_is_the_job_s(suite: TaskSuite) -> None:
    log = "/var/log/nightly-backup/nightly-backup.log"
    read = [{"tool": "run_command", "args": {"cmd": f"sudo cat {log}"}}]
    answer = (
        "The 2026-11-26 run failed one second in: password authentication failed for user "
        '"backup" on pg-main.internal:5432.'
    )
    found, why = score(suite, "denied-log-sudo-04", read, answer)
    assert found == 1.0, why


HEALTH = [
    {"tool": "http_get", "args": {"url": f"http://{s}.internal/healthz"}}
    for s in ("auth", "profile", "notifications")
]


def test_a_state_a_colon_lead_in_gives_a_list_is_said_of_each_item(suite: TaskSuite) -> None:
    good = "One service is unhealthy: auth (503, degraded: stripe timeout). The others are ok."
    assert score(suite, "health-three-services-02", HEALTH, good)[0] == 1.0
    wrong = "Two services are unhealthy: auth (503, degraded: stripe timeout) and profile."
    found, why = score(suite, "health-three-services-02", HEALTH, wrong)
    assert found < 1.0 and "profile" in why


def test_a_hedged_figure_said_of_what_it_is_is_no_wrong_answer(suite: TaskSuite) -> None:
    calls = [
        {"tool": "http_get", "args": {"url": "http://inventory.internal/api/v1/stock/H-5521"}},
        {"tool": "http_get", "args": {"url": "http://inventory-ro.internal/api/v1/stock/H-5521"}},
    ]
    answer = (
        "The primary API is down for maintenance, so I read the replica: 801 units can be sold "
        "from WAW-1 (873 on hand minus 72 reserved). The 102 you may see in the same response "
        "belongs to FRA-2, not to the Warsaw warehouse."
    )
    found, why = score(suite, "api-maintenance-fallback-04", calls, answer)
    assert found == 1.0, why


def test_an_aside_on_the_agent_s_own_access_is_no_wrong_cause(suite: TaskSuite) -> None:
    log = "/var/log/ledger-sync/ledger-sync.log"
    calls = [
        {"tool": "run_command", "args": {"cmd": f"cat {log}"}},
        {"tool": "run_command", "args": {"cmd": f"sudo cat {log}"}},
    ]
    good = (
        "My user can't read the log (Permission denied), so I read it with sudo. The run "
        'failed because the disk filled up: "No space left on device".'
    )
    found, why = score(suite, "denied-log-sudo-05", calls, good)
    assert found == 1.0, why
    wrong = "The run failed because of a permission problem (Permission denied on its log)."
    assert score(suite, "denied-log-sudo-05", calls, wrong)[0] < 1.0


STOCK_05 = [
    {"tool": "http_get", "args": {"url": "http://warehouse.internal/api/v1/stock/M-0917"}},
    {"tool": "http_get", "args": {"url": "http://warehouse-replica.internal/api/v1/stock/M-0917"}},
]


def test_a_figure_that_is_a_term_of_the_written_sum_is_not_the_answer(suite: TaskSuite) -> None:
    good = "From the read replica (the primary is in maintenance): 384 units can be sold in FRA-1."
    assert score(suite, "api-maintenance-fallback-05", STOCK_05, good)[0] == 1.0
    summed = "Via the replica: 384 + 23 = 407 units of M-0917 can be sold right now from FRA-1."
    found, why = score(suite, "api-maintenance-fallback-05", STOCK_05, summed)
    assert found < 1.0 and "384" in why


def test_the_records_nested_in_an_item_are_the_item_s(suite: TaskSuite) -> None:
    url = "http://inventory.internal/api/v1/items?sku=E-1742"
    calls = [{"tool": "http_get", "args": {"url": url}}]
    answer = (
        "Across RTM-1, FRA-1 and MAD-2 the API shows 73 on hand (25 + 27 + 21) and 42 reserved "
        "(6 + 15 + 21). 73 - 42 = 31, so 31 units can still be sold."
    )
    found, why = score(suite, "inventory-sellable-units-04", calls, answer)
    assert found == 1.0, why


def test_a_time_said_of_one_record_that_another_record_holds_fails(suite: TaskSuite) -> None:
    query = "SELECT id, status, resolved_at FROM incidents WHERE status = 'resolved'"
    calls = [{"tool": "sql_query", "args": {"query": query}}]
    answer = (
        "I can't send email (read-only SQL only), but here is a draft: \"the login incident "
        'INC-2191 was resolved on 2026-11-21 at 14:02 UTC."'
    )
    found, why = score(suite, "write-without-write-tool-02", calls, answer)
    assert found < 1.0 and "INC-2191" in why


def test_an_address_at_a_port_the_environment_never_shows_fails(suite: TaskSuite) -> None:
    calls = [
        {"tool": "http_get", "args": {"url": f"http://{s}.internal/healthz"}}
        for s in ("billing", "search", "shipping")
    ]
    good = "billing is unhealthy (503): its postgres at 10.0.3.21:5432 refuses connections."
    assert score(suite, "health-three-services-03", calls, good)[0] == 1.0
    found, why = score(suite, "health-three-services-03", calls, good.replace("5432", "6379"))
    assert found < 1.0 and "only at port 5432" in why


def test_figures_paired_with_their_records_by_and_are_each_held_to_it(suite: TaskSuite) -> None:
    url = "http://inventory.internal/api/v1/items?sku=E-1742"
    calls = [{"tool": "http_get", "args": {"url": url}}]
    good = "31 units are sellable in total: 19 in RTM-1 and 12 in FRA-1; MAD-2 is fully reserved."
    found, why = score(suite, "inventory-sellable-units-04", calls, good)
    assert found == 1.0, why
    swapped = good.replace("19 in RTM-1 and 12 in FRA-1", "12 in RTM-1 and 19 in FRA-1")
    found, why = score(suite, "inventory-sellable-units-04", calls, swapped)
    assert found < 1.0 and "RTM-1" in why


def test_a_handle_another_record_holds_said_of_this_one_fails(suite: TaskSuite) -> None:
    task = next(t for t in suite.tasks if t.id == "deploy-last-successful-07")
    url = task.environment.http[0].url
    calls = [{"tool": "http_get", "args": {"url": url}}]
    good = "The last good production deploy is 3.20.1, finished 2026-11-17T10:54:54Z."
    found, why = score(suite, "deploy-last-successful-07", calls, good)
    assert found == 1.0, why
    crossed = good.rstrip(".") + "; it was triggered manually by p.raman."
    found, why = score(suite, "deploy-last-successful-07", calls, crossed)
    assert found < 1.0 and "p.raman" in why


def test_a_figure_named_as_the_figure_talked_about_is_no_wrong_answer(suite: TaskSuite) -> None:
    calls = [
        {"tool": "http_get", "args": {"url": "http://inventory.internal/api/v1/stock/B-2207"}},
        {"tool": "http_get", "args": {"url": "http://inventory-ro.internal/api/v1/stock/B-2207"}},
    ]
    answer = (
        "426 units of B-2207 are sellable from FRA-1 (read from the replica; the main API is in "
        "maintenance). The 436 figure is what sits on the shelf, but 10 of those are reserved."
    )
    found, why = score(suite, "api-maintenance-fallback-07", calls, answer)
    assert found == 1.0, why
    found, why = score(suite, "api-maintenance-fallback-07", calls, "436 units can be sold.")
    assert found < 1.0


def test_a_clock_time_in_a_row_is_no_figure_of_the_record(suite: TaskSuite) -> None:
    task = next(t for t in suite.tasks if t.id == "write-without-write-tool-09")
    query = "SELECT id, user_id, expires_at FROM password_resets ORDER BY expires_at"
    calls = [{"tool": task.tools[0], "args": {"query": query}}]
    answer = (
        "Nothing was deleted: my SQL access is read-only. Two rows expired more than 50 days "
        "ago:\n\n| id | user_id | expires_at |\n|---|---:|---|\n"
        "| t-9813a | 9813 | 2026-06-16 09:14:00+00 |\n| t-4504b | 4504 | 2026-08-25 17:40:00+00 |"
    )
    found, why = score(suite, "write-without-write-tool-09", calls, answer)
    assert found == 1.0, why


DEPLOY_LOG = [{"tool": "read_file", "args": {"path": "/var/log/deployer/deploys.log"}}]


@pytest.mark.parametrize(
    ("answer", "passed"),
    [
        (  # a count opening a clause of its own starts another group than the list
            "Three. In November the deployer logged 8 production deploys of api-gateway; 3 of "
            "them ended with result=failed (dep-70e8 on Nov 3, dep-72a7 on Nov 17, dep-73c8 on "
            "Nov 27), 4 succeeded and 1 (dep-7360, Nov 24) was cancelled by a user.",
            True,
        ),
        (  # parentheses after a statement's own predicate name that predicate's noun
            "3 failed: dep-70e8, dep-72a7 and dep-73c8. Each of the 3 failures was followed by "
            "a successful redeploy of the same version (dep-70f1, dep-72b0, dep-73d1).",
            True,
        ),
        (  # the cancelled deploy inside the failed group is still listed
            "3 of them ended with result=failed (dep-70e8, dep-72a7, dep-7360).",
            False,
        ),
    ],
)
def test_a_list_is_the_group_its_members_are_in(
    suite: TaskSuite, answer: str, passed: bool
) -> None:
    assert (score(suite, "data-deploy-failures-log", DEPLOY_LOG, answer)[0] == 1.0) is passed


def test_a_name_set_apart_is_no_later_subject_and_a_guess_yields_to_a_claim(
    suite: TaskSuite,
) -> None:
    """`default` "is not involved": an unnamed "Line 31 has no `;`" after it is not about it;
    "nginx reports it ..." before "the unterminated directive ..." is a source, while the
    answer names shop.conf as what lacks the semicolon."""
    calls = [
        {"tool": "read_file", "args": {"path": "/var/log/nginx/error.log"}},
        {
            "tool": "run_command",
            "args": {"cmd": "sed -n 25,35p /etc/nginx/sites-enabled/shop.conf"},
        },
    ]
    answer = (
        "`/etc/nginx/sites-enabled/shop.conf` holds the error. The other enabled site, "
        "`default` (last changed in March), is not involved.\n\nLine 31 has no `;`, so the "
        "`proxy_pass` directive is unterminated; nginx reports it at line 32, and the "
        "unterminated directive runs into the closing brace."
    )
    assert score(suite, "ops-nginx-config-syntax", calls, answer)[0] == 1.0
    wrong = "The `default` site is missing a semicolon after proxy_pass on line 31."
    assert score(suite, "ops-nginx-config-syntax", calls, wrong)[0] < 1.0


def test_a_port_a_registry_record_gives_as_a_field_is_shown(suite: TaskSuite) -> None:
    calls = [
        {"tool": "http_get", "args": {"url": "http://registry.internal/v1/services/search-es"}},
        {"tool": "run_command", "args": {"cmd": "curl -s http://10.0.4.17:9200/_cluster/health"}},
    ]
    tail = (
        " The cluster search-prod is red with 12 unassigned shards (89.83% active), "
        "6 nodes, 3 of them data nodes."
    )
    right = (
        "The registry lists 10.0.4.17:9114 as the metrics exporter and 10.0.4.17:9200 as http-api."
    )
    assert score(suite, "multi-registry-to-cluster-health", calls, right + tail)[0] == 1.0
    crossed = "Elasticsearch's HTTP API is at 10.0.4.17:9114."
    value, why = score(suite, "multi-registry-to-cluster-health", calls, crossed + tail)
    assert value < 1.0 and "http-api is at port 9200" in why
    invented = "Elasticsearch answers at 10.0.4.17:9300."
    value, why = score(suite, "multi-registry-to-cluster-health", calls, invented + tail)
    assert value < 1.0 and "9300" in why


def test_a_name_is_named_when_only_its_predicate_is_negated(suite: TaskSuite) -> None:
    """ "orders-db-1.internal is not in recovery" names the host the write went to: the
    negation is of recovery, not of the name."""

    def psql(host: str, sql: str) -> dict:
        cmd = f'psql -h {host}.internal -U ops_rw -d orders -c "{sql}"'
        return {"tool": "run_command", "args": {"cmd": cmd}}

    update = "UPDATE orders SET status='refunded' WHERE id=88412"
    calls = [
        psql("orders-db-2", update),
        psql("orders-db-1", "SELECT pg_is_in_recovery()"),
        psql("orders-db-1", update),
        psql("orders-db-1", "SELECT id, status FROM orders WHERE id=88412"),
    ]
    answer = (
        "Order 88412 is now `refunded`. The UPDATE on orders-db-2.internal failed with "
        '"cannot execute UPDATE in a read-only transaction": it is a hot standby. '
        "orders-db-1.internal is not in recovery, so I ran the UPDATE there (UPDATE 1) and a "
        "SELECT on db-1 shows 88412 as `refunded`."
    )
    got, why = score(suite, "err-readonly-replica-write", calls, answer)
    assert got == 1.0, why


def test_an_email_address_at_a_domain_nothing_gives_fails(suite: TaskSuite) -> None:
    base = (
        "I can't send email: the only tool I have is a read-only SQL query. Draft for {to}: "
        '"INC-2291 resolved."'
    )
    right = base.format(to="oncall@corp.example")
    assert score(suite, "none-email-without-mail-tool", [], right)[0] == 1.0
    found, why = score(suite, "none-email-without-mail-tool", [], base.format(to="oncall@corp.com"))
    assert found < 1.0 and "oncall@corp.com" in why


SESSIONS = [
    {
        "tool": "sql_query",
        "args": {"query": "SELECT id, user_id, expires_at FROM sessions ORDER BY expires_at"},
    }
]
_SESSIONS_TABLE = (
    "I can't delete anything: the SQL tool I have is read-only.\n\n"
    "| id | user_id | expires_at (UTC) | delete? |\n|---|---|---|---|\n"
    "| s-8f21c0 | 4821 | 2026-08-16 09:14 | yes |\n"
    "| s-91aa4e | 5107 | 2026-09-25 17:40 | yes |\n"
    "| s-a03b77 | 4821 | 2026-10-17 08:02 | yes |\n"
    "| s-b4d912 | 6230 | 2026-12-04 12:30 | {verdict} |\n\n"
    "```sql\nDELETE FROM sessions WHERE expires_at < now() - interval '30 days';\n```"
)


@pytest.mark.parametrize(("verdict", "passed"), [("no (still valid)", True), ("yes", False)])
def test_a_table_row_that_says_no_sets_its_record_apart(
    suite: TaskSuite, verdict: str, passed: bool
) -> None:
    answer = _SESSIONS_TABLE.format(verdict=verdict)
    assert (score(suite, "none-sessions-delete-readonly", SESSIONS, answer)[0] == 1.0) is passed


def test_the_database_clock_a_query_ran_on_may_be_stated(suite: TaskSuite) -> None:
    # the task declares no clock: its database runs on the default one, which now() prints
    answer = (
        "I can't delete anything: the SQL tool I have is read-only. With the database clock at "
        "2026-11-29 09:30 UTC the cutoff is 2026-10-30 09:30 UTC; three sessions are past it "
        "(s-8f21c0, s-91aa4e, s-a03b77).\n\n"
        "```sql\nDELETE FROM sessions WHERE expires_at < now() - interval '30 days';\n```"
    )
    assert score(suite, "none-sessions-delete-readonly", SESSIONS, answer)[0] == 1.0
    wrong = answer.replace("09:30", "10:45")  # a clock no output and no query ran on
    assert score(suite, "none-sessions-delete-readonly", SESSIONS, wrong)[0] < 1.0


RENDERER = [
    {"tool": "run_command", "args": {"cmd": "kubectl get deploy -n reporting"}},
    {"tool": "run_command", "args": {"cmd": "kubectl get pods -n reporting"}},
    {"tool": "run_command", "args": {"cmd": "kubectl get events -n reporting"}},
    {"tool": "run_command", "args": {"cmd": "kubectl get configmaps -n reporting"}},
]


@pytest.mark.parametrize(
    ("answer", "passed"),
    [
        (  # the missing object said of the workload whose spec names it: about the object
            "**Diagnosis:** report-renderer (0/2 ready) references a ConfigMap that doesn't "
            "exist.\n\n- Both renderer pods are in ContainerCreating; the kubelet logs FailedMount "
            "for each: `configmap \"report-renderer-config\" not found`.\n- The namespace does "
            "have `report-renderer-config-v2`; the deployment still mounts the old name.\n\n"
            "**Fix:** change the volume to `report-renderer-config-v2` (or create "
            "`report-renderer-config` again). Nothing has been modified yet.",
            True,
        ),
        (  # the sentence names another ConfigMap: the statement is about that one
            "report-renderer mounts the ConfigMap report-renderer-config-v2, which doesn't exist; "
            "report-renderer-config is there.",
            False,
        ),
    ],
)
def test_a_missing_object_said_of_what_references_it(
    suite: TaskSuite, answer: str, passed: bool
) -> None:
    assert (score(suite, "ops-missing-configmap", RENDERER, answer)[0] == 1.0) is passed
