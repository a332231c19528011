package io.fulcrum.conn;

import io.fulcrum.cfg.ConfigException;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses HAProxy's socket address syntax: optional family prefix ({@code ipv4@}, {@code ipv6@},
 * {@code unix@}, {@code abns@}, {@code fd@}), then {@code host:port}, a unix path or a file descriptor.
 * Host names are resolved at once, as HAProxy does at start-up.
 */
public final class AddressParser {
    private AddressParser() {
    }

    /** The listening addresses of a {@code bind} or {@code stats socket} argument: comma lists and port ranges expand. */
    public static List<Endpoint> listeners(String text) throws ConfigException {
        List<Endpoint> out = new ArrayList<>();
        for (String one : text.split(",", -1)) {
            if (one.isEmpty()) {
                throw new ConfigException("missing address in '" + text + "'");
            }
            parseListener(one, out);
        }
        return out;
    }

    private static void parseListener(String text, List<Endpoint> out) throws ConfigException {
        String rest = text;
        Endpoint.Family family = Endpoint.Family.ANY;
        int at = text.indexOf('@');
        if (at >= 0) {
            String prefix = text.substring(0, at);
            rest = text.substring(at + 1);
            switch (prefix) {
                case "ipv4", "tcp4" -> family = Endpoint.Family.IPV4;
                case "ipv6", "tcp6" -> family = Endpoint.Family.IPV6;
                case "ip", "tcp" -> family = Endpoint.Family.ANY;
                case "unix" -> {
                    out.add(Endpoint.Unix.checked(rest, false, text));
                    return;
                }
                case "abns" -> {
                    out.add(Endpoint.Unix.checked(rest, true, text));
                    return;
                }
                case "fd" -> {
                    out.add(new Endpoint.Fd(fd(rest, text)));
                    return;
                }
                case "quic4", "quic6" -> throw new ConfigException("unsupported stream protocol for datagram family "
                        + (prefix.equals("quic4") ? 2 : 10) + " address '" + text + "'; QUIC is not compiled in if this is what you were looking for.");
                case "udp", "udp4", "udp6", "uxdg" -> throw new ConfigException("dgram-type address not acceptable in '" + text + "'");
                case "sockpair" -> throw new ConfigException("'sockpair@' addresses are not supported by Fulcrum yet in '" + text + "'");
                default -> throw new ConfigException("unknown address family '" + prefix + "' in '" + text + "'");
            }
        } else if (text.startsWith("/")) {
            out.add(Endpoint.Unix.checked(text, false, text));
            return;
        }
        int colon = rest.lastIndexOf(':');
        PortText ports = PortText.parse(colon < 0 ? "" : rest.substring(colon + 1), text, PortText.Allow.MANDATORY_RANGE);
        if (ports.high() < ports.low()) {
            throw new ConfigException("invalid port range '" + ports.low() + "-" + ports.high() + "'");
        }
        InetAddress host = host(rest.substring(0, colon), family, text);
        int low = ports.low();
        int high = ports.high();
        for (int p = low; p <= high; p++) {
            out.add(new Endpoint.Inet(host, p, family));
        }
    }

    /** A host part: empty or '*' is every address of the family; brackets are allowed around IPv6. */
    static InetAddress host(String h, Endpoint.Family family, String whole) throws ConfigException {
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        try {
            if (h.isEmpty() || h.equals("*")) {
                return family == Endpoint.Family.IPV6 ? InetAddress.getByName("::") : InetAddress.getByName("0.0.0.0");
            }
            InetAddress a = InetAddress.getByName(h);
            if (family == Endpoint.Family.IPV4 && !(a instanceof Inet4Address)
                    || family == Endpoint.Family.IPV6 && !(a instanceof Inet6Address)) {
                a = resolve(h, family);
            }
            return a;
        } catch (UnknownHostException e) {
            throw new ConfigException("invalid address: '" + h + "' in '" + whole + "'");
        }
    }

    private static InetAddress resolve(String h, Endpoint.Family family) throws UnknownHostException {
        for (InetAddress a : InetAddress.getAllByName(h)) {
            if (family == Endpoint.Family.IPV4 ? a instanceof Inet4Address : a instanceof Inet6Address) {
                return a;
            }
        }
        throw new UnknownHostException(h);
    }

    /** An inherited socket: must be an open socket descriptor of this process. */
    private static int fd(String text, String address) throws ConfigException {
        if (text.isEmpty() || !text.chars().allMatch(Character::isDigit) || text.length() > 9) {
            throw new ConfigException("file descriptor '" + text + "' is not a valid integer in '" + address + "'");
        }
        int fd = Integer.parseInt(text);
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd)).toString();
            if (!target.startsWith("socket:")) {
                throw new ConfigException("cannot use file descriptor '" + fd + "' : Socket operation on non-socket.");
            }
        } catch (IOException e) {
            throw new ConfigException("cannot use file descriptor '" + fd + "' : Bad file descriptor.");
        }
        return fd;
    }
}
