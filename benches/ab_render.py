#!/usr/bin/env python3
"""A/B of `cloudfold render` binaries on one payload, alternating run by run.

    python3 benches/ab_render.py [--realtime] PAYLOAD RUNS BIN_A BIN_B [BIN ...]

On a shared virtual machine the speed of a whole minute swings by 20-30 %, so
binaries timed one after the other in blocks compare the minutes, not the
binaries. Here each round runs every binary once (in alternating order), and
the report gives, per binary: the median wall time, the 25th percentile, the
mean of the faster half and the minimum (the quiet runs), and the median CPU
time (user + system, from wait4). For each binary after the first, it also
gives the median of the paired differences against the first (its run minus
BIN_A's run of the same round, wall and CPU): the two runs of a round share
the minute, so a difference of ~0.5 ms shows where the medians, which swing
with the minute, do not. Copy each binary aside before rebuilding.

`--realtime` runs every binary under SCHED_FIFO (as `chrt -f 1`; needs root
or CAP_SYS_NICE): the other sessions' work then waits, so the wall is that of
two free cores (on this machine the normal scheduler often gives `render`'s
two threads one core between them; benches/README.md, 2026-11-28).
"""
import os
import statistics
import sys
import time


def main() -> None:
    args = sys.argv[1:]
    realtime = args[:1] == ["--realtime"]
    if realtime:
        args = args[1:]
    if len(args) < 4:
        sys.exit(__doc__)
    payload, runs, bins = args[0], int(args[1]), args[2:]
    sched = {"scheduler": (os.SCHED_FIFO, os.sched_param(1))} if realtime else {}
    times = {b: [] for b in bins}
    devnull = os.open(os.devnull, os.O_WRONLY)
    redirect = [(os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)]
    for i in range(runs):
        for b in bins if i % 2 == 0 else bins[::-1]:
            argv = [b, "render", "--format", "cloud-init", payload]
            start = time.perf_counter()
            pid = os.posix_spawn(b, argv, os.environ, file_actions=redirect, **sched)
            _, status, usage = os.wait4(pid, 0)
            wall = (time.perf_counter() - start) * 1e3
            if status != 0:
                sys.exit(f"{b} failed on {payload} (status {status})")
            times[b].append((wall, (usage.ru_utime + usage.ru_stime) * 1e3))
    for b, runs_of_b in times.items():
        wall = sorted(w for w, _ in runs_of_b)
        cpu = statistics.median(c for _, c in runs_of_b)
        fast = wall[: max(1, len(wall) // 2)]
        print(
            f"{b}: wall median {statistics.median(wall):.2f} ms, p25 {wall[len(wall) // 4]:.2f}, "
            f"faster half {statistics.mean(fast):.2f}, min {wall[0]:.2f} | CPU median {cpu:.2f} ms"
        )
    base = times[bins[0]]
    for b in bins[1:]:
        dw = [x[0] - y[0] for x, y in zip(times[b], base)]
        dc = [x[1] - y[1] for x, y in zip(times[b], base)]
        print(
            f"{b} - {bins[0]}, paired by round: wall median {statistics.median(dw):+.2f} ms, "
            f"CPU median {statistics.median(dc):+.2f} ms"
        )


if __name__ == "__main__":
    main()
