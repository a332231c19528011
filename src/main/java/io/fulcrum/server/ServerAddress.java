package io.fulcrum.server;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.conn.Endpoint;
import io.fulcrum.conn.PortText;
import io.fulcrum.conn.InetText;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * A server's address: {@code [ip@|ipv4@|ipv6@|unix@]host[:port|:+N|:-N]} or a unix path. Host names are
 * resolved now, following the server's {@code init-addr} methods.
 */
final class ServerAddress {
    private ServerAddress() {
    }

    static void parse(ServerSpec s, String text) throws ConfigException {
        s.addressText = text;
        String rest = text;
        Endpoint.Family family = Endpoint.Family.ANY;
        int at = text.indexOf('@');
        if (at >= 0) {
            String prefix = text.substring(0, at);
            rest = text.substring(at + 1);
            switch (prefix) {
                case "ipv4", "tcp4" -> family = Endpoint.Family.IPV4;
                case "ipv6", "tcp6" -> family = Endpoint.Family.IPV6;
                case "ip", "tcp" -> { }
                case "unix" -> {
                    s.endpoint = Endpoint.Unix.checked(rest, false, text);
                    return;
                }
                case "abns" -> {
                    s.endpoint = Endpoint.Unix.checked(rest, true, text);
                    return;
                }
                default -> throw new ConfigException("address family '" + prefix + "@' not supported for servers in '" + text + "'");
            }
        } else if (text.startsWith("/")) {
            s.endpoint = Endpoint.Unix.checked(text, false, text);
            return;
        }
        String host = rest;
        int colon = rest.lastIndexOf(':');
        // As HAProxy's str2sa_range(): the last colon separates the port unless a ']' follows it. "::1:80" is ::1 port 80,
        // and a bare "::1" is host ':' port 1, which does not resolve: an IPv6 address without a port needs brackets.
        if (colon >= 0 && rest.lastIndexOf(']') < colon) {
            host = rest.substring(0, colon);
            port(s, rest.substring(colon + 1), text);
        } else {
            s.portMode = ServerSpec.PortMode.CLIENT;
            s.port = 0;
        }
        String written = host; // as errors quote it
        if (host.isEmpty() || host.equals("*")) {
            // No host is the family's any-address, as str2ip2() reads it: 0.0.0.0, or :: after ipv6@.
            host = family == Endpoint.Family.IPV6 ? "::" : "0.0.0.0";
        } else if (host.length() > 2 && host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        // A name is anything inet_pton() does not read, as in HAProxy: "127.1" resolves and shows as an fqdn, and
        // ':' (from "ipv6@::1") is a name which add server keeps unresolved.
        InetAddress literal = InetText.literal(host);
        s.hostname = literal == null;
        if (host.startsWith("_")) {
            // An SRV record: its targets come at run time (init-addr does not apply, as in HAProxy).
            s.srvRecord = host;
            s.fqdn = null;
            s.endpoint = null;
            return;
        }
        s.srvRecord = null;
        s.fqdn = s.hostname ? host : null;
        s.endpoint = resolve(s, host, literal, written, family);
    }

    /**
     * An address whose port is mandatory and fixed ({@code dispatch}, {@code socks4}), as a server without options, with
     * the wording of HAProxy's str2sa_range().
     */
    static ServerSpec fixed(String name, String text) throws ConfigException {
        if (text.isEmpty()) {
            throw new ConfigException("'" + text + "' resolves to an empty address (environment variable missing?)");
        }
        ServerSpec s = new ServerSpec();
        s.name = name;
        boolean path = text.startsWith("/") || text.startsWith("unix@") || text.startsWith("abns@");
        int colon = path ? -1 : text.lastIndexOf(':');
        String port = colon < 0 ? "" : text.substring(colon + 1);
        if (port.contains("-")) {
            throw new ConfigException("port range not permitted here in '" + text + "'");
        }
        if (port.startsWith("+")) {
            throw new ConfigException("port offset not permitted here in '" + text + "'");
        }
        try {
            parse(s, text);
        } catch (ConfigException e) {
            int at = text.indexOf('@') + 1;
            String host = text.substring(at, colon < at ? text.length() : colon);
            throw new ConfigException("invalid address: '" + host + "' in '" + text + "'");
        }
        if (s.endpoint instanceof Endpoint.Inet && s.portMode == ServerSpec.PortMode.CLIENT && !port.isEmpty()) {
            throw new ConfigException("invalid port '" + port + "'");
        }
        if (s.endpoint instanceof Endpoint.Inet && s.portMode != ServerSpec.PortMode.FIXED) {
            throw new ConfigException(s.portMode == ServerSpec.PortMode.CLIENT ? "missing port specification in '" + text + "'"
                    : "port offset not permitted here in '" + text + "'");
        }
        return s;
    }

    private static void port(ServerSpec s, String p, String text) throws ConfigException {
        PortText port = PortText.parse(p, text, PortText.Allow.OFFSET);
        // As HAProxy: an empty port or 0 is no port, the client's is used.
        s.portMode = port.offset() ? ServerSpec.PortMode.OFFSET
                : port.low() == 0 ? ServerSpec.PortMode.CLIENT : ServerSpec.PortMode.FIXED;
        s.port = port.low();
    }

    /** Follows {@code init-addr}: "libc" resolves, "none" accepts no address, an IP address is used as is. */
    private static Endpoint resolve(ServerSpec s, String host, InetAddress literal, String written, Endpoint.Family family)
            throws ConfigException {
        int port = s.portMode == ServerSpec.PortMode.FIXED ? s.port : 0;
        for (String method : s.initAddr.split(",")) {
            switch (method) {
                case "last" -> { } // no server-state file yet: nothing to reuse
                case "libc", "none" -> {
                    if (method.equals("none") && s.hostname) {
                        return null;
                    }
                    // (an IP address needs no resolution: init-addr none is for names)
                    // A literal is taken as inet_pton() reads it (::ffff:127.0.0.1 stays IPv6), and only in its own family.
                    if (literal != null && family != Endpoint.Family.ANY
                            && (literal instanceof Inet4Address) != (family == Endpoint.Family.IPV4)) {
                        continue;
                    }
                    try {
                        InetAddress a = literal != null ? literal
                                : family == Endpoint.Family.ANY ? InetAddress.getByName(host) : pick(host, family);
                        return new Endpoint.Inet(a, port, family);
                    } catch (UnknownHostException e) {
                        // try the next method
                    }
                }
                default -> {
                    try {
                        return new Endpoint.Inet(InetAddress.getByName(method), port, family);
                    } catch (UnknownHostException e) {
                        throw new ConfigException("invalid init-addr address '" + method + "'");
                    }
                }
            }
        }
        throw new ConfigException("could not resolve address '" + written + "'.");
    }

    private static InetAddress pick(String host, Endpoint.Family family) throws UnknownHostException {
        for (InetAddress a : InetAddress.getAllByName(host)) {
            if ((a instanceof Inet4Address) == (family == Endpoint.Family.IPV4)) {
                return a;
            }
        }
        throw new UnknownHostException(host);
    }

    /** True when {@code text} is a literal IPv4 or IPv6 address (no name lookup). */
    /** An IP address as inet_pton() reads one: four decimal bytes, or IPv6 (a word with colons). */
    static boolean isStrictIp(String text) {
        return text.matches("((25[0-5]|2[0-4][0-9]|1?[0-9]?[0-9])\\.){3}(25[0-5]|2[0-4][0-9]|1?[0-9]?[0-9])")
                || text.contains(":") && isIp(text);
    }

    static boolean isIp(String text) {
        return text.matches("[0-9.]+") || text.contains(":") && text.matches("[0-9a-fA-F:.]+");
    }
}
