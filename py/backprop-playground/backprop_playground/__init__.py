"""Backprop Playground on the laptop: the command line, the build of the static site, its server and the
classroom. Nothing here reaches a browser; the site it builds and serves is in web/ (and, in the wheel a
teacher installs, in site/ beside this file)."""

__version__ = '0.1.0'
