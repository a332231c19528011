package io.fulcrum.tls;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.util.SelfSignedCertificate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.security.cert.X509Certificate;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Certificate choice by SNI: exact names, then one-label wildcards, the first declared, crt-list filters (positive
 * ones replace the names, negative ones exclude), the default; and a certificate replaced at run time.
 */
class SniMapTest {
    private static SelfSignedCertificate self;
    private static Recipe recipe;

    @BeforeAll
    static void certificate() throws Exception {
        self = new SelfSignedCertificate("test");
        recipe = new Recipe(new BindOptions(), null, new TlsGlobals(), null);
    }

    private static CertKey cert(String file, String... names) {
        return new CertKey(file, self.key(), new X509Certificate[] {self.cert()}, List.of(names), null);
    }

    private static SslContext context(CertKey ck) throws Exception {
        return recipe.build(ck);
    }

    private static SniMap.Entry entry(CertKey ck, String... filters) throws Exception {
        return SniMap.Entry.of(context(ck), ck, List.of(filters), recipe);
    }

    @Test
    void exactBeforeWildcardFirstDeclaredWins() throws Exception {
        SniMap m = new SniMap(false);
        SniMap.Entry a = entry(cert("a", "a.test", "*.wild.test"));
        SniMap.Entry b = entry(cert("b", "b.test", "x.wild.test", "a.test"));
        m.add(a);
        m.add(b);
        assertThat(m.map("a.test")).isSameAs(a.context());
        assertThat(m.map("A.Test")).isSameAs(a.context());
        assertThat(m.map("b.test")).isSameAs(b.context());
        assertThat(m.map("x.wild.test")).isSameAs(b.context());
        assertThat(m.map("z.wild.test")).isSameAs(a.context());
        assertThat(m.map("wild.test")).isSameAs(a.context()); // no match: the default
        assertThat(m.map("z.y.wild.test")).isSameAs(a.context());
        assertThat(m.map(null)).isSameAs(a.context());
    }

    @Test
    void crtListFilters() throws Exception {
        SniMap m = new SniMap(false);
        SniMap.Entry first = entry(cert("d", "d.test"), "!*");
        SniMap.Entry c = entry(cert("c", "c.test"), "*.wild.test", "!y.wild.test");
        SniMap.Entry b = entry(cert("b", "b.test"), "*.wild.test");
        m.add(first);
        m.add(c);
        m.add(b);
        assertThat(m.map("z.wild.test")).isSameAs(c.context());
        assertThat(m.map("y.wild.test")).isSameAs(b.context());
        assertThat(m.map("c.test")).isSameAs(first.context()); // the filters replace its names
        assertThat(m.map("d.test")).isSameAs(first.context()); // !*: only the default
    }

    @Test
    void strictHasNoDefault() throws Exception {
        SniMap m = new SniMap(true);
        SniMap.Entry b = entry(cert("b", "b.test"));
        m.add(b);
        assertThat(m.map("b.test")).isSameAs(b.context());
        assertThatThrownBy(() -> m.map("other.test")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> m.map(null)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void replacedCertificateServesNewConnections() throws Exception {
        SniMap m = new SniMap(false);
        m.add(entry(cert("a.pem", "a.test")));
        m.add(entry(cert("b.pem", "b.test")));
        SslContext before = m.map("b.test");
        assertThat(m.prepare(cert("none.pem", "n.test"))).isNull();
        Object prepared = m.prepare(cert("b.pem", "new.test"));
        assertThat(m.map("b.test")).isSameAs(before); // nothing changes until published
        m.publish(prepared);
        assertThat(m.map("new.test")).isNotSameAs(before).isSameAs(m.entries().get(1).context());
        assertThat(m.map("b.test")).isSameAs(m.entries().get(0).context());
    }
}
