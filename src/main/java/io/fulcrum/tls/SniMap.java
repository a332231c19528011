package io.fulcrum.tls;

import io.fulcrum.cfg.ConfigException;
import io.netty.handler.ssl.SslContext;
import io.netty.util.Mapping;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Chooses a bind line's certificate by the name the client asks for (SNI), as HAProxy does: an exact name first,
 * then a wildcard ({@code *.example.com} covers one more label), the first declared certificate winning among
 * equals and skipping those whose negative filters name the host; without a match the default (first)
 * certificate, or no handshake at all with {@code strict-sni}. Certificates can be replaced while connections are
 * accepted (for the CLI's {@code set ssl cert}): the index is rebuilt and published whole.
 */
final class SniMap implements Mapping<String, SslContext> {

    /**
     * One certificate, its context and how it was made, and its SNI filters (a crt-list line's: positive names
     * replace the certificate's, {@code !name} excludes one; none: the certificate's own names), and the crt-list
     * line it comes from (null for a {@code crt}).
     */
    record Entry(SslContext context, CertKey cert, List<String> filters, Recipe recipe, List<String> names, Set<String> excluded,
                 Object origin, Recipe defaultRecipe, SslContext asDefault) {

        static Entry of(SslContext context, CertKey cert, List<String> filters, Recipe recipe) {
            return of(context, cert, filters, recipe, null, recipe, context);
        }

        /**
         * @param defaultRecipe how the context of the certificate as the bind line's default is made ({@code asDefault}:
         *                      the same as {@code recipe} and {@code context} but for a crt-list line's versions, see
         *                      {@link Recipe#withVersionsOf})
         */
        static Entry of(SslContext context, CertKey cert, List<String> filters, Recipe recipe, Object origin, Recipe defaultRecipe,
                        SslContext asDefault) {
            Set<String> negative = new HashSet<>();
            filters.stream().filter(f -> f.startsWith("!")).forEach(f -> negative.add(f.substring(1).toLowerCase(Locale.ROOT)));
            List<String> positive = filters.stream().filter(f -> !f.startsWith("!")).toList();
            List<String> names = negative.contains("*") ? List.of()
                    : (positive.isEmpty() ? cert.names() : positive).stream().filter(n -> !negative.contains(n)).toList();
            return new Entry(context, cert, List.copyOf(filters), recipe, names, Set.copyOf(negative), origin, defaultRecipe, asDefault);
        }

        /** The entry with {@code cert}, its contexts made again as these were. */
        Entry with(CertKey cert) throws ContextBuilder.OptionError {
            SslContext c = recipe.build(cert);
            return of(c, cert, filters, recipe, origin, defaultRecipe, defaultRecipe == recipe ? c : defaultRecipe.build(cert));
        }
    }

    /** The entries and their names, never changed once published. */
    private record Index(List<Entry> entries, Map<String, List<Entry>> exact, Map<String, List<Entry>> wildcard) {
        static Index of(List<Entry> entries) {
            Map<String, List<Entry>> exact = new HashMap<>();
            Map<String, List<Entry>> wildcard = new HashMap<>(); // by the part after "*."
            for (Entry e : entries) {
                for (String name : e.names()) {
                    String n = name.toLowerCase(Locale.ROOT);
                    (n.startsWith("*.") ? wildcard : exact).computeIfAbsent(n.startsWith("*.") ? n.substring(2) : n, k -> new ArrayList<>()).add(e);
                }
            }
            return new Index(List.copyOf(entries), exact, wildcard);
        }
    }

    /** No certificate for the name the client asks for (strict-sni), where OpenSSL's servername callback fails. */
    static final class NoCertificate extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        NoCertificate(String host) {
            super("no certificate for " + (host == null ? "a client without SNI" : host) + " (strict-sni)", null);
        }
    }

    private final boolean strict;
    private volatile Index index = Index.of(List.of());
    /** {@code generate-certificates}: makes the certificate of a name none has; null without it. */
    private volatile CertGenerator generator;

    SniMap(boolean strict) {
        this.strict = strict;
    }

    void generator(CertGenerator g) {
        generator = g;
    }

    /** Adds a certificate (last: it never becomes the default of a line that has one). */
    synchronized void add(Entry e) {
        List<Entry> entries = new ArrayList<>(index.entries());
        entries.add(e);
        index = Index.of(entries);
    }

    /** Removes the certificates of a crt-list line ({@code del ssl crt-list}). */
    synchronized void remove(Object origin) {
        index = Index.of(index.entries().stream().filter(e -> e.origin() != origin).toList());
    }

    /** Whether the default certificate (the first) comes from the crt-list line {@code origin}. */
    boolean isDefault(Object origin) {
        List<Entry> entries = index.entries();
        return !entries.isEmpty() && entries.get(0).origin() == origin;
    }

    /** How many of the entries present the certificate of {@code file}. */
    int uses(String file) {
        return (int) index.entries().stream().filter(e -> e.cert().file().equals(file)).count();
    }

    List<Entry> entries() {
        return index.entries();
    }

    /** The client certificate verifier of the entry whose context is {@code context}, or null. */
    ClientVerifier verifier(SslContext context) {
        return index.entries().stream().filter(e -> e.context() == context || e.asDefault() == context).map(e -> e.recipe().verifier()).filter(v -> v != null)
                .findFirst().orElse(null);
    }

    /** How {@link #prepare} remakes an entry: the new one, or null to keep it. */
    interface Rebuild {
        Entry apply(Entry e) throws ConfigException, ContextBuilder.OptionError;
    }

    /**
     * The index with {@code cert}, in a context made as the old one's, in place of each certificate loaded from its
     * file; null when none was. Nothing changes until it is {@link #publish published}.
     */
    Object prepare(CertKey cert) throws ConfigException, ContextBuilder.OptionError {
        return prepare(e -> e.cert().file().equals(cert.file()) ? e.with(cert) : null);
    }

    /** The index with the entries {@code rebuild} remakes; null when it remade none. */
    synchronized Object prepare(Rebuild rebuild) throws ConfigException, ContextBuilder.OptionError {
        List<Entry> entries = new ArrayList<>(index.entries());
        boolean found = false;
        for (int i = 0; i < entries.size(); i++) {
            Entry e = rebuild.apply(entries.get(i));
            if (e != null) {
                entries.set(i, e);
                found = true;
            }
        }
        return found ? Index.of(entries) : null;
    }

    /** Makes a {@link #prepare prepared} index the one new connections use. */
    synchronized void publish(Object prepared) {
        Index next = (Index) prepared;
        CertGenerator g = generator;
        // generate-certificates forges with the default certificate's key: a new default certificate is its template.
        if (g != null && !next.entries().isEmpty() && next.entries().get(0).cert() != index.entries().get(0).cert()) {
            generator = g.withTemplate(next.entries().get(0).cert(), next.entries().get(0).recipe());
        }
        index = next;
    }

    /** The context for {@code host} (null when the client sent no name); throws when there is none. */
    @Override
    public SslContext map(String host) {
        Index idx = index;
        if (host != null) {
            String h = host.toLowerCase(Locale.ROOT);
            SslContext c = first(idx.exact().get(h), h);
            if (c == null) {
                int dot = h.indexOf('.');
                c = dot > 0 ? first(idx.wildcard().get(h.substring(dot + 1)), h) : null;
            }
            CertGenerator g = generator;
            if (c == null && g != null) {
                c = g.context(h); // (null when it failed: the default certificate, as HAProxy)
            }
            if (c != null) {
                return c;
            }
        }
        if (strict || idx.entries().isEmpty()) {
            throw new NoCertificate(host);
        }
        return idx.entries().get(0).asDefault();
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
