"""Print the requirements of designrl and the extras named (``services,render``), one a line,
from pyproject.toml alone: the image installs them in a layer of its own, before the code is
copied, so that a change to the code rebuilds only the last, cheap layer."""

import sys
import tomllib

project = tomllib.load(open("pyproject.toml", "rb"))["project"]
extras = [name for arg in sys.argv[1:] for name in arg.split(",") if name]
unknown = sorted(set(extras) - set(project["optional-dependencies"]))
if unknown:
    sys.exit(f"unknown extras {unknown}; valid: {sorted(project['optional-dependencies'])}")
print("\n".join(project["dependencies"]
                + [req for name in extras for req in project["optional-dependencies"][name]]))
