package io.fulcrum.conn;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.server.Server;
import io.fulcrum.server.ServerSpec;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;

import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * {@code source <addr>[:<port>[-<high>]]}: the local address of the connections to servers, on a backend (one
 * port at most) or a server line (a range of ports, each used by one connection at a time, as HAProxy's
 * port_range). Transparent proxying ({@code usesrc}) and {@code interface} are refused at load.
 */
public final class SourceAddress {
    private final InetAddress host;
    private final int low;
    private final int high;
    /** The free ports of a range (null without one): taken by a connection, given back when it closes. */
    private final ConcurrentLinkedQueue<Integer> free;

    private SourceAddress(InetAddress host, int low, int high) {
        this.host = host;
        this.low = low;
        this.high = high;
        if (high > low) {
            free = new ConcurrentLinkedQueue<>();
            for (int p = low; p <= high; p++) {
                free.add(p);
            }
        } else {
            free = null;
        }
    }

    /** Parses the address of a {@code source} keyword; {@code range}: a port range is allowed (server lines). */
    public static SourceAddress parse(String text, boolean range) throws ConfigException {
        String where = "'source " + text + "' : ";
        String rest = text.startsWith("ipv4@") || text.startsWith("ipv6@") ? text.substring(5) : text;
        Endpoint.Family family = text.startsWith("ipv4@") ? Endpoint.Family.IPV4
                : text.startsWith("ipv6@") ? Endpoint.Family.IPV6 : Endpoint.Family.ANY;
        int colon = rest.lastIndexOf(':');
        boolean bracketed = rest.startsWith("[") && rest.endsWith("]");
        boolean bareV6 = rest.indexOf(':') != colon;
        String h = colon < 0 || bracketed || bareV6 && !rest.contains("]") ? rest : rest.substring(0, colon);
        String portText = h.equals(rest) ? "" : rest.substring(colon + 1);
        InetAddress host;
        try {
            host = AddressParser.host(h, family, rest);
        } catch (ConfigException e) {
            throw new ConfigException(where + e.getMessage());
        }
        PortText ports;
        try {
            ports = PortText.parse(portText, text, range ? PortText.Allow.RANGE : PortText.Allow.PORT);
        } catch (ConfigException e) {
            throw new ConfigException(where + e.getMessage() + (range ? "." : "")); // (a server's, as HAProxy words it)
        }
        int lo = ports.low();
        int hi = ports.high();
        if (hi < lo || portText.indexOf('-') >= 0 && lo == 0) {
            throw new ConfigException(where + "invalid port range '" + lo + "-" + hi + "'.");
        }
        return new SourceAddress(host, lo, hi);
    }

    /** HAProxy's refusal of the options Fulcrum has no means for. */
    public static ConfigException unsupported(String option) {
        return new ConfigException("'source' : '" + option + "' is not supported by Fulcrum ("
                + (option.equals("usesrc") ? "transparent proxying: connecting from a client's or any foreign address"
                : "binding outgoing connections to an interface") + ").");
    }

    /** The source of connections to {@code server}: its own, else its backend's ({@code backend}, may be null). */
    public static SourceAddress of(Server server, SourceAddress backend) {
        OnServer own = server.spec().partOrNull(OnServer.class);
        return own != null ? own.address : backend;
    }

    /**
     * Connects {@code ch} (registered) to {@code remote} from {@code source} (null: the system chooses); a port of a
     * range is given back when the connection closes, and the connection fails when none is free.
     */
    public static ChannelFuture connect(Channel ch, SocketAddress remote, SourceAddress source) {
        if (source == null) {
            return ch.connect(remote);
        }
        Integer port = source.free == null ? Integer.valueOf(source.low) : source.free.poll();
        if (port == null) {
            return ch.newFailedFuture(new BindException("no free port in the source range " + source.low + "-" + source.high));
        }
        if (source.free != null) {
            ch.closeFuture().addListener(f -> source.free.add(port));
        }
        if (port != 0) {
            // As HAProxy: a port whose last connection waits in TIME_WAIT can be bound again at once.
            ch.config().setOption(ChannelOption.SO_REUSEADDR, true);
        }
        return ch.connect(remote, new InetSocketAddress(source.host, port));
    }

    /** A server line's {@code source}; a server starting from default-server gets its own range of free ports. */
    public static final class OnServer implements ServerSpec.ServerPart {
        SourceAddress address;

        @Override
        public OnServer copy() {
            OnServer c = new OnServer();
            c.address = address == null ? null : new SourceAddress(address.host, address.low, address.high);
            return c;
        }
    }
}
