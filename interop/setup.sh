#!/usr/bin/env bash
# Installs the clients of the interop suite: a Python venv (interop/.venv) with boto3, the aws cli
# v1 and s3cmd pinned in requirements.txt; the AWS SDK for JavaScript v3 pinned in
# interop/js/package-lock.json, into interop/js/node_modules with `npm ci`; and rclone, curl, and
# node and npm (Node 20 or newer) from Debian's packages when missing, and Chromium with chromedriver for
# the console's browser test (installed only when running as root; otherwise it says what to install).
# Idempotent: a venv already holding exactly requirements.txt, and a node_modules installed from
# exactly the lock file, are left as they are.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="${INTEROP_VENV:-$here/.venv}"
python="${PYTHON:-python3}"
stamp="$venv/.requirements.sha256"
wanted="$(sha256sum "$here/requirements.txt" | cut -d' ' -f1)"
js="$here/js"
# The digest of package.json and the lock file that node_modules was installed from; inside
# node_modules, so that `npm ci`, which removes node_modules first, removes it too.
js_stamp="$js/node_modules/.installed-from.sha256"
js_wanted="$(cat "$js/package.json" "$js/package-lock.json" | sha256sum | cut -d' ' -f1)"

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

# Not a client of this suite: Chromium and its chromedriver, for the web console's browser test
# (distribution's ConsoleBrowserIT, docs/console.md). Without root it says what to install.
if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
  as_root || { echo "interop setup: chromium and chromedriver are missing; install them (Debian: apt-get install chromium chromium-driver), or set HANGAR_BROWSER=skip" >&2; exit 1; }
  apt_install chromium chromium-driver
fi

# The AWS SDK for JavaScript v3 needs Node 20 or newer. Debian's nodejs is older than that on
# bookworm: there the check below says so rather than installing an SDK that cannot run.
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  as_root || { echo "interop setup: node and npm are missing; install Node.js 20 or newer with npm" >&2; exit 1; }
  apt_install nodejs npm
fi
node_major="$(node -p 'process.versions.node.split(".")[0]')"
if [ "$node_major" -lt 20 ]; then
  echo "interop setup: node $(node --version) is too old: the AWS SDK for JavaScript v3 in $js needs Node.js 20" \
    "or newer (install it, then run this again)" >&2
  exit 1
fi
if [ -f "$js_stamp" ] && [ "$(cat "$js_stamp")" = "$js_wanted" ]; then
  echo "interop setup: $js/node_modules is up to date"
else
  echo "interop setup: installing $js/package-lock.json with npm ci"
  # Exactly the lock file's versions; no install scripts (the SDK has none it needs).
  (cd "$js" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
  echo "$js_wanted" >"$js_stamp"
fi

"$venv/bin/python" -c 'import boto3; print("boto3", boto3.__version__)'
"$venv/bin/aws" --version
"$venv/bin/s3cmd" --version
echo "node $(node --version), @aws-sdk/client-s3 $(node -p "require('$js/node_modules/@aws-sdk/client-s3/package.json').version")"
# sed reads all of its input: head would end the pipe early, and pipefail would fail on the SIGPIPE.
rclone version | sed -n 1p
