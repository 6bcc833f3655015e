"""jq, answering as jq 1.7 does: lexer, grammar, values, builtins and the program."""
