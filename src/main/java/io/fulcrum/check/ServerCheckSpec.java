package io.fulcrum.check;

import io.fulcrum.server.ServerSpec;

import java.net.InetAddress;

/** A server line's check options (configuration.txt 5.2). Times in milliseconds; 0 means "as inter". */
final class ServerCheckSpec implements ServerSpec.ServerPart, Cloneable {

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
    InitState initState = InitState.UP;
    boolean agent;
    int agentPort;
    InetAddress agentAddr;
    long agentInter = 2000;
    String agentSend;
    /** {@code track [backend/]server}, as written. */
    String track;
    /** {@code on-marked-down shutdown-sessions}. */
    boolean shutdownOnDown;
    /** {@code on-marked-up shutdown-backup-sessions}. */
    boolean shutdownBackupsOnUp;

    @Override
    public ServerCheckSpec copy() {
        try {
            return (ServerCheckSpec) clone();
        } catch (CloneNotSupportedException e) {
            throw new AssertionError(e);
        }
    }
}
