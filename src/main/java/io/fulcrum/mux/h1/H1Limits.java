package io.fulcrum.mux.h1;

/**
 * HAProxy's buffer tunables as far as HTTP/1 parsing sees them: a head must fit in {@code bufsize - maxrewrite}
 * bytes (tune.bufsize, tune.maxrewrite) and hold fewer than {@code maxhdr} fields (tune.http.maxhdr); and
 * whether an HTTP/1.0 GET, HEAD or DELETE request may carry a payload ({@code h1-accept-payload-with-any-method}).
 */
public record H1Limits(int bufsize, int maxrewrite, int maxhdr, boolean payloadWithAnyMethod) {

    public static final H1Limits DEFAULT = new H1Limits(16384, 1024, 101);

    public H1Limits(int bufsize, int maxrewrite, int maxhdr) {
        this(bufsize, maxrewrite, maxhdr, false);
    }

    public H1Limits {
        if (maxrewrite < 0 || maxrewrite >= bufsize || maxhdr < 1) {
            throw new IllegalArgumentException("bad limits: bufsize " + bufsize + ", maxrewrite " + maxrewrite
                    + ", maxhdr " + maxhdr);
        }
    }

    /** The most bytes a head (or a trailer section) may take, leading empty lines included. */
    public int maxHead() {
        return bufsize - maxrewrite;
    }

    /** The most fields a head may have: HAProxy counts the end of the list in maxhdr. */
    public int maxFields() {
        return maxhdr - 1;
    }
}
