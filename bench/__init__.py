"""Benchmarks and measures of rules-kb: timings, scale, evaluation of ask, saved runs."""
