"""Drives bench/timing.py's retry policy and bench/report.py's noise marks
with made-up samples (see timing-noise.mlir)."""
import sys

sys.path.insert(0, sys.argv[1])
import report  # noqa: E402
import timing  # noqa: E402


def fake(samples_list):
    """A measure() returning the given sample lists in turn."""
    it = iter(samples_list)

    def measure():
        samples = next(it)
        return timing.Timing(median_us=sorted(samples)[len(samples) // 2],
                             min_us=min(samples), max_us=max(samples),
                             mean_us=sum(samples) / len(samples), stdev_us=0.0,
                             reps=len(samples), warmup_calls=1,
                             samples_us=samples)
    return measure


settings = timing.TimingSettings()
quiet = [10.0] * 5 + [11.0] * 5
for label, runs in [("quiet", [quiet]),
                    ("settles", [[10.0] * 5 + [30.0] * 5,
                                 [20.0] * 5 + [21.0] * 5, quiet]),
                    ("stays noisy", [[10.0] * 5 + [40.0] * 5,
                                     [10.0] * 5 + [20.0] * 5,
                                     [10.0] * 5 + [30.0] * 5])]:
    t = timing.timed_quietly(fake(runs), settings)
    print(f"{label}: {t.attempts} attempt{'s' if t.attempts > 1 else ''}, "
          f"spread {t.spread:.2f}, {'noisy' if t.noisy else 'not noisy'}")
print(f"single sample: spread {timing.spread_of([5.0]):.2f}")

noisy = timing.timed_quietly(fake([[10.0] * 5 + [40.0] * 5] * 3), settings)
noisy.median_us = 92.0
results = {"fake": False, "cases": {
    "matmul.a": {"case": {"family": "matmul", "dtype": "bf16"},
                 "eager": {"status": "ok", "median_us": 92.0,
                           "timing": noisy.to_json()},
                 "ours": {"status": "ok", "median_us": 26.0}},
    "matmul.b": {"case": {"family": "matmul", "dtype": "bf16"},
                 "eager": {"status": "ok", "median_us": 15.0,
                           "timing": timing.timed_quietly(
                               fake([quiet]), settings).to_json()},
                 "ours": {"status": "ok", "median_us": 26.0}}}}
for line in report.render_markdown(results).splitlines():
    if line.startswith("| matmul."):
        print("report: " + " |".join(line.split(" |")[:2]) + " |")
    elif "noisy in every attempt" in line:
        print("report: " + line.split("stayed ", 1)[1])

# Timer on a stand-in for torch.cuda (a GPU clock that each operation
# advances): the GPU spins before every timed call, after the flush and
# before the start event, for the time queue_ahead_us gives.
print(f"queue ahead: {timing.queue_ahead_us(10.0):.0f} us for 10, "
      f"{timing.queue_ahead_us(1e4):.0f} us for 10000")


class FakeCuda:
    clock_us, log = 0.0, []

    class Event:
        def __init__(self, enable_timing=False):
            self.at = None

        def record(self):
            self.at = FakeCuda.clock_us
            FakeCuda.log.append("record")

        def elapsed_time(self, end):
            return (end.at - self.at) / 1e3

    class Stream:
        pass

    class stream:
        def __init__(self, s):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

    @staticmethod
    def synchronize():
        pass

    @staticmethod
    def _sleep(cycles):
        FakeCuda.clock_us += cycles / 1500.0  # a 1.5 GHz clock
        FakeCuda.log.append("spin")


class FakeBuffer:
    def zero_(self):
        FakeCuda.clock_us += 80.0
        FakeCuda.log.append("flush")


class FakeTorch:
    cuda, int32 = FakeCuda, "int32"

    @staticmethod
    def empty(n, dtype=None, device=None):
        return FakeBuffer()


sys.modules["torch"] = FakeTorch


def call():
    FakeCuda.clock_us += 15.0
    FakeCuda.log.append("call")


timer = timing.Timer(timing.TimingSettings(warmup_ms=1.0, rep_ms=1.0))
print(f"spin: {timer.spin_cycles_per_us:.0f} cycles a us")
FakeCuda.log.clear()
t = timer.time(call)
timed = " ".join(FakeCuda.log[-10:])
print(f"timed: median {t.median_us:.1f} us, ahead 50 us or more: "
      f"{50 <= t.ahead_us <= 2000}, "
      f"{t.attempts} attempt, last calls: {timed}")
