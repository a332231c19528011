package io.fulcrum.compression;

/** The algorithms of {@code compression algo}: the name in the configuration, the content-coding token. */
public enum Algo {
    IDENTITY("identity", "identity"),
    GZIP("gzip", "gzip"),
    DEFLATE("deflate", "deflate"),
    /** Deflate without the zlib wrapper, announced as "deflate" (what browsers really decode). */
    RAW_DEFLATE("raw-deflate", "deflate");

    private final String configName;
    private final String token;

    Algo(String configName, String token) {
        this.configName = configName;
        this.token = token;
    }

    /** Its name in {@code compression algo} and in {@code res.comp_algo}. */
    public String configName() {
        return configName;
    }

    /** Its Accept-Encoding / Content-Encoding token. */
    public String token() {
        return token;
    }

    /** The algorithm named {@code name} in a configuration, or null. */
    static Algo named(String name) {
        for (Algo a : values()) {
            if (a.configName.equals(name)) {
                return a;
            }
        }
        return null;
    }
}
