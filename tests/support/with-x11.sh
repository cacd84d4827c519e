#!/bin/sh
# Run a command on a real X server: Xvfb of the given size, with the openbox window manager when
# --wm is given (what a person's desktop does to a window: maximising, frames, placement; the
# offscreen platform does none of it). Used by CTest for the window's saved-state tests.
#   tests/support/with-x11.sh [--wm] WIDTHxHEIGHT command [args...]
# Fails (exit 1, one line) when Xvfb or openbox is missing: packaging/setup.sh installs both.
set -u
wm=0
if [ "${1:-}" = "--wm" ]; then wm=1; shift; fi
size=${1:?usage: with-x11.sh [--wm] WIDTHxHEIGHT command...}
shift
command -v Xvfb >/dev/null 2>&1 || { echo "with-x11: Xvfb is not installed (apt-get install xvfb)" >&2; exit 1; }
if [ $wm -eq 1 ]; then
  command -v openbox >/dev/null 2>&1 || { echo "with-x11: openbox is not installed (apt-get install openbox)" >&2; exit 1; }
fi
tmp=$(mktemp -d)
Xvfb -displayfd 3 -screen 0 "${size}x24" -nolisten tcp 3>"$tmp/display" 2>"$tmp/xvfb.log" &
xvfb=$!
i=0
while [ ! -s "$tmp/display" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
if [ ! -s "$tmp/display" ]; then
  echo "with-x11: Xvfb did not start: $(head -c 300 "$tmp/xvfb.log")" >&2
  kill $xvfb 2>/dev/null; rm -rf "$tmp"; exit 1
fi
DISPLAY=":$(cat "$tmp/display")"
export DISPLAY
unset QT_QPA_PLATFORM
wmpid=
if [ $wm -eq 1 ]; then
  HOME="$tmp" openbox --sm-disable >"$tmp/openbox.log" 2>&1 &
  wmpid=$!
  # Until openbox manages the screen (it sets _NET_SUPPORTING_WM_CHECK on the root window).
  i=0
  while [ $i -lt 100 ]; do
    if command -v xprop >/dev/null 2>&1; then
      xprop -root _NET_SUPPORTING_WM_CHECK 2>/dev/null | grep -q 'window id' && break
    elif [ $i -ge 20 ]; then break
    fi
    sleep 0.05; i=$((i + 1))
  done
fi
"$@"
rc=$?
[ -n "$wmpid" ] && kill $wmpid 2>/dev/null
kill $xvfb 2>/dev/null
wait 2>/dev/null
rm -rf "$tmp"
exit $rc
