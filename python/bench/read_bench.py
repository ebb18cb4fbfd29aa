"""Reading from Python: assbin.read of a big dump against reading its bytes into Python
(open().read(), the floor), one and two threads, and pyassimp (Debian's python3-pyassimp, the only
other Python reader of ASSBIN) where it is installed and does not crash: it runs in a child process,
so a segfault is reported, not fatal. Best of N runs; run by scripts/bench-python.sh.

    python3 read_bench.py DUMP [--runs N]
"""

import mmap
import os
import resource
import statistics
import subprocess
import sys
import threading
import time

import assbin


def best_seconds(run, runs):
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def read_bytes(path):
    with open(path, "rb") as file:
        return file.read()


def pyassimp_line(path):
    probe = subprocess.run([sys.executable, "-c", "import pyassimp"], capture_output=True)
    if probe.returncode != 0:
        return "not installed, not measured"
    code = ("import sys, time, pyassimp\nstart = time.perf_counter()\n"
            "with pyassimp.load(sys.argv[1]) as scene:\n    meshes = len(scene.meshes)\n"
            "print(time.perf_counter() - start, meshes)")
    try:
        run = subprocess.run([sys.executable, "-c", code, path], capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        return "no result in 300 s"
    if run.returncode != 0:
        return f"failed (exit {run.returncode}{', a crash' if run.returncode < 0 else ''})"
    seconds, meshes = run.stdout.split()
    return f"{float(seconds) * 1000:.1f} ms ({meshes} meshes)"


def read_mapped(path):
    """assbin.read of the file mapped (mmap): the scene's arrays are views of the page cache's pages,
    nothing copied. The caller owns the mapping's lifetime (a file cut while mapped raises SIGBUS),
    so it is the caller's choice, not assbin.read(path)'s."""
    with open(path, "rb") as file:
        mapping = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
    return assbin.read(mapping)


def machine_line(path, runs):
    """What makes one machine's ratios differ from another's: its transparent huge pages setting, how
    fast it copies the dump's bytes in memory, and how fast it faults in a fresh block of their size."""
    import numpy as np
    try:
        with open("/sys/kernel/mm/transparent_hugepage/enabled") as setting:
            huge_pages = setting.read().split("[")[1].split("]")[0]
    except (OSError, IndexError):
        huge_pages = "unknown"
    data = np.frombuffer(read_bytes(path), np.uint8)
    copy = best_seconds(lambda: data.copy(), runs)

    def fault_in():  # fresh pages from the kernel (an anonymous mapping), one byte written per page
        block = mmap.mmap(-1, data.size)
        np.frombuffer(block, np.uint8)[::mmap.PAGESIZE] = 1
        del block

    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    fresh = best_seconds(fault_in, runs)
    fresh_faults = (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults) / runs
    size_mb = data.size / 1e6
    return (f"| this machine: transparent huge pages `{huge_pages}`; the bytes copied in memory; a fresh block"
            f" of their size faulted in ({fresh_faults:,.0f} faults) | {copy * 1000:.1f} ms; {fresh * 1000:.1f} ms |"
            f" {size_mb / copy:.0f}; {size_mb / fresh:.0f} | | |")


def loop_of(run, runs):
    """A pipeline's loop: `runs` calls one after the other. Returns the first call's seconds and the
    median of the others (what each further dump of a long run costs), and page faults per call."""
    seconds = []
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(runs):
        start = time.perf_counter()
        run()
        seconds.append(time.perf_counter() - start)
    per_call = (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults) / runs
    return seconds[0], statistics.median(seconds[1:]), per_call


def resident_mb():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def memory_given_back():
    """What the process keeps after freeing 800 MB of unrelated NumPy arrays (100 of 8 MB), as a
    pipeline worker does between tasks: the module must leave glibc's behaviour alone."""
    import numpy as np
    baseline = resident_mb()
    arrays = [np.ones(1 << 20) for _ in range(100)]
    held = resident_mb()
    del arrays
    return baseline, held, resident_mb()


def main(argv):
    path = argv[1]
    runs = int(argv[argv.index("--runs") + 1]) if "--runs" in argv else 5
    loop_runs = max(runs, 10)
    size_mb = os.path.getsize(path) / 1e6
    # The reads first, in this fresh process, with nothing allocated before them (a 31 MB bytes
    # object read first would change what glibc does with the scene's memory): a loop of reads, as a
    # pipeline reading dump after dump does, then the same loop of byte reads.
    first, loop, loop_faults = loop_of(lambda: assbin.read(path), loop_runs)
    floor_first, floor_loop, floor_faults = loop_of(lambda: read_bytes(path), loop_runs)
    mapped_first, mapped_loop, mapped_faults = loop_of(lambda: read_mapped(path), loop_runs)
    floor = best_seconds(lambda: read_bytes(path), runs)
    default = best_seconds(lambda: assbin.read(path), runs)
    one = best_seconds(lambda: assbin.read(path, threads=1), runs)

    def two_threads():
        threads = [threading.Thread(target=assbin.read, args=(path,), kwargs={"threads": 1}) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

    def one_after_the_other():  # each scene dropped at once, as the threads drop theirs
        assbin.read(path, threads=1)
        assbin.read(path, threads=1)

    # The same for the floor: two byte reads (the GIL released in the kernel's copy) show how far
    # this machine lets two threads that stream memory scale at all.
    def two_byte_reads():
        threads = [threading.Thread(target=read_bytes, args=(path,)) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

    def byte_reads_one_after_the_other():
        read_bytes(path)
        read_bytes(path)

    # Round by round, the two ways in turn, so that both meet the machine in the same state: on a
    # shared VM a read's time wanders by half from one moment to the next, and the best of each way
    # taken apart can come from different moments. The verdict is on the rounds' median ratio.
    one_after_the_other()  # not counted: the second thread's first read faults in its own memory
    two_threads()
    two = both_in_one = float("inf")
    ratios, floor_ratios = [], []
    for _ in range(max(runs, 7)):
        one_round = best_seconds(one_after_the_other, 1)
        two_round = best_seconds(two_threads, 1)
        both_in_one, two = min(both_in_one, one_round), min(two, two_round)
        ratios.append(one_round / two_round)
        floor_ratios.append(best_seconds(byte_reads_one_after_the_other, 1) / best_seconds(two_byte_reads, 1))
    ratio, floor_ratio = statistics.median(ratios), statistics.median(floor_ratios)
    baseline, held, after = memory_given_back()
    # A Markdown table, as docs/benchmarks.md holds it (scripts/bench-python.sh heads it).
    print(f"`assbin.read` of {os.path.basename(path)} ({size_mb:.1f} MB), best of {runs} runs in one process.\n")
    print("| read | time | MB/s | ratio | target |")
    print("|---|---|---|---|---|")
    print(f"| a loop of {loop_runs} `assbin.read`, first in a fresh process (median; the first read"
          f" {first * 1000:.1f} ms) | {loop * 1000:.1f} ms per read, {loop_faults:,.0f} page faults |"
          f" {size_mb / loop:.0f} | {loop / floor_loop:.2f}x the loop of byte reads ({floor_loop * 1000:.1f} ms,"
          f" the first {floor_first * 1000:.1f} ms; {floor_faults:,.0f} faults per read) |"
          f" <= 3x: {'yes' if loop / floor_loop <= 3 else 'NO'} |")
    print(f"| a loop of {loop_runs} `assbin.read(mmap.mmap(...))`: the arrays views of the mapped file"
          f" (median; the first {mapped_first * 1000:.1f} ms) | {mapped_loop * 1000:.1f} ms per read,"
          f" {mapped_faults:,.0f} page faults | {size_mb / mapped_loop:.0f} | {mapped_loop / floor_loop:.2f}x the loop"
          f" of byte reads | |")
    print(f"| `open().read()` (the floor) | {floor * 1000:.1f} ms | {size_mb / floor:.0f} | 1.00x | |")
    print(f"| `assbin.read` (threads: one per core) | {default * 1000:.1f} ms | {size_mb / default:.0f} |"
          f" {default / floor:.2f}x the floor | <= 3x: {'yes' if default / floor <= 3 else 'NO'} |")
    print(f"| `assbin.read(threads=1)` | {one * 1000:.1f} ms | {size_mb / one:.0f} | {one / floor:.2f}x the floor | |")
    print(f"| two reads on two Python threads, vs one after the other ({both_in_one * 1000:.1f} ms; best"
          f" of {len(ratios)} rounds each) | {two * 1000:.1f} ms | | {ratio:.2f}x (one after the other / two"
          f" threads; the rounds' median, from {min(ratios):.2f}x to {max(ratios):.2f}x) |"
          f" >= 1.5x: {'yes' if ratio >= 1.5 else 'NO'} |")
    print(f"| two byte reads on two Python threads, vs one after the other (this machine's scaling of the"
          f" floor, the same rounds) | | | {floor_ratio:.2f}x (from {min(floor_ratios):.2f}x to"
          f" {max(floor_ratios):.2f}x) | |")
    print(f"| resident memory after freeing 800 MB of unrelated NumPy arrays (before them {baseline:.0f} MB,"
          f" with them {held:.0f} MB) | {after:.0f} MB | | {after / baseline:.2f}x the baseline |"
          f" <= 1.1x: {'yes' if after <= 1.1 * baseline else 'NO'} |")
    print(f"| Debian's pyassimp (python3-pyassimp) | {pyassimp_line(path)} | | | |")
    print(machine_line(path, runs))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
