package io.fulcrum.proxy;

import io.fulcrum.sample.Stage;
import io.fulcrum.sample.StageSet;

/** The four proxy sections and the capabilities each has. */
public enum ProxyKind {
    DEFAULTS("defaults", Capability.DEFAULTS),
    FRONTEND("frontend", Capability.FRONTEND),
    BACKEND("backend", Capability.BACKEND),
    LISTEN("listen", Capability.FRONTEND | Capability.BACKEND);

    private final String keyword;
    private final int caps;

    ProxyKind(String keyword, int caps) {
        this.keyword = keyword;
        this.caps = caps;
    }

    public String keyword() {
        return keyword;
    }

    /** How HAProxy names this kind of proxy in messages: a listen section is a "proxy". */
    public String typeName() {
        return this == LISTEN ? "proxy" : keyword;
    }

    public boolean isFrontend() {
        return (caps & Capability.FRONTEND) != 0;
    }

    public boolean isBackend() {
        return (caps & Capability.BACKEND) != 0;
    }

    /** True for rules parsed on the frontend side: a defaults section's are parsed as a listen's, as in HAProxy. */
    public boolean rulesOnFrontend() {
        return this == DEFAULTS || isFrontend();
    }

    /** True for rules parsed on the backend side (a defaults section's too). */
    public boolean rulesOnBackend() {
        return this == DEFAULTS || isBackend();
    }

    /**
     * Where a rule of this kind of section runs: at {@code fe} on a frontend side, at {@code be} on a backend side, at
     * either in a listen or defaults section (HAProxy checks the fetches of a rule against its proxy's capabilities).
     */
    public StageSet stages(Stage fe, Stage be) {
        return StageSet.of(rulesOnFrontend(), fe, rulesOnBackend(), be);
    }

    /** True when a keyword with capability flags {@code flags} applies to this kind of section. */
    public boolean accepts(int flags) {
        return (flags & caps) != 0;
    }
}
