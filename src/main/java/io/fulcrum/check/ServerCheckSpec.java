package io.fulcrum.check;

import io.fulcrum.server.ServerSpec;
import io.fulcrum.server.ServerTransport;

import java.net.InetAddress;
import java.util.List;
import java.util.Map;

/** A server line's check options (configuration.txt 5.2). Times in milliseconds; 0 means "as inter". */
final class ServerCheckSpec implements ServerSpec.ServerPart, Cloneable {

    /** {@code observe}: which errors of the traffic count against the server. */
    enum Observe { NONE, LAYER4, LAYER7 }

    /** {@code on-error}: what enough consecutive errors of the traffic do. */
    enum OnError { FASTINTER, FAIL_CHECK, SUDDEN_DEATH, MARK_DOWN }

    /** {@code init-state}: how healthy a checked server is thought to be before its first check. */
    enum InitState { FULLY_UP, UP, DOWN, FULLY_DOWN }

    boolean check;
    long inter = 2000;
    long fastinter;
    long downinter;
    int rise = 2;
    int fall = 3;
    /** {@code port}: 0 for the server's own port. */
    int port;
    InetAddress addr;
    boolean sendProxy;
    /** {@code check-via-socks4}: the default connect of the checks goes through the server's {@code socks4} proxy. */
    boolean viaSocks4;
    InitState initState = InitState.UP;
    boolean agent;
    /** {@code agent-port}; else {@code port}'s (HAProxy's SRV_F_AGENTPORT says which). */
    int agentPort;
    /** {@code agent-port} was given: {@code port} no longer sets {@link #agentPort}. */
    boolean agentPortSet;
    InetAddress agentAddr;
    long agentInter = 2000;
    String agentSend;
    Observe observe = Observe.NONE;
    /** {@code error-limit}: consecutive errors before {@link #onError} acts. */
    int errorLimit = 10;
    OnError onError = OnError.FAIL_CHECK;
    /** {@code track [backend/]server}, as written. */
    String track;
    /** {@code on-marked-down shutdown-sessions}. */
    boolean shutdownOnDown;
    /** {@code on-marked-up shutdown-backup-sessions}. */
    boolean shutdownBackupsOnUp;
    /** {@code check-ssl} (TRUE), {@code no-check-ssl} (FALSE), or neither: TLS as the traffic when no port/addr is given. */
    Boolean ssl;
    /** {@code check-sni}: the name TLS checks send, or null. */
    String sni;
    /** {@code check-alpn}: the protocols TLS checks offer, or null for the line's {@code alpn}. */
    List<String> alpn;
    /** {@code check-proto}: "h1" or "none", or null. */
    String proto;
    /** Built once the configuration is read: the TLS layer of the checks' default connections, or null for none. */
    ServerTransport tls;
    /** Built then too: the TLS layers of the {@code connect ... ssl} rules of the backend's checks. */
    Map<CheckRule.Connect, ServerTransport> ruleTls = Map.of();

    @Override
    public ServerCheckSpec copy() {
        try {
            return (ServerCheckSpec) clone();
        } catch (CloneNotSupportedException e) {
            throw new AssertionError(e);
        }
    }
}
