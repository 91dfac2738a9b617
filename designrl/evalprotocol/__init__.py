"""Eval Protocol remote rollouts (``RemoteRolloutProcessor``, eval-protocol 0.3.33) served
by the API's ``/ep`` router: ``wire`` (the request and reply shapes), ``rows`` (a row as
the task item and policy it runs), ``results`` (a stored rollout's status, log entry and
trace). The rollouts themselves are stored by ``designrl.store.rollouts``.
"""
