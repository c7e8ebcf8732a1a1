#!/usr/bin/env python3
"""Cycles the switch datapath needs for a replay trace: one event at a
time, streamed (tx_start, depart, pfc_rx one per clock), and streamed
with the next event taken in an arrival's tail.

    python3 scripts/stream_cycles.py TRACE.jsonl

A lower bound for all three: every arrival is counted at its shortest,
29 cycles to its result (hdl::switch_datapath::arrival_cycles with no
changed port); the refresh's extra cycles per changed port come on top
in every schedule. Streamed events answer 7 cycles after they are taken;
an arrival right behind them waits until 6 cycles after the last one was
taken (arrival_start_delay); before streaming, tx_start took 7 cycles
and depart and pfc_rx 6. With the tail (ARRIVAL_TAIL_CYCLES = 4), the
next event is taken 4 cycles before an arrival's result; a tx_start
taken there goes on at that result.
"""
import json
import sys
from collections import Counter

ARRIVAL = 29
STREAMED = 7
TAIL = 4
ONE_AT_A_TIME = {"arrive": ARRIVAL, "tx_start": 7, "depart": 6, "pfc_rx": 6}


def kinds(path):
    with open(path) as f:
        for number, line in enumerate(f, 1):
            if line.strip():
                kind = json.loads(line).get("kind")
                if kind not in ONE_AT_A_TIME:
                    sys.exit(f"{path}:{number}: field `kind`: {kind!r} is not an event kind")
                yield kind


def streamed_cycles(events, tail=0):
    cycle = 0          # the cycle the next event can be taken in
    last_streamed = None
    last_result = 0
    arrival_result = None
    for kind in events:
        if kind == "arrive":
            wait = 0 if last_streamed is None else max(0, STREAMED - 1 - (cycle - last_streamed))
            arrival_result = cycle + wait + ARRIVAL
            cycle = arrival_result - tail
            last_result = arrival_result
        else:
            if kind == "tx_start" and arrival_result is not None and cycle < arrival_result:
                cycle = arrival_result
            last_streamed = cycle
            last_result = max(last_result, cycle + STREAMED)
            cycle += 1
    return max(cycle, last_result)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    events = list(kinds(sys.argv[1]))
    counts = Counter(events)
    before = sum(ONE_AT_A_TIME[k] for k in events)
    streamed = streamed_cycles(events)
    tail = streamed_cycles(events, TAIL)
    print(f"{len(events)} events: " + ", ".join(f"{counts[k]} {k}" for k in ONE_AT_A_TIME))
    print(f"one event at a time: {before} cycles; streamed: {streamed} cycles ({before / streamed:.2f}x); "
          f"with the arrival's tail: {tail} cycles ({before / tail:.2f}x)")


if __name__ == "__main__":
    main()
