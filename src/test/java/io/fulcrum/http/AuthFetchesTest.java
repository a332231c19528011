package io.fulcrum.http;

import io.fulcrum.sample.TestContext;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The credential fetches; the expected values are what HAProxy 2.6 returned for the same headers. */
class AuthFetchesTest {

    /** type, user, pass, bearer and bearer(x-token) for a request with {@code headers}. */
    private static String auth(String headers) {
        TestContext ctx = new TestContext();
        ctx.request = Messages.request("GET / HTTP/1.1\r\nHost: h\r\n" + headers + "\r\n");
        return String.join(" | ", ctx.text("http_auth_type"), ctx.text("http_auth_user"), ctx.text("http_auth_pass"),
                ctx.text("http_auth_bearer"), ctx.text("http_auth_bearer(x-token)"));
    }

    @Test
    void basic() {
        assertThat(auth("Authorization: Basic YWxpY2U6czNjcjpldA==\r\n")).isEqualTo("Basic | alice | s3cr:et | none | ");
        assertThat(auth("Authorization: basic YWxpY2U6cHc=\r\n")).isEqualTo("Basic | alice | pw | none | ");
        assertThat(auth("Authorization: Basic  YWxpY2U6cHc=\r\n")).isEqualTo("Basic | alice | pw | none | ");
        assertThat(auth("Authorization: Basic YWxpY2U6cHc=\r\nAuthorization: Bearer zz\r\n")).isEqualTo("Basic | alice | pw | none | ");
    }

    @Test
    void invalidOrUnknownCredentialsHaveNoType() {
        assertThat(auth("Authorization: Basic !!!\r\n")).isEqualTo("none | none | none | none | ");
        assertThat(auth("Authorization: Basic YWxpY2U=\r\n")).as("no ':'").isEqualTo("none | none | none | none | ");
        assertThat(auth("Authorization: Basic YWxpY2U6cHc\r\n")).as("no padding").isEqualTo("none | none | none | none | ");
        assertThat(auth("Authorization: Basic\r\n")).isEqualTo("none | none | none | none | ");
        assertThat(auth("Authorization: Digest x=1\r\n")).isEqualTo("none | none | none | none | ");
        assertThat(auth("")).isEqualTo("none | none | none | none | ");
    }

    @Test
    void bearer() {
        assertThat(auth("Authorization: Bearer abc.def\r\n")).isEqualTo("Bearer | none | none | abc.def | ");
        assertThat(auth("Authorization: bearer  abc\r\n")).isEqualTo("Bearer | none | none | abc | ");
        assertThat(auth("Authorization: Bearer a b\r\n")).isEqualTo("Bearer | none | none | a b | ");
        assertThat(auth("X-Token: Bearer tok\r\n")).isEqualTo("none | none | none | none | tok");
    }
}
