"""An answer table whose cells hold another column's value of the same printed row."""

from agentbench.scoring.columns import swapped_column_problems

PRINTED = """\
  sku   | qty_on_hand | reorder_point
--------+-------------+---------------
 A-1009 |           4 |            20
 B-2207 |          11 |            12
 C-3310 |           0 |             5
(3 rows)
"""


def table(*rows: str, header: str = "| SKU | On hand | Reorder point |") -> str:
    return "\n".join(["Below their reorder point:", "", header, "|---|---:|---:|", *rows])


def test_two_cells_of_one_row_swapped_fail() -> None:
    answer = table("| A-1009 | 4 | 20 |", "| B-2207 | 12 | 11 |", "| C-3310 | 0 | 5 |")
    problems = swapped_column_problems(answer, [PRINTED])
    assert problems and "'12' under 'On hand'" in problems[0]


def test_the_printed_values_under_other_headers_pass() -> None:
    right = table("| A-1009 | 4 | 20 |", "| B-2207 | 11 | 12 |", "| **C-3310** | 0 | 5 |")
    assert swapped_column_problems(right, [PRINTED]) == []
    # columns in another order, named otherwise: each is matched by its words
    reordered = table(
        "| B-2207 | 12 | 11 |", "| A-1009 | 20 | 4 |", header="| SKU | ROP | Qty on hand |"
    )
    assert swapped_column_problems(reordered, [PRINTED]) == []


def test_derived_and_unmatched_columns_are_left_alone() -> None:
    # "Short by" matches no printed header; "Reorder point (units)" drops its unit
    answer = table(
        "| B-2207 | 11 | 1 |", "| A-1009 | 4 | 16 |", header="| SKU | On hand | Short by |"
    )
    assert swapped_column_problems(answer, [PRINTED]) == []
    units = table("| B-2207 | 12 | 11 |", header="| SKU | Reorder point (units) | On hand |")
    assert swapped_column_problems(units, [PRINTED]) == []


def test_a_header_that_fits_two_printed_columns_matches_neither() -> None:
    printed = "name | cpu_request | cpu_limit\n---+---+---\napi | 250 | 500\nweb | 100 | 200\n"
    answer = "| Pod | CPU | CPU limit |\n|---|---|---|\n| api | 500 | 500 |"
    # "CPU" fits both printed columns: unmatched; "CPU limit" is right
    assert swapped_column_problems(answer, [printed]) == []
    swapped = "| Pod | CPU request | CPU limit |\n|---|---|---|\n| api | 500 | 250 |"
    assert swapped_column_problems(swapped, [printed])


def test_rounding_at_the_cells_precision_is_the_printed_value() -> None:
    printed = "host | load | cpu_pct\n---+---+---\nweb-1 | 12.0 | 91.67\nweb-2 | 3.5 | 20.0\n"
    answer = "| Host | Load | CPU pct |\n|---|---|---|\n| web-1 | 12 | 91.7 |"
    assert swapped_column_problems(answer, [printed]) == []
