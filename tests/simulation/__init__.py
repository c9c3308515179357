"""Tests of the batch simulator (cuckoo_rules.batch)."""
