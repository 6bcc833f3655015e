"""Filters over simulated output and declared files: output text, options, errors."""

from __future__ import annotations

from agentbench.sim.world import World
from tests.sim.conftest import sh

LOG = "/var/log/app/access.log"


def test_grep_options(host: World) -> None:
    assert sh(host, f"grep -c 502 {LOG}").stdout == "2\n"
    assert sh(host, f"grep -n 504 {LOG}").stdout == "5:10.0.0.1 GET /e 504\n"
    assert sh(host, f"grep -v GET {LOG}").stdout == "10.0.0.3 POST /d 200\n"
    assert sh(host, f"grep -E ' 50[24]$' {LOG} | wc -l").stdout == "3\n"
    assert sh(host, f"grep -i post {LOG}").stdout == "10.0.0.3 POST /d 200\n"
    assert sh(host, f"grep -o -w '/[a-z]' {LOG} | head -2").stdout == "/a\n/b\n"
    assert sh(host, f"grep -e /a -e /e {LOG} | cut -d' ' -f3").stdout == "/a\n/e\n"
    assert sh(host, f"grep 'GET /\\(a\\|b\\)' {LOG}").stdout.count("\n") == 2


def test_grep_errors_and_exit_codes(host: World) -> None:
    missing = sh(host, "grep x /nope.log")
    assert (missing.stderr, missing.exit_code) == (
        "grep: /nope.log: No such file or directory\n",
        2,
    )
    assert sh(host, f"grep zzz {LOG}").exit_code == 1
    bad = sh(host, f"grep -Z x {LOG}")
    assert bad.stderr.startswith("grep: invalid option -- 'Z'\n") and bad.exit_code == 2


def test_head_tail_wc(host: World) -> None:
    assert sh(host, f"head -n 1 {LOG}").stdout == "10.0.0.1 GET /a 200\n"
    assert sh(host, f"tail -1 {LOG}").stdout == "10.0.0.1 GET /e 504\n"
    assert sh(host, f"tail -n +5 {LOG}").stdout == "10.0.0.1 GET /e 504\n"
    assert sh(host, f"wc -l {LOG}").stdout == f"5 {LOG}\n"
    assert sh(host, f"cat {LOG} | wc -w").stdout == "20\n"
    assert sh(host, "head -n x /srv/pods.json").stderr == "head: invalid number of lines: 'x'\n"
    assert sh(host, "tail /nope").stderr == (
        "tail: cannot open '/nope' for reading: No such file or directory\n"
    )


def test_sort_uniq_cut_awk(host: World) -> None:
    counted = sh(host, f"awk '{{print $1}}' {LOG} | sort | uniq -c | sort -rn | head -1")
    assert counted.stdout == "      3 10.0.0.1\n"
    assert sh(host, f"cut -d' ' -f4 {LOG} | sort -u").stdout == "200\n502\n504\n"
    assert sh(host, f"awk '$4 >= 500 {{n++}} END {{print n}}' {LOG}").stdout == "3\n"
    assert sh(host, f"awk '/POST/ {{print $3, NR}}' {LOG}").stdout == "/d 4\n"
    assert sh(host, f"awk -F' ' '{{s += $4}} END {{print s}}' {LOG}").stdout == "1908\n"
    assert sh(host, "printf '3\\n10\\n2\\n' | sort -n").stdout == "2\n3\n10\n"
    assert sh(host, "printf '1K\\n2M\\n512\\n' | sort -h").stdout == "512\n1K\n2M\n"
    assert sh(host, "printf 'b,2\\na,1\\n' | sort -t, -k2 -n").stdout == "a,1\nb,2\n"


def test_awk_syntax_error_is_awk_s(host: World) -> None:
    result = sh(host, f"awk '{{print $1' {LOG}")
    assert result.exit_code == 2 and result.stderr.startswith("awk: line 1: syntax error")


def test_jq_common_subset(host: World) -> None:
    names = sh(host, "jq -r '.items[].metadata.name' /srv/pods.json")
    assert names.stdout == "web-1\nweb-2\n"
    failed = "jq -r '.items[] | select(.status.phase != \"Running\") | .metadata.name'"
    assert sh(host, f"cat /srv/pods.json | {failed}").stdout == "web-2\n"
    assert sh(host, "jq '.items | length' /srv/pods.json").stdout == "2\n"
    assert sh(host, "jq -c '.items[0] | keys' /srv/pods.json").stdout == '["metadata","status"]\n'
    assert sh(host, "jq '.items[0].metadata' /srv/pods.json").stdout == (
        '{\n  "name": "web-1"\n}\n'
    )
    error = sh(host, "jq '.items.name' /srv/pods.json")
    assert error.exit_code == 5 and 'Cannot index array with "name"' in error.stderr
    assert sh(host, "jq '.[' /srv/pods.json").exit_code == 3


def test_tr_and_sed(host: World) -> None:
    assert sh(host, "echo Hello | tr a-z A-Z").stdout == "HELLO\n"
    assert sh(host, "echo 'a  b' | tr -s ' '").stdout == "a b\n"
    assert sh(host, f"sed -n 2p {LOG}").stdout == "10.0.0.2 GET /b 502\n"
    assert sh(host, f"sed -n '/POST/p' {LOG}").stdout == "10.0.0.3 POST /d 200\n"
    assert sh(host, "echo a-b-c | sed 's/-/+/g'").stdout == "a+b+c\n"
    assert sh(host, "echo abc | sed -E 's/(b)/[\\1]/'").stdout == "a[b]c\n"


def test_a_filter_on_stdin_is_presentation_and_on_a_file_a_read(host: World) -> None:
    assert sh(host, f"cat {LOG} | grep 502").identity == ("file", "read", LOG)
    assert sh(host, f"grep 502 {LOG}").identity == ("file", "read", LOG)
    assert sh(host, f"tail -n 2 {LOG}").identity == sh(host, f"cat {LOG}").identity


def test_jq_string_interpolation(host: World) -> None:
    cmd = "jq -r '.items[] | \"\\(.metadata.name)=\\(.status.phase)\"' /srv/pods.json"
    assert sh(host, cmd).stdout == "web-1=Running\nweb-2=Failed\n"


def test_odd_arguments_get_the_tools_errors_not_a_crash(host: World) -> None:
    assert sh(host, "wc /nope").stderr == "wc: /nope: No such file or directory\n"
    assert sh(host, "du -d x /var").stderr == "du: invalid maximum depth 'x'\n"
    assert sh(host, "printf %").stdout == "%"


def test_grep_max_count_stops_after_n_selected_lines(host: World) -> None:
    log = "/var/log/app/access.log"
    assert sh(host, f"grep -m1 502 {log}").stdout == "10.0.0.2 GET /b 502\n"
    assert sh(host, f"grep --max-count=2 -c 10.0.0.1 {log}").stdout == "2\n"
    assert sh(host, f"grep -m 1 -v 10.0.0.1 {log}").stdout == "10.0.0.2 GET /b 502\n"
