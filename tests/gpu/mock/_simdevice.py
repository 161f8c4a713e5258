# tests/gpu/mock/_simdevice.py: owns the simulated device clock that the cupy and torch stand-ins
# share: work is queued behind what the device already has (enqueue) and a synchronize sleeps
# until the queue is empty (wait). One device for the whole process, as on the real machine.
import time

_busy_until = [0.0]          # when the last queued work ends, on time.perf_counter's clock


def enqueue(seconds):
    start = max(time.perf_counter(), _busy_until[0])
    _busy_until[0] = start + seconds


def wait():
    delay = _busy_until[0] - time.perf_counter()
    if delay > 0:
        time.sleep(delay)
