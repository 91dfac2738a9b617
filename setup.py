"""The optional C extension (the layout metrics hot path); all metadata is in pyproject.toml.

``optional=True``: without a working C compiler the install still succeeds and
``designrl.tasks.layout.metrics`` uses its pure-Python path (same results, slower).
The flags keep float arithmetic exactly as written (no fast-math, no FMA contraction),
which the extension's bit-for-bit agreement with the Python path depends on.
"""

import sys

from setuptools import Extension, setup

POSIX = sys.platform != "win32"
FLAGS = ["-O2", "-fno-fast-math", "-ffp-contract=off"] if POSIX else []

setup(
    ext_modules=[
        Extension(
            "designrl.tasks.layout._cmetrics",
            sources=["designrl/tasks/layout/_cmetrics.c"],
            extra_compile_args=FLAGS,
            libraries=["m"] if POSIX else [],
            optional=True,
        )
    ]
)
