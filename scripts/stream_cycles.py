#!/usr/bin/env python3
"""Cycles the switch datapath needs for a replay trace: one event at a
time, streamed (tx_start, depart, pfc_rx one per clock), streamed with
the next event taken in an arrival's tail, and the same with arrivals
following tx_start and depart at once.

    python3 scripts/stream_cycles.py TRACE.jsonl

A lower bound for all of them: every arrival is counted at 29 cycles to
its result (hdl::switch_datapath::arrival_cycles with at most two changed
ports before Dec 6, late; 28 with at most one since); the refresh's extra
cycles per changed port come on top in every schedule. The exact count,
from the co-simulation's own schedule, is the first line of
`cargo bench --bench replay_engines`. Streamed events answer 7 cycles after they are taken.
Before streaming, tx_start took 7 cycles and depart and pfc_rx 6.

With the tail (ARRIVAL_TAIL_CYCLES = 4) the next event is taken 4 cycles
before an arrival's result. In the first tail schedule an arrival right
behind any streamed event waits until 6 cycles after the last one was
taken (as before Dec 6, late), and every tx_start taken in a tail goes
on at the arrival's result. In the last one (the datapath now) an
arrival waits only behind a pfc_rx, and a tx_start taken in a tail waits
only when it is for the arrival's egress port (or taken in the tail's
third cycle). The trace does not say which port an arrival goes to, so
that schedule is given twice: with every such tx_start held (the most
the datapath can take) and with none held but the third cycle's (the
least).
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


def streamed_cycles(events, tail=0, wait_behind=("tx_start", "depart", "pfc_rx"), hold_all=True):
    """`cycle` is the cycle the next event can be taken in; an arrival
    taken in cycle c has its result in c + ARRIVAL (plus its wait)."""
    cycle = 0
    last_waited_for = None
    last_result = 0
    arrival_result = None
    for kind in events:
        if kind == "arrive":
            since = None if last_waited_for is None else cycle - last_waited_for
            wait = 0 if since is None else max(0, STREAMED - 1 - since)
            arrival_result = cycle + wait + ARRIVAL
            cycle = arrival_result - tail
            last_result = arrival_result
        else:
            if kind == "tx_start" and arrival_result is not None and cycle < arrival_result:
                third_cycle = cycle == arrival_result - 2
                if hold_all or third_cycle:
                    cycle = arrival_result
            if kind in wait_behind:
                last_waited_for = cycle
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
    most = streamed_cycles(events, TAIL, ("pfc_rx",), hold_all=True)
    least = streamed_cycles(events, TAIL, ("pfc_rx",), hold_all=False)
    print(f"{len(events)} events: " + ", ".join(f"{counts[k]} {k}" for k in ONE_AT_A_TIME))
    print(f"one event at a time: {before} cycles; streamed: {streamed} cycles ({before / streamed:.2f}x); "
          f"with the arrival's tail: {tail} cycles ({before / tail:.2f}x); "
          f"arrivals at once behind tx_start and depart, tx_start held for the arrival's port: "
          f"{least} to {most} cycles ({before / most:.2f}x to {before / least:.2f}x)")


if __name__ == "__main__":
    main()
