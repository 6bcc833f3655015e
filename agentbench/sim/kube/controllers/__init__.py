"""What Kubernetes' controllers do, done instantly, and the build of a live cluster from a
declared one."""
