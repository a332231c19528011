package io.fulcrum.tls;

import io.netty.handler.ssl.SslContext;
import io.netty.util.Mapping;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Chooses a bind line's certificate by the name the client asks for (SNI), as HAProxy does: an exact name first,
 * then a wildcard ({@code *.example.com} covers one more label), the first declared certificate winning among
 * equals and skipping those whose negative filters name the host; without a match the default (first)
 * certificate, or no handshake at all with {@code strict-sni}.
 */
final class SniMap implements Mapping<String, SslContext> {

    /** One certificate, the names it answers to, and those it must not ({@code !name} filters of crt-list). */
    record Entry(SslContext context, List<String> names, Set<String> excluded) {
    }

    private final Map<String, List<Entry>> exact = new HashMap<>();
    /** By the part after "*." */
    private final Map<String, List<Entry>> wildcard = new HashMap<>();
    private final List<Entry> entries = new ArrayList<>();
    private final boolean strict;

    SniMap(boolean strict) {
        this.strict = strict;
    }

    void add(Entry e) {
        entries.add(e);
        for (String name : e.names()) {
            String n = name.toLowerCase(Locale.ROOT);
            if (n.startsWith("*.")) {
                wildcard.computeIfAbsent(n.substring(2), k -> new ArrayList<>()).add(e);
            } else {
                exact.computeIfAbsent(n, k -> new ArrayList<>()).add(e);
            }
        }
    }

    boolean isEmpty() {
        return entries.isEmpty();
    }

    /** The context for {@code host} (null when the client sent no name); throws when there is none. */
    @Override
    public SslContext map(String host) {
        if (host != null) {
            String h = host.toLowerCase(Locale.ROOT);
            SslContext c = first(exact.get(h), h);
            if (c == null) {
                int dot = h.indexOf('.');
                c = dot > 0 ? first(wildcard.get(h.substring(dot + 1)), h) : null;
            }
            if (c != null) {
                return c;
            }
        }
        if (strict || entries.isEmpty()) {
            throw new IllegalStateException("no certificate for " + (host == null ? "a client without SNI" : host) + " (strict-sni)");
        }
        return entries.get(0).context();
    }

    private static SslContext first(List<Entry> candidates, String host) {
        if (candidates != null) {
            for (Entry e : candidates) {
                if (!e.excluded().contains(host)) {
                    return e.context();
                }
            }
        }
        return null;
    }
}
