#!/usr/bin/env bash
# Builds Hangar's container image from local files only, so that it builds where no registry can be
# reached (the project's machines reach none):
#
#   JAVA_HOME=<a JDK 21+> bash build-image.sh <hangar.jar> <work dir> <version>
#
# distribution/pom.xml runs it (see docs/containers.md); it tags hangar:<version> and hangar:dev.
# The image is FROM scratch: a Java runtime made with jlink from $JAVA_HOME, the shared libraries that
# it and the jar's native code (RocksDB, Netty) link to, a few files of /etc, and the jar in a layer
# of its own (Dockerfile.scratch beside this script).
#
# HANGAR_CONTAINERS=skip skips it (and ContainerClusterIT skips itself); otherwise a Docker engine
# that does not answer fails the build, so that the container tests never go quietly missing.
set -euo pipefail

if [ "$#" -ne 3 ]; then
    echo "usage: JAVA_HOME=<jdk> $0 <hangar.jar> <work dir> <version>" >&2
    exit 2
fi
jar=$(realpath "$1")
out=$(realpath -m "$2")
version=$3
here=$(cd "$(dirname "$0")" && pwd)

if [ "${HANGAR_CONTAINERS:-}" = skip ]; then
    echo "HANGAR_CONTAINERS=skip: not building the container image"
    exit 0
fi

fail() {
    echo "build-image.sh: $*" >&2
    exit 1
}

for tool in docker unzip ldd tar; do
    command -v "$tool" >/dev/null || fail "needs '$tool' on the PATH (Debian: apt-get install docker.io unzip)"
done
[ -x "${JAVA_HOME:-}/bin/jlink" ] || fail "JAVA_HOME ('${JAVA_HOME:-}') must be a JDK with bin/jlink"
if ! docker info >/dev/null 2>&1; then
    fail "no Docker engine answers ('docker info' failed), so the image and ContainerClusterIT cannot run.
Start one (Debian: apt-get install docker.io, then dockerd &; .ci/run does this), or set
HANGAR_CONTAINERS=skip to skip the image and its test on purpose."
fi
[ -f "$jar" ] || fail "no jar at $jar: run the package phase first"
# The dynamic loader's path below is x86_64's; elsewhere, use the Dockerfile on a JRE base.
[ "$(uname -m)" = x86_64 ] || fail "only x86_64 hosts are handled; elsewhere use distribution/src/main/docker/Dockerfile"

started=$(date +%s)
mkdir -p "$out"

# --- The Java runtime -------------------------------------------------------------------------------
# The modules the jar needs: `jdeps --ignore-missing-deps -s --multi-release 21` over BOOT-INF/classes and
# each jar of BOOT-INF/lib (Spring needs java.desktop for java.beans, Netty and RocksDB jdk.unsupported,
# Actuator java.management and jdk.management), plus what is only loaded by name at run time: charsets,
# zipfs, the DNS naming provider, and the JMX remote agent (java.rmi, java.management.rmi,
# jdk.management.agent) so that an operator can watch the container over JMX.
modules=java.base,java.compiler,java.desktop,java.instrument,java.logging,java.management
modules+=,java.management.rmi,java.naming,java.net.http,java.prefs,java.rmi,java.scripting
modules+=,java.security.jgss,java.sql,java.xml,jdk.charsets,jdk.jfr,jdk.management
modules+=,jdk.management.agent,jdk.naming.dns,jdk.net,jdk.unsupported,jdk.zipfs
# Elliptic-curve TLS lives in jdk.crypto.ec up to JDK 21 (java.base from 22 on, where the module is an
# empty shell that a later JDK may drop). Not grep -q: its early exit could fail java, and so the pipe.
if "$JAVA_HOME/bin/java" --list-modules | grep '^jdk\.crypto\.ec@' >/dev/null; then
    modules+=,jdk.crypto.ec
fi

# jlink takes a few seconds: reuse the runtime while the JDK and the module list are the same.
runtime=$out/runtime
stamp="$("$JAVA_HOME/bin/java" -version 2>&1 | tr '\n' ' ') $JAVA_HOME $modules"
if [ ! -f "$out/runtime.stamp" ] || [ "$(cat "$out/runtime.stamp")" != "$stamp" ]; then
    rm -rf "$runtime" "$out/runtime.stamp"
    # --generate-cds-archive: a class data sharing archive of the JDK's classes; three JVMs starting at
    # once on two cores come up noticeably sooner with it. No --compress: decompressing classes at every
    # start costs more time than the megabytes it saves.
    "$JAVA_HOME/bin/jlink" --add-modules "$modules" --strip-debug --no-header-files --no-man-pages \
        --generate-cds-archive --output "$runtime"
    # Headless server: the AWT/X11, splash screen and sound libraries would only pull X11 and ALSA into
    # the image. The archive for heaps above 32 GiB (no compressed oops) is left out too: such a JVM
    # starts without CDS, a little slower.
    rm -f "$runtime"/lib/libawt_xawt.so "$runtime"/lib/libjawt.so "$runtime"/lib/libsplashscreen.so \
        "$runtime"/lib/libjsound.so "$runtime"/lib/server/classes_nocoops.jsa
    echo "$stamp" > "$out/runtime.stamp"
