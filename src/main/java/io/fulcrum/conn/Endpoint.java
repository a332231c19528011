package io.fulcrum.conn;

import io.fulcrum.cfg.ConfigException;
import io.netty.channel.unix.DomainSocketAddress;

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
            return InetText.bracketed(host) + ":" + port;
        }
    }

    /** A unix stream socket; {@code abstractNamespace} for Linux's abstract namespace ({@code abns@}). */
    record Unix(String path, boolean abstractNamespace) implements Endpoint {
        /**
         * The longest path HAProxy takes: sun_path's 108 bytes less its NUL, and for a file less room for the
         * ".<pid>.tmp" name a listener binds first (see Listener); {@code text} is the address as written.
         */
        public static Unix checked(String path, boolean abstractNamespace, String text) throws ConfigException {
            int max = abstractNamespace ? 107 : 97;
            if (path.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > max) {
                throw new ConfigException("socket path '" + text + "' too long (max " + max + ")");
            }
            return new Unix(path, abstractNamespace);
        }

        /**
         * The address to bind or connect to; an abstract one is a NUL and the name, its length the name's (HAProxy 2.6
         * fills the whole sun_path with NULs, which Netty's native calls cannot: docs/differences.md).
         */
        public DomainSocketAddress socketAddress() {
            return new DomainSocketAddress(abstractNamespace ? "\0" + path : path);
        }

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
