#!/usr/bin/env bash
# Build validation/ns3/ns3_scenarios.cc (or NAME.cc) against ns-3 3.44 as the PyPI wheel
# `ns3==3.44.post0` ships it (C++ headers and shared libraries inside the wheel), with plain g++.
#
#   validation/ns3/build.sh               # prints the path of the binary on stdout
#   validation/ns3/build.sh ns3_fattree   # the fat-tree program of validation/ns3/fattree.py
#
# The wheel is installed into a virtual environment of its own, $NS3_VENV (default
# ~/.cache/ns3-anchor), created on first use; the binary goes to $NS3_BUILD_DIR (default
# validation/ns3/build) and is rebuilt only when the source is newer.
# Env: NS3_VENV, NS3_BUILD_DIR, CXX (default g++), PYTHON (default python3).
# Exit status 3: the wheel could not be installed.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
NS3_VENV="${NS3_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/ns3-anchor}"
NS3_PIP_SPEC="ns3==3.44.post0"
NS3_BUILD_DIR="${NS3_BUILD_DIR:-$HERE/build}"
CXX="${CXX:-g++}"
PYTHON="${PYTHON:-python3}"
PROGRAM="${1:-ns3_scenarios}"
case "$PROGRAM" in
  ns3_scenarios|ns3_fattree) ;;
  *) echo "[ns3 build] unknown program $PROGRAM (ns3_scenarios or ns3_fattree)" >&2; exit 2 ;;
esac
SRC="$HERE/$PROGRAM.cc"
BIN="$NS3_BUILD_DIR/$PROGRAM"

if [ ! -x "$NS3_VENV/bin/python" ]; then
  echo "[ns3 build] creating $NS3_VENV" >&2
  "$PYTHON" -m venv "$NS3_VENV"
fi
# Locate the package without importing it (importing it loads cppyy).
find_pkg() {
  "$NS3_VENV/bin/python" -c 'import importlib.util as u; s = u.find_spec("ns3"); print(s.submodule_search_locations[0] if s else "")'
}
NS3_PKG="$(find_pkg)"
if [ -z "$NS3_PKG" ] || [ ! -f "$NS3_PKG/lib64/libns3.44-core.so" ]; then
  echo "[ns3 build] installing $NS3_PIP_SPEC into $NS3_VENV" >&2
  # CHOICE: without the wheel's dependencies and without byte-compiling: the programs use only
  # its C++ headers and libraries, not the Python bindings, whose cppyy packages pip builds from
  # source (about 70 CPU-seconds of a fresh install's 75).
  if ! "$NS3_VENV/bin/python" -m pip install --quiet --no-deps --no-compile "$NS3_PIP_SPEC" >&2; then
    echo "[ns3 build] could not install $NS3_PIP_SPEC (no network or no package registry?)" >&2
    exit 3
  fi
  NS3_PKG="$(find_pkg)"
fi
NS3_INC="$NS3_PKG/include"
NS3_LIB="$NS3_PKG/lib64"
[ -f "$NS3_INC/ns3/core-module.h" ] || { echo "[ns3 build] no ns-3 headers under $NS3_INC" >&2; exit 1; }
[ -f "$NS3_LIB/libns3.44-core.so" ] || { echo "[ns3 build] no libns3.44-core.so under $NS3_LIB" >&2; exit 1; }

if [ ! -x "$BIN" ] || [ "$SRC" -nt "$BIN" ] || [ "$0" -nt "$BIN" ]; then
  mkdir -p "$NS3_BUILD_DIR"
  # The compile definitions the wheel's CMake config (lib64/cmake/ns3/ns3Targets.cmake) exports
  # to its users: release profile, NS_LOG and NS_ASSERT compiled in.
  DEFS="-D__LINUX__ -DNS3_BUILD_PROFILE_RELEASE -DNS3_LOG_ENABLE -DNS3_ASSERT_ENABLE"
  LIBS=""
  for m in core network internet point-to-point applications traffic-control; do
    LIBS="$LIBS -lns3.44-$m"
  done
  echo "[ns3 build] $CXX -std=c++20 -O2 $SRC (ns-3 from $NS3_PKG)" >&2
  # shellcheck disable=SC2086
  "$CXX" -std=c++20 -O2 -DNDEBUG $DEFS -I"$NS3_INC" "$SRC" -o "$BIN.tmp" \
    -L"$NS3_LIB" -Wl,-rpath,"$NS3_LIB" $LIBS -lpthread
  mv "$BIN.tmp" "$BIN"
fi
echo "$BIN"
