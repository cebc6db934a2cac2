# jd_patch: what makes a candidate's module live in the world: its Queue,
# Thread, locks, conditions and sleeps replaced by the world's (jd_world,
# jd_queue), before the module is run and in its globals after.
import queue
import threading
import time

from jd_queue import JQueue
from jd_world import (JCondition, JLock, JRLock, JThread, OrigCondition, OrigLock, OrigQueue,
                      OrigRLock, OrigSimpleQueue, OrigThread, _sleep, orig_sleep)


def patch_modules():
    """Every Queue and Thread made from now on is the world's; locks,
    conditions (events, barriers, semaphores) and sleeps say they wait."""
    queue.Queue = JQueue
    if OrigSimpleQueue is not None:
        queue.SimpleQueue = JQueue
    threading.Thread = JThread
    threading.Condition = JCondition
    threading.Lock = JLock
    threading.RLock = JRLock
    time.sleep = _sleep


def patch_module_globals(mod):
    """A module that took the originals by name before the patch gets ours."""
    for k, v in list(vars(mod).items()):
        if v is OrigQueue or (OrigSimpleQueue is not None and v is OrigSimpleQueue):
            setattr(mod, k, JQueue)
        elif v is OrigThread:
            setattr(mod, k, JThread)
        elif v is OrigCondition:
            setattr(mod, k, JCondition)
        elif v is OrigLock:
            setattr(mod, k, JLock)
        elif v is OrigRLock:
            setattr(mod, k, JRLock)
        elif v is orig_sleep:
            setattr(mod, k, _sleep)
