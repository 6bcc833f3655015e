"""Quantities normalised: sizes, durations with their unit checked, moments, numbers in any
common format and spelled-out counts."""

import pytest

from agentbench.scoring.quantities import (
    moment_span,
    parse_moment,
    parse_number,
    quantities,
    quantity_span,
)


def test_sizes_in_every_spelling_are_one_size() -> None:
    for text in ("64Mi", "64 MiB", "67,108,864 bytes", "0.0625 GiB", "65536 KiB"):
        assert quantity_span(text, 64, "Mi") is not None, text
    assert quantity_span("64 KB", 64, "Mi") is None
    assert quantity_span("64 GB", 64, "Mi") is None


def test_durations_keep_their_unit() -> None:
    assert quantity_span("129,600 seconds", 36, "h") is not None
    assert quantity_span("1.5 days", 36, "h") is not None
    assert quantity_span("36 minutes", 36, "h") is None
    assert quantity_span("it waits 3004 ms", 3, "s", tolerance=0.01) is not None
    assert quantity_span("30 ms", 30, "s") is None


def test_numbers_in_common_formats() -> None:
    assert parse_number("48,213.40") == 48213.4
    assert parse_number("48.213,40") == 48213.4
    assert parse_number("1,187") == 1187
    assert parse_number("0.750") == 0.75
    assert quantity_span("48.213,40 EUR", 48213.4, "EUR", 0.005) is not None
    assert quantity_span("€48,213.40", 48213.4, "EUR", 0.005) is not None
    assert quantity_span("The answer is three.", 3, None) is not None
    assert quantity_span("a dozen rows", 12, None) is not None


def test_identifiers_versions_and_dates_are_not_figures() -> None:
    assert quantities("replica-3 on 10.0.6.21:6379 runs v1.2 and 2.14.0") == []
    assert quantity_span("deployed on Nov 3", 3, None) is None


def test_moments_in_iso_syslog_prose_and_epoch() -> None:
    when = parse_moment("2026-11-25T09:41:03Z")
    for text in (
        "finished 2026-11-25T09:41:03Z",
        "at 2026-11-25 09:41 UTC",
        "Nov 25 09:41:03",
        "on 25 November 2026 at 09:41:03 UTC",
        "on November 25th, 2026, 09:41",
        "epoch 1795599663",
    ):
        assert moment_span(text, when) is not None, text
    assert moment_span("2026-11-25 10:41", when) is None
    assert moment_span("14/Mar/2026:11:07:49 +0000", parse_moment("2026-03-14T11:07:49Z"))
    assert moment_span("it expired on Nov 28", parse_moment("2026-11-28"), "day") is not None


def test_a_clock_time_is_read_in_the_zone_written_after_it() -> None:
    from agentbench.scoring.quantities import moment_span, parse_moment

    when = parse_moment("2026-07-04T16:20:00Z")
    for same in (
        "4 Jul 2026 18:20 CEST",
        "2026-07-04 12:20 EDT",
        "Jul 4 17:20 (UTC+1)",
        "2026-07-04T21:50:00+05:30",
        "2026-07-04 16:20 UTC",
    ):
        assert moment_span(same, when) is not None, same
    for other in ("4 Jul 2026 16:20 CEST", "2026-07-04 16:20 PDT", "Jul 4 16:20 +01:00"):
        assert moment_span(other, when) is None, other


def test_compound_durations_are_one_duration() -> None:
    for text, seconds in (
        ("run lasted 11m35s", 695),
        ("after 11 hours 35 minutes", 41_700),
        ("1h2m3s", 3_723),
        ("3 min 20 s", 200),
        ("duration=2m10s", 130),
    ):
        found = [q for q in quantities(text) if q.dimension == "seconds"]
        assert len(found) == 1 and found[0].value == seconds, text
    assert quantity_span("it ran for 2m10s", 130, "s") is not None
    assert [q.dimension for q in quantities("5 m of cable, 5m35s")] == ["seconds", "bytes"]


def test_currency_before_the_amount() -> None:
    assert [(q.raw, q.dimension) for q in quantities("The EUR 21,436 payment")] == [
        (21436.0, "eur")
    ]


def test_a_unit_in_brackets_after_a_bare_number_is_its_unit() -> None:
    (found,) = quantities("set it to 691200 (milliseconds)")
    assert found.unit == "milliseconds" and found.value == 691.2
    assert quantities("see step 3 (below)")[0].unit is None


def test_postgres_hour_offsets_are_zones() -> None:
    from agentbench.scoring.zones import zone_offset

    assert zone_offset("+00").total_seconds() == 0  # type: ignore[union-attr]
    assert zone_offset("+05:30").total_seconds() == 5.5 * 3600  # type: ignore[union-attr]
    assert zone_offset("+0012x") is None


def test_a_range_after_a_utc_time_is_no_zone() -> None:
    """ "14:02:11Z-14:19:40Z" and "18:00Z-2026-11-30T10:00Z" are ranges: the hyphen after the
    Z is no offset of UTC-14:19 or UTC-20:26 (an offset is within 14 hours, in quarter hours)."""
    from agentbench.scoring.zones import zone_offset, zones_named

    assert zone_offset("Z-14:19:40Z").total_seconds() == 0  # type: ignore[union-attr]
    assert zone_offset("Z-2026-11-30T10:00Z").total_seconds() == 0  # type: ignore[union-attr]
    assert zone_offset(" UTC-5").total_seconds() == -5 * 3600  # type: ignore[union-attr]
    assert zone_offset(" UTC+5:30").total_seconds() == 5.5 * 3600  # type: ignore[union-attr]
    assert zone_offset("-2026") is None
    assert zones_named("from 09:00 UTC-2026 on") == set()
    assert zones_named("09:00 UTC-5") == {-5}


def test_a_clock_time_written_before_its_date_is_one_moment() -> None:
    from agentbench.scoring.quantities import moments

    (found, _, _), = moments("completed at 11:48:49 UTC on 2026-12-01.")
    assert (found.month, found.day, found.hour, found.second) == (12, 1, 11, 49)
    (found, _, _), = moments("until 18:00 on Dec 7")
    assert (found.day, found.hour) == (7, 18)
    # a log line's clock does not take the next line's date
    assert all(m.hour is None for m, _, _ in moments("ok 21:16:51\n2026-11-07 x"))


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("6 d 23 h 50 m", 604200.0), ("14 days 3 hours", 1220400.0), ("2d3h", 183600.0)],
)
def test_a_duration_from_days_down_is_one_figure(text: str, seconds: float) -> None:
    (q,) = quantities(text)
    assert q.dimension == "seconds" and q.value == seconds


@pytest.mark.parametrize(
    ("text", "unit"),
    [
        ("Three consecutive 404s and the kubelet restarts it.", None),
        ("it returned 503s for an hour", None),
        ("a timeout of 300s", "s"),
        ("it waited 400s before giving up", "s"),  # no count before it: a duration
    ],
)
def test_status_codes_in_the_plural_are_no_durations(text: str, unit: str | None) -> None:
    (first, *_) = quantities(text) if unit else [q for q in quantities(text) if q.raw > 100]
    assert first.unit == unit
