#!/usr/bin/env bash
# The real main window on a 1280x800 X server under a window manager (issue 35, item 1): with every name in the
# project long, each view in both themes must let the window manager size it to 1280x800, and a window closed
# at that size must open at it again. The offscreen platform cannot show this: it has no window manager to
# refuse a size below the window's minimum.
#
# Usage: window_fits_screen.sh SKILLFORGE_EXECUTABLE SAMPLE_PROJECT
set -euo pipefail
skillforge="$1"
sample="$2"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
width=1280
height=800

for tool in Xvfb openbox xdotool; do
  command -v "$tool" > /dev/null || { echo "FAIL: $tool is missing (scripts/setup installs it)" >&2; exit 1; }
done

work="$(mktemp -d)"
server_pid=""
wm_pid=""
cleanup() {
  [ -n "$wm_pid" ] && kill "$wm_pid" 2> /dev/null || true
  [ -n "$server_pid" ] && kill "$server_pid" 2> /dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

python3 "$here/make_long_names_project.py" "$sample" "$work/project"

# -displayfd picks a free display and writes its number once the server accepts clients.
exec {display_fd}<> <(:)
Xvfb -displayfd "$display_fd" -screen 0 "${width}x${height}x24" -nolisten tcp > "$work/xvfb.log" 2>&1 &
server_pid=$!
read -r -t 30 -u "$display_fd" display_number || { echo "FAIL: Xvfb did not start" >&2; cat "$work/xvfb.log" >&2; exit 1; }
export DISPLAY=":$display_number"
openbox > "$work/openbox.log" 2>&1 &
wm_pid=$!

# Each launch gets its own profile, so no geometry saved by an earlier launch hides a minimum size.
launch() { # VIEW THEME PROFILE -> prints the app's pid
  local profile="$3"
  mkdir -p "$profile"
  HOME="$profile" XDG_CONFIG_HOME="$profile/config" XDG_DATA_HOME="$profile/data" XDG_CACHE_HOME="$profile/cache" \
    QT_QPA_PLATFORM=xcb "$skillforge" gui "$work/project" --view "$1" --theme "$2" --ready-file "$profile/ready" \
    > "$profile/app.log" 2>&1 &
  echo $!
}

wait_ready() { # PROFILE PID: waits until the app says its views have loaded (gui --ready-file), at most 60 s
  for _ in $(seq 1 600); do
    [ -f "$1/ready" ] && return 0
    kill -0 "$2" 2> /dev/null || return 1
    sleep 0.1
  done
  return 1
}

window_of() { # PID -> the main window's id, once it is mapped: the largest visible window the process has
  local pid="$1" windows="" window best="" best_area=0
  for _ in $(seq 1 300); do
    windows="$(xdotool search --onlyvisible --pid "$pid" 2> /dev/null || true)"
    [ -n "$windows" ] && break
    kill -0 "$pid" 2> /dev/null || return 1
    sleep 0.1
  done
  for window in $windows; do
    eval "$(xdotool getwindowgeometry --shell "$window" 2> /dev/null || echo WIDTH=0 HEIGHT=0)"
    if [ $((WIDTH * HEIGHT)) -gt "$best_area" ]; then
      best="$window"
      best_area=$((WIDTH * HEIGHT))
    fi
  done
  [ -n "$best" ] && echo "$best"
}

size_of() { # WINDOW -> "W H"
  eval "$(xdotool getwindowgeometry --shell "$1")"
  echo "$WIDTH $HEIGHT"
}

settled_size() { # WINDOW -> its size once two reads 0.3 s apart agree
  local last="" now
  for _ in $(seq 1 50); do
    now="$(size_of "$1")"
    [ "$now" = "$last" ] && { echo "$now"; return 0; }
    last="$now"
    sleep 0.3
  done
  echo "$now"
}

failures=0
checked=0
expect_fits() { # WINDOW WHAT: counts a check of the window's settled size against the screen
  local got_width got_height
  read -r got_width got_height <<< "$(settled_size "$1")"
  checked=$((checked + 1))
  if [ "$got_width" -le "$width" ] && [ "$got_height" -le "$height" ]; then
    echo "ok: $2: ${got_width}x${got_height}"
  else
    echo "FAIL: $2: the window is ${got_width}x${got_height}, larger than the ${width}x${height} screen" >&2
    failures=$((failures + 1))
  fi
}
for view in trace skill compare runs kernels; do
  for theme in light dark; do
    profile="$work/profile-$view-$theme"
    pid="$(launch "$view" "$theme" "$profile")"
    if ! window="$(window_of "$pid")"; then
      echo "FAIL: $view/$theme: no window appeared" >&2
      cat "$profile/app.log" >&2
      failures=$((failures + 1))
      continue
    fi
    # The view fills its models after the window maps, and a long name could still widen it: measured once loaded.
    if ! wait_ready "$profile" "$pid"; then
      echo "FAIL: $view/$theme: the app never said its views had loaded" >&2
      failures=$((failures + 1))
    fi
    xdotool windowsize "$window" "$width" "$height"
    expect_fits "$window" "$view/$theme, sized by the window manager to ${width}x${height}"
    kill "$pid" 2> /dev/null || true
    wait "$pid" 2> /dev/null || true
  done
done

# A window closed at 1280x800 opens at that size again (the saved geometry is not a larger one).
profile="$work/profile-reopen"
pid="$(launch compare dark "$profile")"
window="$(window_of "$pid")"
wait_ready "$profile" "$pid" || { echo "FAIL: the app never said its views had loaded" >&2; failures=$((failures + 1)); }
xdotool windowsize "$window" "$width" "$height"
settled_size "$window" > /dev/null
# File > Quit (Ctrl+Q), which saves the geometry: typed into the focused window through XTEST, as a user would.
# A fresh profile may open a dialog first (no local model installed: "Install the local model?"); it is modal, so
# Escape dismisses it before the main window can take the key.
window="$(window_of "$pid")"
for other in $(xdotool search --onlyvisible --pid "$pid" 2> /dev/null || true); do
  [ "$other" = "$window" ] || xdotool windowactivate --sync "$other" key --clearmodifiers Escape 2> /dev/null || true
done
xdotool windowactivate --sync "$window" key --clearmodifiers ctrl+q 2> /dev/null || true
for _ in $(seq 1 100); do kill -0 "$pid" 2> /dev/null || break; sleep 0.1; done
if kill "$pid" 2> /dev/null; then
  echo "FAIL: Ctrl+Q did not quit within 10 s, so no geometry was saved to reopen at" >&2
  failures=$((failures + 1))
fi
wait "$pid" 2> /dev/null || true
rm -f "$profile/ready"
pid="$(launch compare dark "$profile")"
window="$(window_of "$pid")"
wait_ready "$profile" "$pid" || { echo "FAIL: the reopened app never said its views had loaded" >&2; failures=$((failures + 1)); }
expect_fits "$window" "reopened after closing at ${width}x${height}"
kill "$pid" 2> /dev/null || true
wait "$pid" 2> /dev/null || true

echo "$((checked - failures)) of $checked window checks passed"
[ "$failures" -eq 0 ]
