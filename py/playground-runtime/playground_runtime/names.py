"""The file names that compiled code carries, so that tracebacks, checks and the after-run check can tell
whose code a frame runs: the learner's program, an exercise's checks, or an nbgrader test cell."""

EDITOR = '<editor>'
CHECKS = '<checks>'
TEST = '<test>'
RUN_FILES = frozenset({EDITOR, CHECKS})  # what a run compiles: isolation.py leaves their frames be
