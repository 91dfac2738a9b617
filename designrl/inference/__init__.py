"""Backends that turn chat conversations into completions, behind one interface.

``Backend.complete(conversations, n=, temperature=, max_tokens=, seed=)`` returns,
per conversation, ``n`` ``Completion``s with the text and, for training, the
completion's token ids and the behaviour policy's log-probability of each.
``TransformersBackend`` runs a model in process (the embedded default).
"""

from designrl.inference.types import Backend, Completion

__all__ = ["Backend", "Completion"]
