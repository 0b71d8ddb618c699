#!/bin/sh
# Installs the Debian packages named as arguments that are not installed yet.
# Quiet when everything is present; needs root (or sudo) only when something is missing.
missing=""
for p in "$@"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "deps: installing missing Debian packages:$missing"
if ! command -v apt-get >/dev/null 2>&1; then
	echo "deps: error: apt-get not found; install these packages by hand:$missing" >&2
	exit 1
fi
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null || { echo "deps: error: apt-get update failed" >&2; exit 1; }
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null ||
	{ echo "deps: error: could not install:$missing" >&2; exit 1; }
