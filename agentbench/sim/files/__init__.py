"""File programs over the virtual filesystem: ls find stat du zcat, and the writes."""
