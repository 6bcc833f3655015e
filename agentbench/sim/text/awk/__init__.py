"""awk, answering as GNU awk does: grammar, evaluator, builtins and the program."""
