"""Plans by end state and the order that matters, on the real suite's planning tasks: read-only
extras anywhere, several steps in one line, any spelling of the same effect."""

from agentbench.tasks.model import Step
from agentbench.tasks.validate import play


def run(*lines: str) -> dict:
    return {"calls": [{"tool": "run_command", "args": {"cmd": line}} for line in lines]}


async def score(suite, task_id: str, steps: list[dict], answer: str) -> tuple[float, str]:
    task = next(t for t in suite.tasks if t.id == task_id)
    played = await play(suite, task, [Step(**s) for s in steps] + [Step(answer=answer)])
    assert not isinstance(played, str), played
    return played.score, played.why


RESTARTED = "Restarted api, then worker, then frontend; each rollout finished before the next."


async def test_restart_and_status_in_one_line_count_as_both_steps(suite) -> None:
    steps = [
        run("kubectl get deploy -n shop"),
        *(
            run(
                f"kubectl rollout restart deploy/{d} -n shop"
                f" && kubectl rollout status deploy/{d} -n shop"
            )
            for d in ("api", "worker", "frontend")
        ),
    ]
    found, why = await score(suite, "plan-rolling-restart-in-order", steps, RESTARTED)
    assert found == 1.0, why


async def test_restarting_all_before_waiting_fails_the_verification_order(suite) -> None:
    steps = [
        run(f"kubectl rollout restart deployment/{d} -n shop")
        for d in ("api", "worker", "frontend")
    ]
    steps += [
        run(f"kubectl rollout status deployment/{d} -n shop") for d in ("api", "worker", "frontend")
    ]
    found, why = await score(suite, "plan-rolling-restart-in-order", steps, RESTARTED)
    assert found < 1.0
    assert "api's rollout finished before worker's restart: no call showed" in why
    assert "at that point" in why


async def test_delete_by_names_is_the_same_effect_as_delete_by_label(suite) -> None:
    listing = "kubectl get deploy,svc,ingress -n previews -l pr=4411"
    by_names = (
        "kubectl delete deployment/web-pr-4411 service/web-pr-4411 ingress/web-pr-4411 -n previews"
    )
    steps = [
        run(listing),
        run(by_names),
        run("kubectl get deploy,svc,ing -n previews --show-labels"),
    ]
    answer = (
        "Listed the pr=4411 Deployment, Service and Ingress (web-pr-4411), deleted them; "
        "the preview is deleted and only the other PRs' previews remain."
    )
    found, why = await score(suite, "plan-preview-cleanup-by-label", steps, answer)
    assert "evidence" not in why and "final" not in why and "side_effects" not in why, why
    # deleting more than the label selects is another end state: the other previews are gone
    steps = [run(listing), run("kubectl delete deploy,svc,ingress --all -n previews"), run(listing)]
    found, why = await score(suite, "plan-preview-cleanup-by-label", steps, answer)
    assert found == 0.0 and "side_effects" in why and "web-pr-4398" in why


async def test_patch_reaches_the_same_image_as_set_image(suite) -> None:
    patch = (
        "kubectl patch deployment api -n shop --type=json -p "
        '\'[{"op":"replace","path":"/spec/template/spec/containers/0/image",'
        '"value":"registry.internal/shop/api:v2.4.1"}]\''
    )
    steps = [run("kubectl get pods -n shop"), run(patch)]
    _found, why = await score(suite, "ops-imagepull-bad-tag", steps, "x")
    assert "final" not in why and "side_effects" not in why, why
    wrong_tag = patch.replace("v2.4.1", "v2.4.2")
    _, why = await score(suite, "ops-imagepull-bad-tag", [run(wrong_tag)], "x")
    assert "final: the deployment runs the released image: the end state lacks" in why


async def test_cordon_then_drain_with_the_verification_after_the_drain(suite) -> None:
    drain = "kubectl drain worker-4 --ignore-daemonsets --delete-emptydir-data"
    verify = "kubectl get pods -A -o wide --field-selector spec.nodeName=worker-4"
    answer = "Cordoned, drained; only DaemonSet pods remain on worker-4."
    steps = [run(verify), run("kubectl cordon worker-4"), run(drain), run(verify)]
    found, why = await score(suite, "plan-cordon-drain-node", steps, answer)
    assert "evidence" not in why and "side_effects" not in why and "final" not in why, why
    # `kubectl drain` cordons first by itself: the same effect, in the same order
    found, why = await score(suite, "plan-cordon-drain-node", [run(drain), run(verify)], answer)
    assert "side_effects" not in why, why
    # a verification made before the drain verifies nothing
    steps = [run("kubectl cordon worker-4"), run(verify), run(drain)]
    found, why = await score(suite, "plan-cordon-drain-node", steps, answer)
    assert found < 1.0 and "verified after the drain: no call showed" in why


async def test_one_loop_that_waits_on_each_restart_keeps_the_order(suite) -> None:
    loop = (
        "for d in api worker frontend; do kubectl rollout restart deployment/$d -n shop"
        " && kubectl rollout status deployment/$d -n shop; done"
    )
    found, why = await score(suite, "plan-rolling-restart-in-order", [run(loop)], RESTARTED)
    assert found == 1.0, why


async def test_one_loop_that_restarts_all_before_waiting_fails_the_order(suite) -> None:
    loop = (
        "for d in api worker frontend; do kubectl rollout restart deployment/$d -n shop; done;"
        " for d in api worker frontend; do kubectl rollout status deployment/$d -n shop; done"
    )
    found, why = await score(suite, "plan-rolling-restart-in-order", [run(loop)], RESTARTED)
    assert found < 1.0
    assert "api's rollout finished before worker's restart" in why


async def test_the_end_state_holds_the_value_asked_for_as_stored(suite) -> None:
    """'Refunded' is not the 'refunded' the other rows use: the end state is compared as the
    database stores it, letter case included."""
    primary = "psql -h orders-db-1.internal -U ops_rw -d orders -c"
    read = f'{primary} "SELECT id, status FROM orders WHERE id=88412"'
    answer = (
        "orders-db-2 is a read-only standby; I ran it on the primary and order 88412 is refunded."
    )
    for value, holds in (("refunded", True), ("Refunded", False)):
        write = f"{primary} \"UPDATE orders SET status='{value}' WHERE id=88412\""
        _, why = await score(suite, "err-readonly-replica-write", [run(write), run(read)], answer)
        assert ("final" not in why) is holds, why


async def test_a_listing_in_the_same_turn_as_the_delete_did_not_come_before_it(suite) -> None:
    """Calls of one turn are made together: a listing beside the delete cannot have informed it."""
    listing = "kubectl get deploy,svc,ingress -n previews -l pr=4411"
    delete = "kubectl delete deploy,svc,ingress -n previews -l pr=4411"
    answer = "Listed the pr=4411 Deployment, Service and Ingress (web-pr-4411), then deleted them."
    together = [run(listing, delete), run(listing)]
    _, why = await score(suite, "plan-preview-cleanup-by-label", together, answer)
    assert "listed before the delete" in why and "at that point" in why
    apart = [run(listing), run(delete), run(listing)]
    _, why = await score(suite, "plan-preview-cleanup-by-label", apart, answer)
    assert "listed before the delete" not in why, why
