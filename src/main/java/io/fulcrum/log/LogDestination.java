package io.fulcrum.log;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.conn.PortText;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;

/**
 * Where a {@code log} line sends its messages: a syslog server over UDP or TCP, a unix datagram socket, a file
 * descriptor (stdout, stderr...), or a ring buffer.
 */
sealed interface LogDestination {

    int DEFAULT_PORT = 514;

    record Udp(InetSocketAddress address) implements LogDestination {
        @Override
        public String toString() {
            return address.getAddress().getHostAddress() + ":" + address.getPort();
        }
    }

    /** A unix datagram socket, such as /dev/log, or one in Linux's abstract namespace ({@code abns@}). */
    record UnixSocket(String path, boolean abstractNamespace) implements LogDestination {
        /** The length of sun_path in struct sockaddr_un. */
        private static final int SUN_PATH = 108;

        /**
         * The address messages are sent to: an abstract one is named as HAProxy names it, a NUL, the name and NULs
         * filling the whole sun_path (a receiver bound for HAProxy gets the messages).
         */
        byte[] address() {
            byte[] name = path.getBytes(StandardCharsets.UTF_8);
            if (!abstractNamespace) {
                return name;
            }
            byte[] padded = new byte[SUN_PATH];
            System.arraycopy(name, 0, padded, 1, name.length);
            return padded;
        }

        @Override
        public String toString() {
            return abstractNamespace ? "abns@" + path : path;
        }
    }

    /** A file descriptor the process inherited: standard output (1), error (2), or another one ({@code fd@N}). */
    record Stream(int fd) implements LogDestination {
        @Override
        public String toString() {
            return fd == 1 ? "stdout" : fd == 2 ? "stderr" : "fd@" + fd;
        }
    }

    /** A ring buffer ({@code ring@<name>}), checked once every ring section is known. */
    record Ring(String name) implements LogDestination {
        @Override
        public String toString() {
            return "ring@" + name;
        }
    }

    /**
     * A syslog server over a stream socket: TCP ({@code tcp@<addr:port>}) or a unix stream socket
     * ({@code uxst@<path>}). As in HAProxy, the process gives it a ring of its own ("ring#N") whose forwarder sends
     * the messages; the sender only ever sees that ring.
     */
    record Tcp(SocketAddress address) implements LogDestination {
        @Override
        public String toString() {
            return address instanceof InetSocketAddress i ? "tcp@" + i.getAddress().getHostAddress() + ":" + i.getPort()
                    : "uxst@" + address;
        }
    }

    /** Parses HAProxy's log address syntax; host names are resolved now, as HAProxy does at start-up. */
    static LogDestination parse(String text) throws ConfigException {
        switch (text) {
            case "stdout", "fd@1" -> {
                return new Stream(1);
            }
            case "stderr", "fd@2" -> {
                return new Stream(2);
            }
            default -> { }
        }
        String rest = text;
        int family = 0;
        int at = text.indexOf('@');
        if (at >= 0) {
            String prefix = text.substring(0, at);
            rest = text.substring(at + 1);
            switch (prefix) {
                case "ipv4", "udp4" -> family = 4;
                case "ipv6", "udp6" -> family = 6;
                case "udp" -> family = 0;
                case "unix", "uxdg" -> {
                    return new UnixSocket(rest, false);
                }
                case "fd" -> {
                    if (rest.isEmpty() || rest.length() > 9 || !rest.chars().allMatch(Character::isDigit)) {
                        throw new ConfigException("file descriptor '" + rest + "' is not a valid integer in '" + text + "'");
                    }
                    return new Stream(Integer.parseInt(rest));
                }
                case "ring" -> {
                    return new Ring(rest);
                }
                case "tcp", "tcp4", "tcp6" -> {
                    return new Tcp(inet(rest, prefix.equals("tcp4") ? 4 : prefix.equals("tcp6") ? 6 : 0, text));
                }
                case "uxst" -> {
                    if (rest.isEmpty()) {
                        throw new ConfigException("missing path in '" + text + "'");
                    }
                    return new Tcp(UnixDomainSocketAddress.of(rest));
                }
                case "abns" -> {
                    if (rest.getBytes(StandardCharsets.UTF_8).length > 107) {
                        throw new ConfigException("socket path '" + text + "' too long (max 107)");
                    }
                    return new UnixSocket(rest, true);
                }
                default -> throw new ConfigException("unknown address family '" + prefix + "' in '" + text + "'");
            }
        } else if (text.startsWith("/")) {
            return new UnixSocket(text, false);
        }
        return new Udp(inet(rest, family, text));
    }

    /** {@code <host>[:<port>]}, IPv6 addresses in brackets; the port defaults to syslog's. */
    private static InetSocketAddress inet(String rest, int family, String text) throws ConfigException {
        String host = rest;
        int port = DEFAULT_PORT;
        int colon = rest.lastIndexOf(':');
        boolean bracketed = rest.startsWith("[") && rest.indexOf(']') > 0;
        if (colon >= 0 && (!bracketed || colon > rest.indexOf(']'))) {
            host = rest.substring(0, colon);
            int p = PortText.parse(rest.substring(colon + 1), text, PortText.Allow.PORT).low();
            port = p == 0 ? DEFAULT_PORT : p;
        }
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        return new InetSocketAddress(resolve(host, family, text), port);
    }

    /** The address of a ring's {@code server}: {@code [tcp@|ipv4@|ipv6@]<host>[:<port>]} or {@code uxst@<path>}. */
    static SocketAddress streamAddress(String text) throws ConfigException {
        return switch (parse(text)) {
            case Udp u -> u.address();
            case Tcp t -> t.address();
            default -> throw new ConfigException("invalid address: '" + text + "'");
        };
    }

    private static InetAddress resolve(String host, int family, String whole) throws ConfigException {
        try {
            for (InetAddress a : InetAddress.getAllByName(host)) {
                if (family == 0 || family == 4 && a instanceof Inet4Address || family == 6 && a instanceof Inet6Address) {
                    return a;
                }
            }
        } catch (UnknownHostException e) {
            // reported below
        }
        throw new ConfigException("invalid address: '" + host + "' in '" + whole + "'");
    }
}
