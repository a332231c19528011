package io.fulcrum.server;

import io.fulcrum.cfg.Source;
import io.fulcrum.conn.Endpoint;
import io.fulcrum.conn.NetNamespace;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A {@code server} line, or the {@code default-server} template that server lines start from.
 * The address is resolved when the line is parsed (HAProxy's {@code init-addr libc}).
 */
public final class ServerSpec implements Cloneable {

    /** How the port to connect to is chosen (configuration.txt 5.2, "server ... address"). */
    public enum PortMode {
        /** The port written on the line. */
        FIXED,
        /** No port: the port the client connected to. */
        CLIENT,
        /** {@code +N} or {@code -N}: the client's destination port shifted by {@link #port}. */
        OFFSET
    }

    public String name;
    public Source source;
    /** The address, or null when it could not be resolved and {@code init-addr none} allows that. */
    public Endpoint endpoint;
    public String addressText;
    /** Whether the address is a name to resolve rather than an IP address ({@code init-addr} then applies). */
    public boolean hostname;
    /** The host name of the address when it is one (resolvers resolve it again at run time), else null. */
    public String fqdn;
    /** The SRV record name ({@code _service._proto.name}) whose targets fill this server at run time, else null. */
    public String srvRecord;
    public PortMode portMode = PortMode.FIXED;
    /** The fixed port, or the offset for {@link PortMode#OFFSET}. */
    public int port;

    public int weight = 1;
    public boolean disabled;
    /** Concurrent transactions it takes (0: no limit); with {@link #minconn} the limit follows the backend's load. */
    public int maxconn;
    /** The least the dynamic limit goes down to (0: as {@link #maxconn}); see the backend's {@code fullconn}. */
    public int minconn;
    /** Transactions that may wait in its queue (0: no limit). */
    public int maxqueue;
    /** {@code slowstart}: how long a server that comes back up ramps up its weight and maxconn, in ms (0: none). */
    public long slowstart;
    /** The {@code id} given on the line, 0 when it was left out (the backend assigns one). */
    public int id;
    /** Used only when no active server is usable. */
    public boolean backup;
    /** The {@code cookie} value, kept for cookie persistence; null when none. */
    public String cookie;
    /** 0: no PROXY header; 1 or 2: {@code send-proxy} or {@code send-proxy-v2}. */
    public int sendProxy;
    /** {@code proxy-v2-options} (and send-proxy-v2-ssl[-cn]): the TLVs of a v2 header, {@code ProxyHeader.TLV_*} bits. */
    public int proxyV2Options;
    /** {@code redir}: GET and HEAD requests get a 302 to this prefix followed by their path; null: none. */
    public String redirect;
    /** {@code non-stick}: stick store rules do not record this server. */
    public boolean nonStick;
    /** {@code tcp-ut}: TCP_USER_TIMEOUT (ms) of the connections to the server; 0: the system's. */
    public int tcpUserTimeout;
    /** {@code tfo}: connections to the server use TCP fast open (the SYN carries the first data). */
    public boolean tfo;
    /** {@code namespace}: the network namespace of the connections to the server; null: the process's. */
    public NetNamespace namespace;
    /** {@code proto}: "h1", "none" or null (the backend's mode's own); checked against the mode once it is known. */
    public String proto;
    /** {@code init-addr}: the methods tried in order ("last", "libc", "none", or an IP address). */
    public String initAddr = "last,libc";
    /** An {@code init-addr} line chose the methods (here or on default-server). */
    public boolean initAddrSet;
    /** {@code resolvers} names a section resolving the server at run time: the default methods end with "none" then. */
    public boolean resolvedAtRunTime;
    /** The layer between the connection and the mux (TLS), set by the subsystem providing it; null for none. */
    public ServerTransport transport;
    /** Added at run time ({@code add server}): it starts in forced maintenance, and no other server may track it. */
    public boolean dynamic;
    /** The line says {@code enabled} (after any {@code disabled}): a dynamic server starts ready. */
    public boolean enabled;
    /** Named by another element of the configuration ({@code use-server}, a fetch's argument): {@code del server} refuses it. */
    public boolean referenced;
    /** What other subsystems keep per server (the checks' settings, the TLS options...), by type. */
    private Map<Class<?>, ServerPart> parts = new HashMap<>();

    /** A server at {@code address} (port mandatory and fixed) with no option: {@code dispatch}'s, {@code socks4}'s. */
    public static ServerSpec fixedAddress(String name, String address) throws io.fulcrum.cfg.ConfigException {
        return ServerAddress.fixed(name, address);
    }

    /**
     * A server at 0.0.0.0 without a port, with no option: it connects to the stream's destination, address and port
     * ({@code option transparent}'s).
     */
    public static ServerSpec destination(String name) {
        ServerSpec s = new ServerSpec();
        s.name = name;
        try {
            ServerAddress.parse(s, "0.0.0.0"); // as a server line says it
        } catch (io.fulcrum.cfg.ConfigException e) {
            throw new IllegalStateException(e); // (a literal address always parses)
        }
        return s;
    }

    /** What a subsystem keeps in a server line; copied when a server line starts from default-server. */
    public interface ServerPart {
        ServerPart copy();
    }

    /** The part of type {@code type}, created by {@code create} when absent. */
    public <T extends ServerPart> T part(Class<T> type, Supplier<T> create) {
        return type.cast(parts.computeIfAbsent(type, t -> create.get()));
    }

    /** The part of type {@code type}, or null. */
    public <T extends ServerPart> T partOrNull(Class<T> type) {
        return type.cast(parts.get(type));
    }

    /** A copy, for a server line starting from the default-server template. */
    public ServerSpec copy() {
        try {
            ServerSpec c = (ServerSpec) clone();
            c.parts = new HashMap<>();
            parts.forEach((type, part) -> c.parts.put(type, part.copy()));
            return c;
        } catch (CloneNotSupportedException e) {
            throw new AssertionError(e);
        }
    }
}
