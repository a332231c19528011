package io.fulcrum.log;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** The machine's host name, as HAProxy reports it in {@code %H} and syslog headers. */
public final class Hostname {
    private Hostname() {
    }

    public static final String NAME = lookup();

    /** This machine's name. */
    public static String name() {
        return NAME;
    }

    private static String lookup() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            String env = System.getenv("HOSTNAME");
            return env != null ? env : "localhost";
        }
    }
}
