"""The live cluster's objects: the store, resource types, and declared objects shaped as the
API server returns them."""
