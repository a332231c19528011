package io.fulcrum.runtime;

import io.fulcrum.Features;
import io.fulcrum.Version;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.uring.IoUring;

/** What {@code -v} and {@code -vv} print, in HAProxy's layout. */
public final class VersionReport {
    private VersionReport() {
    }

    public static String text(boolean build) {
        StringBuilder sb = new StringBuilder();
        sb.append("Fulcrum version ").append(Version.FULCRUM).append(' ').append(Version.DATE).append('\n');
        sb.append("HAProxy language: ").append(Version.HAPROXY)
                .append(" (configuration, command line, signals; see docs/keywords.md for the keywords implemented)\n");
        sb.append("Running on: ").append(System.getProperty("os.name")).append(' ').append(System.getProperty("os.version"))
                .append(' ').append(System.getProperty("os.arch")).append(", Java ").append(Runtime.version()).append('\n');
        if (!build) {
            return sb.toString();
        }
        sb.append("Build options :\n");
        sb.append("  TARGET  = jvm\n");
        sb.append("  JAVA    = ").append(System.getProperty("java.vm.name")).append(' ').append(Runtime.version()).append('\n');
        sb.append("  NETTY   = ").append(nettyVersion()).append('\n');
        sb.append('\n');
        sb.append("Feature list : ").append(Features.list()).append("\n\n");
        sb.append("Default settings :\n");
        sb.append("  maxconn = derived from the file descriptor limit, nbthread = available CPUs (")
                .append(Runtime.getRuntime().availableProcessors()).append(")\n\n");
        sb.append("Built with multi-threading support (MAX_THREADS=64, default=")
                .append(Runtime.getRuntime().availableProcessors()).append(").\n\n");
        sb.append("Available polling systems :\n");
        // io_uring first: the loops take it unless the configuration has what is epoll's (PollerChoice).
        sb.append("   io_uring : pref=350,  test result ").append(IoUring.isAvailable() ? "OK" : "FAILED").append('\n');
        sb.append("      epoll : pref=300,  test result ").append(Epoll.isAvailable() ? "OK" : "FAILED").append('\n');
        sb.append("        nio : pref=200,  test result OK\n");
        int usable = 1 + (Epoll.isAvailable() ? 1 : 0) + (IoUring.isAvailable() ? 1 : 0);
        sb.append("Total: 3 (").append(usable).append(" usable), will use ")
                .append(IoUring.isAvailable() ? "io_uring" : Epoll.isAvailable() ? "epoll" : "nio").append(".\n\n");
        sb.append("Available multiplexer protocols :\n");
        sb.append("(protocols marked as <default> cannot be specified using 'proto' keyword)\n");
        sb.append("  <default> : mode=TCP   side=FE|BE  mux=PASS  flags=\n");
        sb.append("       none : mode=TCP   side=FE|BE  mux=PASS  flags=NO_UPG\n\n");
        sb.append("Available services : none\n");
        sb.append("Available filters : none\n");
        return sb.toString();
    }

    private static String nettyVersion() {
        var v = io.netty.util.Version.identify().get("netty-transport");
        return v == null ? "unknown" : v.artifactVersion();
    }
}
