"""Deplodock's fuzzer: mutated IR, protocol frames, flags and files fed to the
tools, every run classified as clean, diagnosed, crashed, hung or wrong.

See fuzz/README.md for how to run it and fuzz/FINDINGS.md for what it found.
"""
