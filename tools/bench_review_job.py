"""The match review in its background job, as the game runs it, with the table animating.

    python tools/bench_review_job.py [--seeds 1 2] [--frames 1500] [--preset nintendo]

For each seed: a 12-round match (Medium against Easy, ``bench_review.play``) is reviewed
for seat 0 by a ``ReviewJob`` (a spawned, lowered-priority process; no cache) while the
round table of ``bench_ui`` draws ``--frames`` animated frames, polling the job each frame
as the review panel does. Prints the frame median and p99 with the job running, the same
without a job (measured first), and the job's wall time and CPU time (user + system of the
reaped child). Nothing here is a test: the figures depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import re
import resource
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import bench_ui  # noqa: E402
from bench_review import play  # noqa: E402

from koikoi.engine import events_to_json  # noqa: E402
from koikoi.review import ReviewJob  # noqa: E402
from koikoi.ui.app import App  # noqa: E402


def frames(n: int, job=None) -> tuple:
    """(median ms, p99 ms) of ``bench_ui``'s animated table over ``n`` frames, polling
    ``job`` in every frame's update."""
    real = App.update

    def update(self, dt):
        if job is not None:
            job.poll()
        return real(self, dt)

    App.update = update
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            bench_ui.main(["--frames", str(n)])
    finally:
        App.update = real
    m = re.search(r"median ([\d.]+) ms, p99 ([\d.]+) ms", out.getvalue())
    return float(m.group(1)), float(m.group(2))


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, nargs="+", default=[1])
    ap.add_argument("--frames", type=int, default=1500)
    ap.add_argument("--preset", default="nintendo")
    a = ap.parse_args(argv)
    med, p99 = frames(a.frames)
    print(f"no job: frame median {med:.2f} ms, p99 {p99:.2f} ms")
    for seed in a.seeds:
        s = play(seed, a.preset, 12)
        with tempfile.TemporaryDirectory() as folder:
            job = ReviewJob(events_to_json(s.events), (0,), match_id=f"bench{seed}", cache_dir=Path(folder))
            cpu0 = children_cpu()
            t0 = time.perf_counter()
            job.start()
            med, p99 = frames(a.frames, job)
            running = not job.done
            while not job.done:
                job.poll()
                time.sleep(0.016)
            wall = time.perf_counter() - t0
            if job._exiting is not None:        # the thread that reaps the finished process
                job._exiting.join(10)
            cpu = children_cpu() - cpu0
        if job.error:
            print(f"seed {seed}: {job.error}")
            return 1
        n = sum(len(r.decisions) for r in job.result.rounds)
        print(f"seed {seed}: {n} decisions; job wall {wall:.1f} s, cpu {cpu:.1f} s; frames while "
              f"it ran{'' if running else ' (it ended first)'}: median {med:.2f} ms, p99 {p99:.2f} ms",
              flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
