package io.fulcrum.server;

/** Lets tests of other packages announce a server's change as the server state machine does. */
public final class ServerChanges {
    private ServerChanges() {
    }

    public static void weight(Server s, int weight) {
        s.spec().weight = weight;
        s.changed();
    }

    public static void disabled(Server s, boolean disabled) {
        s.spec().disabled = disabled;
        s.changed();
    }
}
