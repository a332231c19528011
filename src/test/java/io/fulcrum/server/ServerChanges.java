package io.fulcrum.server;

/** Lets tests of other packages change a server as the CLI does, through its state machine. */
public final class ServerChanges {
    private ServerChanges() {
    }

    public static void weight(Server s, int weight) {
        s.state().setWeight(weight);
    }

    /** Forced maintenance on or off, as {@code disable server} / {@code enable server}. */
    public static void disabled(Server s, boolean disabled) {
        if (disabled) {
            s.state().setAdmin(ServerState.FMAINT);
        } else {
            s.state().clearAdmin(ServerState.FMAINT);
        }
    }
}
