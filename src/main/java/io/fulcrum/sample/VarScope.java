package io.fulcrum.sample;

/** Where a variable lives and how long: the process, the client session, the transaction, or one direction of it. */
public enum VarScope {
    PROC("proc"), SESS("sess"), TXN("txn"), REQ("req"), RES("res"), CHECK("check");

    private final String prefix;

    VarScope(String prefix) {
        this.prefix = prefix;
    }

    public String prefix() {
        return prefix;
    }

    /** The scope named before the first dot of {@code name}, or null. */
    public static VarScope of(String name) {
        int dot = name.indexOf('.');
        if (dot < 0) {
            return null;
        }
        String p = name.substring(0, dot);
        for (VarScope s : values()) {
            if (s.prefix.equals(p)) {
                return s;
            }
        }
        return null;
    }
}
