package io.fulcrum.compression;

import io.fulcrum.proxy.ProxyPart;

import java.util.ArrayList;
import java.util.List;

/** A proxy's {@code compression} settings; algo and type inherited from defaults (offload is not allowed there). */
public final class Compression implements ProxyPart {
    /** The algorithms, in the order HAProxy tries them: the last one configured first. */
    final List<Algo> algos = new ArrayList<>();
    /** The Content-Type prefixes to compress, lower case; empty for any. */
    final List<String> types = new ArrayList<>();
    /** {@code compression offload}: the server does not see the client's Accept-Encoding. */
    boolean offload;
    /** The process's {@code tune.comp.maxlevel}, set once the configuration is read. */
    int level = CompressionSettings.DEFAULT_LEVEL;

    /** The zlib level of a response compressed between these proxies (either may have no settings). */
    public static int level(Compression fe, Compression be) {
        return be != null ? be.level : fe != null ? fe.level : CompressionSettings.DEFAULT_LEVEL;
    }

    @Override
    public ProxyPart inherit() {
        Compression c = new Compression();
        c.algos.addAll(algos);
        c.types.addAll(types);
        return c;
    }
}
