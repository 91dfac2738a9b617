"""The Celery application the workers run and the API enqueues to.

Late acknowledgement with rejection on worker loss: a task whose worker dies
mid-episode goes back to the queue (at once when the pool child is killed; when
the whole worker is, a live worker's sweep restores it ``visibility_timeout_s``
after it was taken), and the episode's idempotent write makes a second run harmless.
A lost broker connection leaves the episode in hand running (its result goes to the
store; its message, if it cannot be acknowledged, comes back once and is skipped) while
the worker reconnects, every connection attempt bounded by ``redis_timeout_s``. One task
at a time per process; a process that runs render-scored episodes keeps one Chromium
pool, closed when the process ends.
"""

from __future__ import annotations

import logging

from celery import Celery
from celery.signals import worker_init, worker_process_shutdown

from designrl.render.modes import isolation_modes
from designrl.rollout.browser import close_process_runner
from designrl.tasks.layout.metrics import use_native
from services.renderer import metrics
from services.renderer.settings import RendererSettings

RUN_EPISODE = "designrl.run_episode"
log = logging.getLogger(__name__)


def make_celery(settings: RendererSettings) -> Celery:
    app = Celery("designrl", broker=settings.redis_url)
    app.conf.update(
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        task_ignore_result=True,
        task_default_queue=settings.queue,
        task_serializer="json",
        accept_content=["json"],
        broker_connection_retry_on_startup=True,
        # Celery 6's default cancels it, to be run again from the start
        worker_cancel_long_running_tasks_on_connection_loss=False,
        broker_transport_options={"visibility_timeout": settings.visibility_timeout_s,
                                  "unacked_restore_interval": settings.restore_interval_s,
                                  "unacked_restore_throttle": 1,
                                  "socket_connect_timeout": settings.redis_timeout_s,
                                  "socket_timeout": settings.redis_timeout_s},
        worker_hijack_root_logger=False,
        task_soft_time_limit=settings.episode_time_limit_s,
        task_time_limit=settings.episode_time_limit_s + 30,
    )
    return app


settings = RendererSettings()
if settings.pure_python:  # the layout scorer without its C extension, as configured
    use_native(False)
app = make_celery(settings)
app.autodiscover_tasks(["services.renderer"], related_name="tasks", force=True)


@worker_init.connect
def _start(**_) -> None:
    if settings.metrics_port:
        metrics.serve(settings.metrics_port)
    # At WARNING, so it shows at the level the stack runs workers with.
    log.warning("render sandbox: %s", ", ".join(
        f"{name} {mode}" for name, mode in isolation_modes().items()))


@worker_process_shutdown.connect
def _forget_process(pid=None, **_) -> None:
    """A pool child ends: close its browser pool (if it started one), drop its metrics."""
    close_process_runner()
    if pid:
        metrics.process_exited(pid)

