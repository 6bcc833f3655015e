"""Text filters and the text languages agents pipe output through (jq, awk, sed)."""
