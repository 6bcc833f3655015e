"""The shell: a command line parsed once into a syntax tree, expanded and run over the programs."""
