#!/usr/bin/env python3
"""Runs the workspace's test binaries two at a time.

`cargo test` runs one test binary after another, and most of ours end in
one long test (a place-and-route, a Yosys run, a Verilator replay) while
the second core waits. This builds every test binary once with cargo, then
runs them as cargo would (working directory: the crate's folder; the
environment of .cargo/config.toml), as many at a time as there are cores,
the longest first. Each binary's output is printed whole when it ends. The
exit status is 1 if any binary failed, naming them.

"Longest" is what the last run here measured (target/test-durations.json,
written after every run); a fresh clone has none, and uses LONG_FIRST.

    scripts/run_tests.py [--jobs N]
"""
import argparse
import json
import os
import subprocess
import sys
import time
import tomllib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CARGO = ["cargo", "test", "--workspace", "--release"]

# The binaries that take minutes, longest first (measured on 2 cores): they
# start first so that no long one is left alone at the end. Only used
# until a run has measured them.
LONG_FIRST = ["replay_engines", "cli_hardware", "flowlet_table", "switch_datapath",
              "buffer_manager", "cli_replay", "input_fuzz", "ecn_marker", "ecmp_hash"]


def test_binaries():
    """(name, executable, crate folder) of every test binary cargo builds."""
    built = subprocess.run(CARGO + ["--no-run", "--message-format=json-render-diagnostics"],
                           cwd=ROOT, stdout=subprocess.PIPE, text=True)
    if built.returncode != 0:
        sys.exit(f"error: cargo could not build the test binaries (exit {built.returncode}; its messages are above)")
    out = built.stdout
    found = []
    for line in out.splitlines():
        msg = json.loads(line)
        if msg.get("reason") != "compiler-artifact" or not msg.get("profile", {}).get("test"):
            continue
        if not msg.get("executable"):
            continue
        target = msg["target"]
        name = target["name"] if "test" in target["kind"] else f"{target['name']} (unit)"
        crate_dir = Path(msg["manifest_path"]).parent
        found.append((name, msg["executable"], crate_dir))
    return found


def config_env():
    """The [env] table of .cargo/config.toml, as cargo passes it to tests."""
    config = tomllib.loads((ROOT / ".cargo" / "config.toml").read_text())
    env = dict(os.environ)
    for key, value in config.get("env", {}).items():
        env.setdefault(key, value if isinstance(value, str) else value["value"])
    return env


DURATIONS = ROOT / "target" / "test-durations.json"


def measured_durations():
    """Seconds each binary took in the last run here, or {} (none, or unreadable)."""
    try:
        durations = json.loads(DURATIONS.read_text())
    except (OSError, ValueError):
        return {}
    if not isinstance(durations, dict):
        return {}
    return {name: float(s) for name, s in durations.items() if isinstance(s, (int, float))}


def save_durations(results):
    """Writes this run's durations whole (a temporary file, then renamed)."""
    partial = DURATIONS.with_suffix(".json.partial")
    partial.write_text(json.dumps({name: round(s, 1) for name, _, s in results}, indent=1, sort_keys=True))
    partial.replace(DURATIONS)


def priority(durations):
    """Sort key: binaries not yet measured first (in LONG_FIRST's order; a new
    one may be long), then the last run's durations, longest first."""
    def key(binary):
        name = binary[0]
        if name in durations:
            return (1, -durations[name])
        return (0, LONG_FIRST.index(name) if name in LONG_FIRST else len(LONG_FIRST))
    return key


def run(binary, env):
    """Runs one binary; prints its output whole with the wall-clock time and
    the processor time it and its children (Yosys, nextpnr, Verilator) used,
    which is what it costs the machine whatever ran beside it."""
    name, exe, crate_dir = binary
    started = time.monotonic()
    child = subprocess.Popen([exe], cwd=crate_dir, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT)
    out = child.stdout.read().decode(errors="replace")
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    elapsed = time.monotonic() - started
    cpu = usage.ru_utime + usage.ru_stime
    print(f"\n===== {name}: {'ok' if child.returncode == 0 else 'FAILED'} "
          f"in {elapsed:.1f} s, processor {cpu:.1f} s ({exe})\n{out}", flush=True)
    return name, child.returncode, elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2,
                        help="test binaries run at once (default: the number of cores)")
    jobs = parser.parse_args().jobs
    if jobs < 1:
        sys.exit(f"error: --jobs {jobs}: at least 1 binary must run at a time")
    durations = measured_durations()
    binaries = sorted(test_binaries(), key=priority(durations))
    env = config_env()
    print(f"running {len(binaries)} test binaries, {jobs} at a time", flush=True)
    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(lambda b: run(b, env), binaries))
    save_durations(results)
    failed = [name for name, code, _ in results if code != 0]
    print(f"\n{len(results) - len(failed)} of {len(results)} test binaries passed "
          f"in {time.monotonic() - started:.0f} s", flush=True)
    if failed:
        print("failed: " + ", ".join(failed), flush=True)
        sys.exit(1)


if __name__ == "__main__":
    main()
