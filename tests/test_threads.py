"""Long C++ calls release the GIL and are safe to run from several threads."""

import threading
import time

import numpy as np

from budgetsvm import _core, kernel_matrix


def _largest_pause_of_main_thread(call):
    """Run call() in a thread; return (largest gap between two iterations of a
    busy loop in this thread while it ran, duration of the call)."""
    done = threading.Event()
    span = {}

    def work():
        start = time.perf_counter()
        call()
        span["seconds"] = time.perf_counter() - start
        done.set()

    thread = threading.Thread(target=work)
    last = time.perf_counter()
    largest = 0.0
    thread.start()
    while not done.is_set():
        now = time.perf_counter()
        largest = max(largest, now - last)
        last = now
    thread.join()
    return largest, span["seconds"]


def test_kernel_matrix_releases_the_gil():
    X = np.random.default_rng(0).normal(size=(1500, 300))
    pause, seconds = _largest_pause_of_main_thread(lambda: kernel_matrix(X, kernel="rbf", gamma=0.01))
    # Holding the GIL would stall this thread for the whole C++ call.
    assert pause < 0.5 * seconds, (pause, seconds)


def test_decision_function_releases_the_gil():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(20_000, 50))
    SV = rng.normal(size=(300, 50))
    coef = rng.normal(size=(300, 1))
    pause, seconds = _largest_pause_of_main_thread(
        lambda: _core.decision_function(X, SV, coef, "rbf", 0.1, 3, 0.0, 1)
    )
    assert pause < 0.5 * seconds, (pause, seconds)


def test_concurrent_calls_give_the_same_results():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(400, 30))
    expected = kernel_matrix(X, gamma=0.05)
    results = [None] * 4

    def work(k):
        results[k] = kernel_matrix(X, gamma=0.05)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for result in results:
        np.testing.assert_array_equal(result, expected)
