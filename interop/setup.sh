#!/usr/bin/env bash
# Installs the clients of the interop suite: a Python venv (interop/.venv) with boto3, the aws cli
# v1 and s3cmd pinned in requirements.txt, and rclone and curl from Debian's packages when missing
# (installed only when running as root; otherwise it says what to install).
# Idempotent: a venv already holding exactly requirements.txt is left as it is.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="${INTEROP_VENV:-$here/.venv}"
python="${PYTHON:-python3}"
stamp="$venv/.requirements.sha256"
wanted="$(sha256sum "$here/requirements.txt" | cut -d' ' -f1)"

as_root() {
  [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null
}

apt_install() {
  echo "interop setup: apt-get install $*"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$wanted" ] && [ -x "$venv/bin/python" ]; then
  echo "interop setup: $venv is up to date"
else
  if [ ! -x "$venv/bin/python" ]; then
    echo "interop setup: creating $venv with $("$python" --version 2>&1)"
    if ! "$python" -m venv "$venv"; then
      # Debian's python3 needs its venv module as a separate package.
      as_root || { echo "interop setup: '$python -m venv' failed; install python3-venv" >&2; exit 1; }
      rm -rf "$venv"
      apt_install python3-venv
      "$python" -m venv "$venv"
    fi
  fi
  echo "interop setup: installing $here/requirements.txt"
  "$venv/bin/python" -m pip install --disable-pip-version-check -q -r "$here/requirements.txt"
  echo "$wanted" >"$stamp"
fi

# rclone, and curl that fetches the presigned URLs.
for tool in rclone curl; do
  if ! command -v "$tool" >/dev/null; then
    as_root || { echo "interop setup: $tool is missing; install it (Debian: apt-get install $tool)" >&2; exit 1; }
    apt_install "$tool"
  fi
done

"$venv/bin/python" -c 'import boto3; print("boto3", boto3.__version__)'
"$venv/bin/aws" --version
"$venv/bin/s3cmd" --version
# sed reads all of its input: head would end the pipe early, and pipefail would fail on the SIGPIPE.
rclone version | sed -n 1p
