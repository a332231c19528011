#!/usr/bin/env bash
# Records target/fulcrum.aot, the AOT cache (JDK >= 25, JEP 483/514) that bin/fulcrum starts with: it runs
# Fulcrum on bin/lib/aot-training.cfg, sends it HTTP, HTTPS (Fulcrum to itself, and openssl s_time's full and
# resumed TLS 1.2 and 1.3 handshakes when openssl is installed), TCP and CLI traffic, stops it
# with SIGUSR1, and the JVM writes the classes it loaded and linked and the profiles it gathered. With the
# cache Fulcrum starts serving about 2.5 times sooner. The build calls this after packaging; it never fails
# the build: without a cache Fulcrum starts as before, only slower.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/jdk.sh"
find_jdk
target="$here/../../target"
jar="$target/fulcrum.jar"
cache="$target/fulcrum.aot"
log="$target/aot-train.log"

note() { echo "aot-train: $*" >&2; }

if [ "$FULCRUM_JAVA_FEATURE" -lt 25 ]; then
    note "Java $FULCRUM_JAVA_FEATURE has no AOT cache (25 has): Fulcrum starts without one"
    rm -f "$cache"
    exit 0
fi
if [ -f "$cache" ] && [ "$cache" -nt "$jar" ] && [ -z "$(find "$target/lib" -newer "$cache" -print -quit)" ]; then
    exit 0 # up to date with the jar and its libraries
fi
rm -f "$cache" "$cache.tmp"

# Ports: a random block of five between 10000 and 14000 whose ports refuse connections (nothing listens there): below
# the kernel's ephemeral range (32768-60999 here), where a client socket's port, which refuses connections too, made
# the bind fail, and below the tests' 20000-32767 and the sweeps' 14500 and up.
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
for _ in 1 2 3 4 5 6 7 8 9 10; do
    base=$((10000 + RANDOM % 4000))
    if port_free "$base" && port_free $((base + 1)) && port_free $((base + 2)) && port_free $((base + 3)) && port_free $((base + 4)); then
        break
    fi
done
export TRAIN_HTTP=$base TRAIN_TCP=$((base + 1)) TRAIN_SRV=$((base + 2)) TRAIN_CLI=$((base + 3)) TRAIN_TLS=$((base + 4))
export TRAIN_CERT="$here/../../examples/certs/demo.pem"

# shellcheck disable=SC2046
"$FULCRUM_JAVA_HOME/bin/java" $(fulcrum_jvm_flags) -XX:AOTCacheOutput="$cache.tmp" \
    -jar "$jar" -db -f "$here/aot-training.cfg" > "$log" 2>&1 &
pid=$!

# One HTTP/1.1 exchange on a new connection to port $1 for path $2 (the response is read to the close).
exchange() {
    (exec 3<>"/dev/tcp/127.0.0.1/$1" && printf 'GET %s HTTP/1.1\r\nHost: train\r\nUser-Agent: aot-train\r\nConnection: close\r\n\r\n' "$2" >&3 \
        && timeout 5 cat <&3 > /dev/null) 2>/dev/null
}
# Several requests on one kept-alive connection, the last one closing it.
pipeline() {
    (exec 3<>"/dev/tcp/127.0.0.1/$1" && printf 'GET /a HTTP/1.1\r\nHost: train\r\n\r\nGET /b HTTP/1.1\r\nHost: train\r\n\r\nGET /c HTTP/1.1\r\nHost: train\r\nConnection: close\r\n\r\n' >&3 \
        && timeout 5 cat <&3 > /dev/null) 2>/dev/null
}
cli() {
    (exec 3<>"/dev/tcp/127.0.0.1/$TRAIN_CLI" && printf '%s\n' "$1" >&3 && timeout 5 cat <&3 > /dev/null) 2>/dev/null
}

up=""
for _ in $(seq 300); do
    if ! kill -0 "$pid" 2>/dev/null; then break; fi
    if exchange "$TRAIN_HTTP" /ready; then up=1; break; fi
    sleep 0.1
done
if [ -n "$up" ]; then
    for i in $(seq 40); do
        exchange "$TRAIN_HTTP" "/Page/$i?q=$i"
        exchange "$TRAIN_TCP" "/tcp/$i"
        exchange "$TRAIN_HTTP" "/tls/$i"
        pipeline "$TRAIN_HTTP"
        [ $((i % 10)) = 0 ] && exchange "$TRAIN_HTTP" /admin
    done
    # Full TLS 1.2 and 1.3 handshakes and resumptions from an outside client, a few thousand: the few handshakes
    # above leave the bind lines' handshake paths (SNI selection, the engine, the handshake's end) unprofiled, and
    # a fresh Fulcrum then spent about 5 times the CPU of a warm one on each of its first handshakes.
    if command -v openssl > /dev/null; then
        clients=()
        for version in -tls1_2 -tls1_3; do
            for mode in -new -reuse; do
                timeout 10 openssl s_time -connect "127.0.0.1:$TRAIN_TLS" "$version" "$mode" -time 3 -www / > /dev/null 2>&1 &
                clients+=($!)
            done
        done
        wait "${clients[@]}"
    fi
    for c in "show info" "show stat" "show servers state" "show sess" "show activity"; do cli "$c"; done
fi
kill -USR1 "$pid" 2>/dev/null
for _ in $(seq 600); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$pid" 2>/dev/null; then
    kill -9 "$pid" 2>/dev/null
fi
wait "$pid"
rc=$?
if [ -z "$up" ] || [ "$rc" != 0 ] || [ ! -s "$cache.tmp" ]; then
    note "training failed (exit $rc, see $log): Fulcrum starts without an AOT cache"
    rm -f "$cache.tmp"
    exit 0
fi
mv "$cache.tmp" "$cache"
