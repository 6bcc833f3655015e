"""GNU sed: the script grammar and the program that runs it."""
