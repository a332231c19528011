package io.fulcrum.conn;

import io.netty.channel.Channel;
import io.netty.channel.ConnectTimeoutException;
import io.netty.handler.ssl.SslHandshakeTimeoutException;
import io.netty.util.AttributeKey;

/**
 * Why a connection failed, in HAProxy's numbering (its connection error codes, configuration.txt's table under
 * {@code fc_err_str}): what {@code fc_err} and {@code bc_err} return, and the message of a connection's error log
 * line. The constant's position is the code.
 */
public enum ConnError {
    NONE("Success"),
    CONF_FDLIM("Reached configured maxconn value"),
    PROC_FDLIM("Too many sockets on the process"),
    SYS_FDLIM("Too many sockets on the system"),
    SYS_MEMLIM("Out of system buffers"),
    NOPROTO("Protocol or address family not supported"),
    SOCK_ERR("General socket error"),
    PORT_RANGE("Source port range exhausted"),
    CANT_BIND("Can't bind to source address"),
    FREE_PORTS("Out of local source ports on the system"),
    ADDR_INUSE("Local source address already in use"),
    PRX_EMPTY("Connection closed while waiting for PROXY protocol header"),
    PRX_ABORT("Connection error while waiting for PROXY protocol header"),
    PRX_TIMEOUT("Timeout while waiting for PROXY protocol header"),
    PRX_TRUNCATED("Truncated PROXY protocol header received"),
    PRX_NOT_HDR("Received something which does not look like a PROXY protocol header"),
    PRX_BAD_HDR("Received an invalid PROXY protocol header"),
    PRX_BAD_PROTO("Received an unhandled protocol in the PROXY protocol header"),
    CIP_EMPTY("Connection closed while waiting for NetScaler Client IP header"),
    CIP_ABORT("Connection error while waiting for NetScaler Client IP header"),
    CIP_TIMEOUT("Timeout while waiting for a NetScaler Client IP header"),
    CIP_TRUNCATED("Truncated NetScaler Client IP header received"),
    CIP_BAD_MAGIC("Received an invalid NetScaler Client IP magic number"),
    CIP_BAD_PROTO("Received an unhandled protocol in the NetScaler Client IP header"),
    SSL_EMPTY("Connection closed during SSL handshake"),
    SSL_ABORT("Connection error during SSL handshake"),
    SSL_TIMEOUT("Timeout during SSL handshake"),
    SSL_TOO_MANY("Too many SSL connections"),
    SSL_NO_MEM("Out of memory when initializing an SSL connection"),
    SSL_RENEG("Rejected a client-initiated SSL renegotiation attempt"),
    SSL_CA_FAIL("SSL client CA chain cannot be verified"),
    SSL_CRT_FAIL("SSL client certificate not trusted"),
    SSL_MISMATCH("Server presented an SSL certificate different from the configured one"),
    SSL_MISMATCH_SNI("Server presented an SSL certificate different from the expected one"),
    SSL_HANDSHAKE("SSL handshake failure"),
    SSL_HANDSHAKE_HB("SSL handshake failure after heartbeat"),
    SSL_KILLED_HB("Stopped a TLSv1 heartbeat attack (CVE-2014-0160)"),
    SSL_NO_TARGET("Attempt to use SSL on an unknown target (internal error)"),
    SSL_EARLY_FAILED("Server refused early data"),
    SOCKS4_SEND("SOCKS4 Proxy write error during handshake"),
    SOCKS4_RECV("SOCKS4 Proxy read error during handshake"),
    SOCKS4_DENY("SOCKS4 Proxy deny the request"),
    SOCKS4_ABORT("SOCKS4 Proxy handshake aborted by server"),
    SSL_FATAL("SSL fatal error");

    private static final AttributeKey<ConnError> KEY = AttributeKey.valueOf("fulcrum.conn-error");

    private final String message;

    ConnError(String message) {
        this.message = message;
    }

    /** HAProxy's code ({@code fc_err}). */
    public int code() {
        return ordinal();
    }

    /** HAProxy's message ({@code fc_err_str}, the connection error log line). */
    public String message() {
        return message;
    }

    /** Records why {@code ch} failed; the first reason stays. */
    public void setOn(Channel ch) {
        ch.attr(KEY).setIfAbsent(this);
    }

    /** Why {@code ch} failed, or {@link #NONE}. */
    public static ConnError of(Channel ch) {
        ConnError e = ch.attr(KEY).get();
        return e == null ? NONE : e;
    }

    /**
     * True when {@code cause} says a server connection did not come up within {@code timeout connect}: its TCP
     * connect or its TLS handshake, which HAProxy counts in the connection (logged {@code sC}, retried at once).
     */
    public static boolean connectTimedOut(Throwable cause) {
        return cause instanceof ConnectTimeoutException || cause instanceof SslHandshakeTimeoutException;
    }
}
