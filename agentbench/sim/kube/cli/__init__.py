"""kubectl's command line: flags, resource arguments, selectors, manifests and a call's identity."""
