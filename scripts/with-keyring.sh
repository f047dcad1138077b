#!/usr/bin/env bash
# Runs a command where the OS keychain works, so the vault's tests use the real
# Secret Service: when no D-Bus session exists but dbus-run-session and
# gnome-keyring are installed, it starts both around the command, with a
# throwaway keyring in a temp XDG_DATA_HOME. Elsewhere it runs the command as is.
set -euo pipefail

if [ -n "${DBUS_SESSION_BUS_ADDRESS:-}" ] || [ "${AVATAR_KEYRING_READY:-}" = 1 ] ||
  ! command -v dbus-run-session >/dev/null || ! command -v gnome-keyring-daemon >/dev/null; then
  exec "$@"
fi

keyring_home="$(mktemp -d)"
trap 'rm -rf "$keyring_home"' EXIT
export XDG_DATA_HOME="$keyring_home"
export AVATAR_KEYRING_READY=1
# shellcheck disable=SC2016
dbus-run-session -- bash -c '
  echo -n throwaway | gnome-keyring-daemon --unlock --components=secrets >/dev/null
  exec "$@"
' with-keyring "$@"
