"""``designrl stack up``: the services as local processes, for machines without Docker.

``launcher.LocalStack`` starts them from a ``StackConfig`` that names every path they need;
``command`` is the ``designrl stack`` subcommand, which the ``designrl`` command finds
through the ``designrl.commands`` entry point group (``pyproject.toml``), so the library
never names a service.
"""

from services.stack.launcher import LocalStack, StackConfig
from services.stack.preflight import StackError, free_port

__all__ = ["LocalStack", "StackConfig", "StackError", "free_port"]
