package io.fulcrum.sample;

import io.netty.channel.Channel;
import io.netty.util.AttributeKey;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;

/**
 * The client's addresses at one level, as the {@code set-src}, {@code set-dst}, {@code set-src-port} and
 * {@code set-dst-port} actions rewrite them: the session's (kept on the client channel, rewritten by
 * {@code tcp-request connection|session} rules) or a stream's copy of them (rewritten by {@code tcp-request content}
 * and {@code http-request} rules, for that stream only). Only {@code tcp-request connection} rules change the
 * connection's own addresses, which the {@code fc_*} fetches report, as in HAProxy 2.6.
 */
public final class Endpoints {
    private static final AttributeKey<Endpoints> SESSION = AttributeKey.valueOf("fulcrum.endpoints");

    private SocketAddress connectionSource;
    private SocketAddress connectionDestination;
    private SocketAddress source;
    private SocketAddress destination;
    private boolean fromProxyHeader;
    /** The authority and unique ID TLVs of a PROXY v2 header, or null. */
    private String proxyAuthority;
    private String proxyUniqueId;

    public Endpoints(SocketAddress source, SocketAddress destination) {
        this.connectionSource = this.source = source;
        this.connectionDestination = this.destination = destination;
    }

    /** The session's addresses: set by the acceptor (then those of the PROXY header, if any), else the socket's. */
    public static Endpoints of(Channel client) {
        Endpoints e = client.attr(SESSION).get();
        if (e == null) {
            e = new Endpoints(client.remoteAddress(), client.localAddress());
            client.attr(SESSION).set(e);
        }
        return e;
    }

    /** Gives {@code client} its socket's addresses, as seen by the listener. */
    public static void attach(Channel client, SocketAddress source, SocketAddress destination) {
        client.attr(SESSION).set(new Endpoints(source, destination));
    }

    /**
     * The addresses of a PROXY header, each null to keep the connection's (a LOCAL header): they are the
     * client's ({@code src}, {@code dst}, the log's) while the connection's own ({@code fc_src}, {@code fc_dst}) stay the
     * socket's, as the {@code tcp-request connection} rules left them (they run before the header is read), as in HAProxy 2.6.
     */
    public void fromProxyHeader(SocketAddress source, SocketAddress destination) {
        fromProxyHeader = true;
        fromHeader(source, destination);
    }

    /** The addresses of a NetScaler Client IP header, as a PROXY header's, but {@code fc_rcvd_proxy} stays false, as in HAProxy. */
    public void fromHeader(SocketAddress source, SocketAddress destination) {
        if (source != null) {
            this.source = source;
        }
        if (destination != null) {
            this.destination = destination;
        }
    }

    /** True when the connection started with a PROXY protocol header ({@code fc_rcvd_proxy}). */
    public boolean fromProxyHeader() {
        return fromProxyHeader;
    }

    /** Keeps the authority (type 0x02) and unique ID (type 0x05) TLVs of the PROXY v2 header, each null when absent. */
    public void proxyTlvs(String authority, String uniqueId) {
        proxyAuthority = authority;
        proxyUniqueId = uniqueId;
    }

    /** The authority TLV the client sent in its PROXY header ({@code fc_pp_authority}), or null. */
    public String proxyAuthority() {
        return proxyAuthority;
    }

    /** The unique ID TLV the client sent in its PROXY header ({@code fc_pp_unique_id}), or null. */
    public String proxyUniqueId() {
        return proxyUniqueId;
    }

    /** A stream's copy: its rewrites stay its own. */
    public Endpoints copy() {
        Endpoints e = new Endpoints(source, destination);
        e.fromProxyHeader = fromProxyHeader;
        e.proxyTlvs(proxyAuthority, proxyUniqueId);
        e.connectionSource = connectionSource;
        e.connectionDestination = connectionDestination;
        return e;
    }

    public SocketAddress source() {
        return source;
    }

    public SocketAddress destination() {
        return destination;
    }

    public SocketAddress connectionSource() {
        return connectionSource;
    }

    public SocketAddress connectionDestination() {
        return connectionDestination;
    }

    /**
     * Sets the address (IPv4 or IPv6 sample) of the source or destination, keeping its port; {@code connection}: the
     * connection's own too.
     */
    public void setAddress(boolean ofSource, Sample ip, boolean connection) {
        InetAddress a;
        try {
            a = InetAddress.getByAddress(ip.type() == SampleType.IPV4 ? ipv4(ip.ipv4()) : ip.toByteArray());
        } catch (UnknownHostException e) {
            return;
        }
        set(ofSource, new InetSocketAddress(a, port(ofSource ? source : destination)), connection);
    }

    /** Sets the port, keeping the address; an address without ports (a unix socket) becomes 0.0.0.0. */
    public void setPort(boolean ofSource, long port, boolean connection) {
        SocketAddress old = ofSource ? source : destination;
        InetAddress a = old instanceof InetSocketAddress isa && isa.getAddress() != null ? isa.getAddress() : anyIpv4();
        set(ofSource, new InetSocketAddress(a, (int) (port & 0xffff)), connection);
    }

    private void set(boolean ofSource, SocketAddress a, boolean connection) {
        if (ofSource) {
            source = a;
            if (connection) {
                connectionSource = a;
            }
        } else {
            destination = a;
            if (connection) {
                connectionDestination = a;
            }
        }
    }

    private static int port(SocketAddress a) {
        return a instanceof InetSocketAddress isa ? isa.getPort() : 0;
    }

    private static byte[] ipv4(int v) {
        return new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
    }

    private static InetAddress anyIpv4() {
        try {
            return Inet4Address.getByAddress(new byte[4]);
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }
}
