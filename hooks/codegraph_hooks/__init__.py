"""Agent hooks (session-start prewarm, pre-tool-use advice). Standard library only: they run on every
tool call and must stay fast and fail open."""
