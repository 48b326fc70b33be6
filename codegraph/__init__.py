"""codegraph: a local code knowledge graph for coding agents.

Kept import-light on purpose: the MCP handshake imports this package and must answer in milliseconds.
"""

__version__ = "0.1.0"
