#!/usr/bin/env bash
# Installs the clients of the interop suite: a Python venv (interop/.venv) with boto3, the aws cli
# v1 and s3cmd pinned in requirements.txt; the AWS SDK for JavaScript v3 pinned in
# interop/js/package-lock.json, into interop/js/node_modules with `npm ci`; and rclone, curl, and
# node and npm (Node 20 or newer) from Debian's packages when missing, and Chromium with chromedriver for
# the console's browser test (installed only when running as root; otherwise it says what to install);
# and MinIO's mc and s5cmd, built from the Go module proxy with the machine's Go (Go 1.23 or newer;
# Debian's golang-go when no go is found) at the versions pinned below, into interop/.bin.
# Idempotent: a venv already holding exactly requirements.txt, a node_modules installed from
# exactly the lock file, and Go clients built at exactly the pinned versions are left as they are.
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
# The Go clients: module and exact version. mc tags its releases RELEASE.<time>, which the module
# proxy serves as pseudo-versions: this one is RELEASE.2025-03-12T17-29-24Z (commit c1d5d4cbb4ca).
go_bin="$here/.bin"
mc_module=github.com/minio/mc
mc_version=v0.0.0-20250312172924-c1d5d4cbb4ca
s5cmd_module=github.com/peak/s5cmd/v2
s5cmd_version=v2.3.0
# The oldest Go that builds both (mc's go.mod at that release says go 1.23.0).
go_minimum=1.23

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

# mc and s5cmd, built by the machine's Go from the Go module proxy (GOPROXY as the machine sets it)
# with the module checksums verified as go always does. Not with `go install MODULE@VERSION`: that
# asks the proxy for the module's version list (to look for a deprecation notice), which the proxy
# may refuse (s5cmd's is refused here), and then fails. Instead a throwaway module in a temp dir
# requires MODULE@VERSION and builds its command, with the dependency versions that the tool's own
# go.mod selects, as `go install MODULE@VERSION` would. A stamp beside each binary names what it was
# built from; a binary whose stamp matches is kept. The first build on a machine takes minutes (it
# downloads and compiles every dependency); later ones reuse Go's module and build caches.
find_go() {
  if command -v go >/dev/null; then
    command -v go
  elif [ -x /usr/local/go/bin/go ]; then
    echo /usr/local/go/bin/go
  else
    return 1
  fi
}

# Sets go_cmd and go_version, once, when a client is to be built: Go is not needed while both are.
go_cmd=""
need_go() {
  [ -z "$go_cmd" ] || return 0
  if ! go_cmd=$(find_go); then
    as_root || { echo "interop setup: go is missing: mc and s5cmd are built from source; install Go $go_minimum or newer" >&2; exit 1; }
    apt_install golang-go
    go_cmd=$(find_go) || { echo "interop setup: go is still missing after installing Debian's golang-go" >&2; exit 1; }
  fi
  go_version=$("$go_cmd" env GOVERSION)
  if ! printf '%s\n%s\n' "go$go_minimum" "$go_version" | sort -V -C; then
    echo "interop setup: $go_cmd is $go_version, too old: mc and s5cmd at the pinned versions need Go $go_minimum" \
      "or newer (install it, then run this again)" >&2
    exit 1
  fi
}
# GOTOOLCHAIN=local: build with this Go, never download another toolchain.
export GOTOOLCHAIN=local CGO_ENABLED=0

# go_client NAME MODULE VERSION: builds MODULE@VERSION's command into $go_bin/NAME unless it is there.
go_client() {
  local name=$1 module=$2 version=$3 stamp wanted work started built
  stamp="$go_bin/.$name.built-from"
  wanted="$module@$version"
  if [ -x "$go_bin/$name" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$wanted" ]; then
    echo "interop setup: $go_bin/$name ($wanted) is up to date"
    return 0
  fi
  need_go
  echo "interop setup: building $name from $wanted with $go_version (minutes while Go's caches are empty)"
  started=$SECONDS
  work=$(mktemp -d "${TMPDIR:-/tmp}/hangar-interop-go.XXXXXX")
  if ! (cd "$work" \
      && "$go_cmd" mod init hangar.invalid/interop-tools/"$name" \
      && "$go_cmd" get "$wanted" \
      && GOBIN="$work/bin" "$go_cmd" install -trimpath "$module") >"$work/build.log" 2>&1; then
    tail -n 30 "$work/build.log" >&2
    rm -rf "$work"
    echo "interop setup: building $name from $wanted failed (the go command's output is above)" >&2
    exit 1
  fi
  built=$("$go_cmd" version -m "$work/bin/$name" | awk -v module="$module" '($1 == "mod" || $1 == "dep") && $2 == module { print $2 "@" $3 }')
  if [ "$built" != "$wanted" ]; then
    rm -rf "$work"
    echo "interop setup: $name was built from '$built', not $wanted" >&2
    exit 1
  fi
  mkdir -p "$go_bin"
  rm -f "$stamp"
  mv -f "$work/bin/$name" "$go_bin/$name"
  echo "$wanted" >"$stamp"
  rm -rf "$work"
  echo "interop setup: built $go_bin/$name in $((SECONDS - started))s"
}
go_client mc "$mc_module" "$mc_version"
go_client s5cmd "$s5cmd_module" "$s5cmd_version"

"$venv/bin/python" -c 'import boto3; print("boto3", boto3.__version__)'
"$venv/bin/aws" --version
"$venv/bin/s3cmd" --version
echo "node $(node --version), @aws-sdk/client-s3 $(node -p "require('$js/node_modules/@aws-sdk/client-s3/package.json').version")"
# sed reads all of its input: head would end the pipe early, and pipefail would fail on the SIGPIPE.
rclone version | sed -n 1p
echo "mc $(cat "$go_bin/.mc.built-from"), s5cmd $(cat "$go_bin/.s5cmd.built-from")"