fi

# --- The root file system ------------------------------------------------------------------------------
rootfs=$out/rootfs
rm -rf "$rootfs" "$out/natives"
mkdir -p "$rootfs"/opt "$rootfs"/etc "$rootfs"/data "$rootfs"/run "$out/natives"
cp -a "$runtime" "$rootfs"/opt/java
install -d -m 1777 "$rootfs"/tmp

# Native code inside the jar (RocksDB, Netty's epoll and QUIC, Ratis' tcnative) is unpacked to /tmp at run
# time; unpack the .so files of the nested jars here, to ask ldd what each needs. Those of other platforms
# would make ldd fail or find nothing, and are ignored; the names that say so are not even unpacked
# (RocksDB alone ships some 140 MB of them).
unzip -qq -o "$jar" 'BOOT-INF/lib/*.jar' -d "$out/natives"
for nested in "$out"/natives/BOOT-INF/lib/*.jar; do
    entries=$(unzip -Z1 "$nested" | grep '\.so$' | grep -v -E 'aarch|ppc64|riscv|s390|musl' || true)
    if [ -n "$entries" ]; then
        # shellcheck disable=SC2086 # one argument per entry; the names have no spaces
        unzip -qq -o "$nested" $entries -d "$out/natives/$(basename "$nested" .jar)"
    fi
done

# Every shared library the runtime's programs and libraries and the jar's native code link to, as the
# host resolves them (ldd: "libc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x...)").
# ldd fails on the libraries of other platforms: its status is ignored, its output is what counts.
libraries=$(
    { find "$runtime" "$out/natives" -type f \( -name '*.so' -o -perm -u+x \) ! -name '*.jar' -print0 \
        | xargs -0 -n 50 ldd 2>/dev/null || true; } \
        | awk -v runtime="$runtime/" '$2 == "=>" && $3 ~ /^\// && index($3, runtime) != 1 { print $3 }' \
        | sort -u
)
[ -n "$libraries" ] || fail "ldd found no shared library: is ldd working on this machine?"
libc=$(echo "$libraries" | grep -m1 '/libc\.so\.6$') || fail "ldd did not find libc.so.6"
# glibc before 2.34 resolves host names through libnss_files and libnss_dns, which nothing links to
# (it loads them by name); later ones build them in and keep small stubs.
for nss in "$(dirname "$libc")"/libnss_files.so.2 "$(dirname "$libc")"/libnss_dns.so.2; do
    if [ -e "$nss" ]; then
        libraries+=$'\n'"$nss"
    fi
done
# The dynamic loader itself, at the path every program names as its interpreter.
libraries+=$'\n'/lib64/ld-linux-x86-64.so.2
while read -r library; do
    mkdir -p "$rootfs$(dirname "$library")"
    cp -L "$library" "$rootfs$library"   # the file a symbolic link points to, under the linked name
done <<< "$libraries"

# Users: root, and hangar (10001), who runs the server and owns /data. hosts: files dns lets the JVM
# resolve its own container name (/etc/hosts, written by Docker) and other containers (Docker's DNS).
printf 'root:x:0:0:root:/root:/sbin/nologin\nhangar:x:10001:10001:Hangar:/data:/sbin/nologin\n' > "$rootfs"/etc/passwd
printf 'root:x:0:\nhangar:x:10001:\n' > "$rootfs"/etc/group
printf 'passwd: files\ngroup: files\nhosts: files dns\n' > "$rootfs"/etc/nsswitch.conf

# Reproducible tar (sorted, fixed times and owners): unchanged, it hits Docker's layer cache.
context=$out/context
mkdir -p "$context"
tar --sort=name --mtime=@0 --numeric-owner --owner=0 --group=0 -C "$rootfs" --exclude=./data \
    -cf "$context"/rootfs.tar .
# /data belongs to hangar: a volume Docker creates for it takes its owner from the image.
tar --sort=name --mtime=@0 --numeric-owner --owner=10001 --group=10001 -C "$rootfs" -rf "$context"/rootfs.tar ./data
cp "$here"/Dockerfile.scratch "$context"/Dockerfile
ln -f "$jar" "$context"/hangar.jar 2>/dev/null || cp "$jar" "$context"/hangar.jar

# --- The image -----------------------------------------------------------------------------------------
docker build --quiet --build-arg VERSION="$version" -t "hangar:$version" -t hangar:dev "$context" >/dev/null
# The image this build replaced keeps its layers, untagged: remove such leftovers of earlier builds (and only
# those: the label is this script's).
docker image prune --force --filter dangling=true --filter label=dev.hangar.built-by=build-image.sh >/dev/null
size=$(docker image inspect -f '{{.Size}}' "hangar:$version")
echo "built hangar:$version and hangar:dev ($((size / 1000000)) MB) in $(($(date +%s) - started)) s"
