package io.fulcrum.conn;

import java.net.InetAddress;
import java.net.InetSocketAddress;

/** A socket address as written in the configuration: an IP address and port, a unix socket, or an inherited fd. */
public sealed interface Endpoint {

    /** How the address family was chosen: by a prefix ({@code ipv4@}, {@code ipv6@}) or by the address itself. */
    enum Family { ANY, IPV4, IPV6 }

    /** An IP socket. {@code host} is the wildcard address for "all interfaces". */
    record Inet(InetAddress host, int port, Family family) implements Endpoint {
        public InetSocketAddress socketAddress() {
            return new InetSocketAddress(host, port);
        }

        @Override
        public String toString() {
            String h = host.getHostAddress();
            return (h.indexOf(':') >= 0 ? "[" + h + "]" : h) + ":" + port;
        }
    }

    /** A unix stream socket; {@code abstractNamespace} for Linux's abstract namespace ({@code abns@}). */
    record Unix(String path, boolean abstractNamespace) implements Endpoint {
        @Override
        public String toString() {
            return (abstractNamespace ? "abns@" : "unix@") + path;
        }
    }

    /** A socket inherited from the parent process ({@code fd@N}). */
    record Fd(int fd) implements Endpoint {
        @Override
        public String toString() {
            return "fd@" + fd;
        }
    }
}
