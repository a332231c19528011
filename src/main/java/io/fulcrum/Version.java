package io.fulcrum;

/** Fulcrum's own version, and the level of HAProxy's configuration language and CLI it implements. */
public final class Version {
    private Version() {
    }

    /** Fulcrum's version, from the jar manifest when packaged. */
    public static final String FULCRUM = fromManifest();

    /**
     * The HAProxy version whose documented behaviour Fulcrum follows. {@code .if version_atleast()} and
     * {@code version_before()} compare against it, so configs written for a range of HAProxy versions
     * take the branch meant for this one.
     */
    public static final String HAPROXY = "2.6.12";

    /** The release date shown by {@code -v}. */
    public static final String DATE = "2026/11/30";

    private static String fromManifest() {
        String v = Version.class.getPackage().getImplementationVersion();
        return v != null ? v : "0.1.0-dev";
    }
}
