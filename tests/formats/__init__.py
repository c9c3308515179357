"""Tests of the formats: the JSON codec, records, notation, the strict JSON reader, the schemas."""
