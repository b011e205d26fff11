#!/usr/bin/env python3
"""The front door: build, serve and pack Backprop Playground from this checkout, with the standard library
alone (`python build.py --help` lists the commands). The code is the package in py/backprop-playground/."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / 'py' / 'backprop-playground'))

from backprop_playground.cli import main  # noqa: E402

if __name__ == '__main__':
    main(prog='build.py')
