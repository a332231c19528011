# Sourced by bin/ scripts: find_jdk sets FULCRUM_JAVA_HOME (and FULCRUM_JAVA_FEATURE) to a JDK >= 21 (JAVA_HOME if it is one, else the
# newest under /usr/lib/jvm), or prints why not and exits 1.

jdk_feature() { # prints the feature release of the JDK at $1 (e.g. 25), or nothing
    [ -x "$1/bin/java" ] || return 0
    sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release" 2>/dev/null
}

find_jdk() {
    local v best="" best_v=0 d
    if [ -n "${JAVA_HOME:-}" ]; then
        v=$(jdk_feature "$JAVA_HOME")
        if [ -n "$v" ] && [ "$v" -ge 21 ]; then
            FULCRUM_JAVA_HOME=$JAVA_HOME
            FULCRUM_JAVA_FEATURE=$v
            return 0
        fi
    fi
    for d in /usr/lib/jvm/*/; do
        d=${d%/}
        v=$(jdk_feature "$d")
        if [ -n "$v" ] && [ "$v" -ge 21 ] && [ "$v" -gt "$best_v" ] && [ -x "$d/bin/javac" ]; then
            best=$d
            best_v=$v
        fi
    done
    if [ -z "$best" ]; then
        echo "fulcrum: no JDK >= 21 found (JAVA_HOME=${JAVA_HOME:-unset}, nothing suitable under /usr/lib/jvm)." >&2
        echo "fulcrum: install one (e.g. apt-get install openjdk-21-jdk-headless) or set JAVA_HOME to it." >&2
        exit 1
    fi
    FULCRUM_JAVA_HOME=$best
    FULCRUM_JAVA_FEATURE=$best_v
}

# JVM flags every Fulcrum JVM gets. Netty uses sun.misc.Unsafe for direct buffers; JDK 24+ asks for
# permission (the flag does not exist before 23). Netty's leak detector is off: at its default level it
# records a stack trace for one buffer in 128, a few per cent of the CPU of a busy proxy; the tests run it
# at "paranoid", and FULCRUM_JAVA_OPTS (which comes after these flags) can turn it back on.
# The parallel collector, unless FULCRUM_JAVA_OPTS picks one: its write barriers are lighter than G1's, about 8%
# less CPU per proxied request (bench h1-keepalive), and a proxy's live heap is small, so its pauses are short.
# As root, the JIT's compiler threads run at a higher priority than the event loops (nice -4, the JVM's mapping of
# ThreadPriorityPolicy=1): its work is done once and makes every later request cheaper, and at nice 0 on a busy box
# it was still compiling 10 s into the load, the loops running slower code meanwhile (bench many-servers rig, 5 s of
# warm-up then 10 s measured, 2026-12-02: 15% more requests/s and 20% less CPU per request, p99 halved). Only root
# may raise a priority; for any other user the JVM would warn and ignore the flag.
# C2 inlines a method already compiled to at most 1000 bytes of machine code, not 2500 (InlineSmallCode): the pipeline's
# roots each inlined most of the data path again (7 to 9 KB of bytecode, 0.4 to 1 s of compiling each), and with
# a connection per request the JIT was still busy 20 s into the load. With 1000 (bench rig, 2026-12-02): h1-close
# 30% more requests/s in the first 15 s, many-servers 15% more, and 10% more once warm (smaller code, same work).
# C1's profiling code takes over after 20 calls, not 200 (the Tier3 thresholds): a load's first connections are
# accepted in a burst at its start, and with the default thresholds those accepts ran before the shared Netty call
# sites were profiled, so the next load's first accept made C2 recompile the pipeline's roots. With them recorded: C2
# used 1.1 s of a 10 s window instead of ~3, bench many-servers x0.91 -> x0.96 and h1-close x0.83 -> x0.92 of haproxy,
# p99 lower; start-up unchanged.
fulcrum_jvm_flags() {
    echo -XX:+ExitOnOutOfMemoryError
    echo -XX:Tier3InvocationThreshold=20 -XX:Tier3MinInvocationThreshold=10 -XX:Tier3CompileThreshold=200 -XX:Tier3BackEdgeThreshold=6000
    if [ "${EUID:-$(id -u)}" -eq 0 ]; then
        echo -XX:ThreadPriorityPolicy=1
    fi
    echo -XX:InlineSmallCode=1000
    echo -Dio.netty.leakDetection.level=disabled
    case "${FULCRUM_JAVA_OPTS:-}" in
        *-XX:+Use*GC*) ;;
        *) echo -XX:+UseParallelGC ;;
    esac
    if [ "$FULCRUM_JAVA_FEATURE" -ge 23 ]; then
        echo --sun-misc-unsafe-memory-access=allow
    fi
}

# The AOT cache flags for the jar at $1: its cache (written by bin/lib/aot-train.sh at build time) when this JDK
# has AOT caches and the cache is newer than the jar. A cache the JVM cannot use (other JDK, other flags) is
# skipped silently: -Xlog keeps the JVM's complaint out of Fulcrum's output. The JVM takes the cache's classes and
# the method profiles of the training run: C2 compiles the data path sooner after a start. With the profiles
# (2026-12-04, bench tls-handshake, a new JVM per round, 5 s of warm-up then 10 s measured) the C2 thread used 1.3
# to 1.7 s of CPU in the measured 10 s instead of 1.9 to 2.4, and Fulcrum's CPU per handshake went from 0.73 to
# 0.65 ms (0.56 to 0.49 on a quieter hour); h1-keepalive, h1-close and many-servers were unchanged within the
# box's noise. They were off from 2026-12-02, when they cost h1-keepalive 7 to 10%; no run here showed that again.
fulcrum_aot_flags() {
    local cache="${1%.jar}.aot"
    if [ "$FULCRUM_JAVA_FEATURE" -ge 25 ] && [ -f "$cache" ] && [ "$cache" -nt "$1" ]; then
        echo -XX:AOTCache="$cache"
        echo -Xlog:aot=off,cds=off
    fi
}
