package io.fulcrum.http;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The authority set-uri puts in Host: each expectation is what haproxy 2.6.12 forwarded for that URI. */
class RequestTargetTest {

    @Test
    void authorityAsSetUriCutsIt() {
        assertThat(RequestTarget.authority("http://foo.example/bar")).isEqualTo("foo.example");
        assertThat(RequestTarget.authority("https://foo.example:8443/bar?q=1")).isEqualTo("foo.example:8443");
        assertThat(RequestTarget.authority("http://[::1]:81/v6")).isEqualTo("[::1]:81");
        assertThat(RequestTarget.authority("h-1.x://y.example")).isEqualTo("y.example");
        // Only a '/' ends it; the userinfo goes up to the last '@' before it.
        assertThat(RequestTarget.authority("http://a.example?q")).isEqualTo("a.example?q");
        assertThat(RequestTarget.authority("ftp://b.example#f")).isEqualTo("b.example#f");
        assertThat(RequestTarget.authority("http://a@b@c.example/z")).isEqualTo("c.example");
        assertThat(RequestTarget.authority("http://a/b@c.example/z")).isEqualTo("a");
        // Without a scheme (one starts with a letter and is followed by "://"), from the start.
        assertThat(RequestTarget.authority("foo.example/x")).isEqualTo("foo.example");
        assertThat(RequestTarget.authority("http:x.example/z")).isEqualTo("http:x.example");
        assertThat(RequestTarget.authority("1ab://x.example/z")).isEqualTo("1ab:");
        assertThat(RequestTarget.authority("://d.example/z")).isEqualTo(":");
        // Empty: the rewrite fails.
        assertThat(RequestTarget.authority("http:///x")).isEmpty();
        assertThat(RequestTarget.authority("http://u@/z")).isEmpty();
        // No authority: Host stays.
        assertThat(RequestTarget.authority("/plain")).isNull();
        assertThat(RequestTarget.authority("//foo.example/x")).isNull();
        assertThat(RequestTarget.authority("*")).isNull();
        assertThat(RequestTarget.authority("")).isNull();
    }
}
