package io.fulcrum.log;

import io.fulcrum.cfg.ConfigException;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/** Where a {@code log} line sends its messages: a syslog server over UDP, a unix datagram socket, or stdout/stderr. */
sealed interface LogDestination {

    int DEFAULT_PORT = 514;

    record Udp(InetSocketAddress address) implements LogDestination {
        @Override
        public String toString() {
            return address.getAddress().getHostAddress() + ":" + address.getPort();
        }
    }

    /** A unix datagram socket, such as /dev/log. */
    record UnixSocket(String path) implements LogDestination {
        @Override
        public String toString() {
            return path;
        }
    }

    /** The process's standard output (1) or error (2). */
    record Stream(int fd) implements LogDestination {
        @Override
        public String toString() {
            return fd == 1 ? "stdout" : "stderr";
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
                    return new UnixSocket(rest);
                }
                case "fd" -> {
                    if (rest.isEmpty() || !rest.chars().allMatch(Character::isDigit)) {
                        throw new ConfigException("file descriptor '" + rest + "' is not a valid integer in '" + text + "'");
                    }
                    throw new ConfigException("'" + text + "': file descriptors other than 1 and 2 are not supported by Fulcrum yet");
                }
                case "ring", "tcp", "tcp4", "tcp6", "uxst", "abns" ->
                        throw new ConfigException("'" + prefix + "@' log targets are not supported by Fulcrum yet");
                default -> throw new ConfigException("unknown address family '" + prefix + "' in '" + text + "'");
            }
        } else if (text.startsWith("/")) {
            return new UnixSocket(text);
        }
        String host = rest;
        int port = DEFAULT_PORT;
        int colon = rest.lastIndexOf(':');
        boolean bracketed = rest.startsWith("[") && rest.indexOf(']') > 0;
        if (colon >= 0 && (!bracketed || colon > rest.indexOf(']'))) {
            host = rest.substring(0, colon);
            String p = rest.substring(colon + 1);
            if (!p.isEmpty()) {
                port = port(p);
            }
        }
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        return new Udp(new InetSocketAddress(resolve(host, family, text), port));
    }

    private static int port(String p) throws ConfigException {
        if (p.length() > 5 || !p.chars().allMatch(Character::isDigit) || Integer.parseInt(p) > 65535) {
            throw new ConfigException("invalid port '" + p + "'");
        }
        int v = Integer.parseInt(p);
        return v == 0 ? DEFAULT_PORT : v;
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
