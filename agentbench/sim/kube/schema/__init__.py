"""The task file's `environment.cluster:` section: the declared cluster's format."""
