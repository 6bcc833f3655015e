"""What the answer quotes, held against what the tools printed."""

from agentbench.scoring.quotes import misquote_problems, unrun_program_quote_problems

OPENSSL = "notBefore=Aug 30 00:00:00 2026 GMT\nnotAfter=Nov 28 23:59:59 2026 GMT\n"
CURL = "curl: (60) SSL certificate problem: certificate has expired\n"


def test_a_line_quoted_with_a_word_changed_is_a_misquote() -> None:
    log = "FATAL:  too many connections for role \"app\"\n"
    assert misquote_problems('The log says "too many sessions for role app".', [log])
    assert misquote_problems('The log says "too many connections for role app".', [log]) == []


def test_a_program_s_message_needs_a_run_of_that_program() -> None:
    answer = "Reproduced: `curl: (60) SSL certificate problem: certificate has expired`."
    openssl = ["openssl s_client -connect billing.internal:443 | openssl x509 -noout -dates"]
    problems = unrun_program_quote_problems(answer, [OPENSSL], openssl)
    assert problems and "curl" in problems[0]
    # the program ran, or an output printed the message: a quote of what was seen
    assert unrun_program_quote_problems(answer, [CURL], ["curl -sS https://billing.internal"]) == []
    assert unrun_program_quote_problems(answer, [OPENSSL, CURL], openssl) == []
    # its messages printed into a log that was read: quoted with an ellipsis, still what was seen
    log = "pg_dump: error: connection to server failed: FATAL:  password authentication failed\n"
    quoted = "The log says `pg_dump: error: connection ... FATAL: password authentication failed`."
    assert unrun_program_quote_problems(quoted, [log], ["sudo cat /var/log/backup.log"]) == []


def test_quotes_that_are_no_program_message_are_left_alone() -> None:
    answer = 'Set `ssl_certificate: /etc/ssl/new.pem` and reload; "notAfter: Nov 28" is past.'
    assert unrun_program_quote_problems(answer, [OPENSSL], ["openssl x509 -dates"]) == []
    # a label of the answer's own, or an exception's name, is no program
    labelled = 'From the table "row: customer 6002, 349.90 EUR, status failed" and '
    labelled += '`circuit_breaking_exception: Data too large` in the log.'
    assert unrun_program_quote_problems(labelled, [OPENSSL], ["openssl x509 -dates"]) == []
    # a message's level or library is no program: "error: unknown flag: --lines"
    reworded = "kubectl said `error: unknown flag --lines (use --tail)`."
    assert unrun_program_quote_problems(reworded, ["error: unknown flag: --lines"], []) == []
