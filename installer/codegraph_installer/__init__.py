"""Wires codegraph into coding agents: per-agent config plans, atomic apply, doctor."""
