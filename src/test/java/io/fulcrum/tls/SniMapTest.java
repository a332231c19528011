package io.fulcrum.tls;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.util.SelfSignedCertificate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Certificate choice by SNI: exact names, then one-label wildcards, the first declared, negative filters, the default. */
class SniMapTest {
    private static SslContext a;
    private static SslContext b;
    private static SslContext c;

    @BeforeAll
    static void contexts() throws Exception {
        SelfSignedCertificate cert = new SelfSignedCertificate("test");
        a = SslContextBuilder.forServer(cert.key(), cert.cert()).build();
        b = SslContextBuilder.forServer(cert.key(), cert.cert()).build();
        c = SslContextBuilder.forServer(cert.key(), cert.cert()).build();
    }

    private static SniMap map(boolean strict) {
        SniMap m = new SniMap(strict);
        m.add(new SniMap.Entry(a, List.of("a.test", "*.wild.test"), Set.of()));
        m.add(new SniMap.Entry(b, List.of("b.test", "x.wild.test", "a.test"), Set.of()));
        m.add(new SniMap.Entry(c, List.of("*.wild.test"), Set.of("y.wild.test")));
        return m;
    }

    @Test
    void exactBeforeWildcardFirstDeclaredWins() {
        SniMap m = map(false);
        assertThat(m.map("a.test")).isSameAs(a);
        assertThat(m.map("A.Test")).isSameAs(a);
        assertThat(m.map("b.test")).isSameAs(b);
        assertThat(m.map("x.wild.test")).isSameAs(b);
        assertThat(m.map("z.wild.test")).isSameAs(a);
        assertThat(m.map("wild.test")).isSameAs(a); // no match: the default
        assertThat(m.map("z.y.wild.test")).isSameAs(a);
        assertThat(m.map(null)).isSameAs(a);
    }

    @Test
    void negativeFiltersSkipAnEntry() {
        SniMap m = new SniMap(false);
        m.add(new SniMap.Entry(c, List.of("*.wild.test"), Set.of("y.wild.test")));
        m.add(new SniMap.Entry(b, List.of("*.wild.test"), Set.of()));
        assertThat(m.map("z.wild.test")).isSameAs(c);
        assertThat(m.map("y.wild.test")).isSameAs(b);
    }

    @Test
    void strictHasNoDefault() {
        SniMap m = map(true);
        assertThat(m.map("b.test")).isSameAs(b);
        assertThatThrownBy(() -> m.map("other.test")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> m.map(null)).isInstanceOf(IllegalStateException.class);
    }
}
