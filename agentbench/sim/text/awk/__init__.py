"""awk, answering as GNU awk does: grammar, values, evaluator, builtins and the program."""
