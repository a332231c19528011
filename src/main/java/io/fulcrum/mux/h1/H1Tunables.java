package io.fulcrum.mux.h1;

import io.fulcrum.cfg.ConfigModel;

/**
 * The global settings of HTTP/1 as parsed: {@code tune.bufsize} (already rounded up to a multiple of 16, as
 * HAProxy does on 64-bit machines), {@code tune.maxrewrite} (-1 until set) and {@code tune.http.maxhdr}.
 */
public final class H1Tunables {
    public int bufsize = H1Limits.DEFAULT.bufsize();
    public int maxrewrite = -1;
    public int maxhdr = H1Limits.DEFAULT.maxhdr();

    public static H1Tunables of(ConfigModel model) {
        return model.part(H1Tunables.class, H1Tunables::new);
    }

    /** The limits they give: maxrewrite defaults to 1024 and is cut to half the buffer, as in HAProxy. */
    public H1Limits limits() {
        int rewrite = maxrewrite < 0 ? H1Limits.DEFAULT.maxrewrite() : maxrewrite;
        return new H1Limits(bufsize, Math.min(rewrite, bufsize / 2), maxhdr);
    }
}
