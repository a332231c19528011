package io.fulcrum.cache;

import io.fulcrum.http.HttpHeaders;
import io.fulcrum.http.RequestHead;
import io.fulcrum.http.ResponseHead;
import io.netty.util.AsciiString;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** What HAProxy 2.6 stores and serves ({@link Freshness}, {@link VaryKey}), case by case as checked against it. */
class CacheRulesTest {

    static RequestHead request(String method, int version, String... fields) {
        return new RequestHead(new AsciiString(method), new AsciiString("/x?y"), version, headers(fields));
    }

    static ResponseHead response(int status, String... fields) {
        return new ResponseHead(11, status, new AsciiString("OK"), headers(fields));
    }

    static HttpHeaders headers(String... fields) {
        HttpHeaders h = new HttpHeaders();
        for (String f : fields) {
            int colon = f.indexOf(':');
            h.add(f.substring(0, colon), f.substring(colon + 1).trim());
        }
        return h;
    }

    @Test
    void requestsThatBypassTheCache() {
        assertThat(Freshness.bypasses(request("GET", 11))).isFalse();
        assertThat(Freshness.bypasses(request("HEAD", 11))).isFalse();
        assertThat(Freshness.bypasses(request("POST", 11))).isTrue();
        assertThat(Freshness.bypasses(request("GET", 10))).isTrue();
        assertThat(Freshness.bypasses(request("GET", 11, "Authorization: Basic eA=="))).isTrue();
        assertThat(Freshness.bypasses(request("GET", 11, "Cache-Control: no-cache"))).isTrue();
        assertThat(Freshness.bypasses(request("GET", 11, "Cache-Control: max-age=100"))).isTrue();
        assertThat(Freshness.bypasses(request("GET", 11, "Cache-Control: foo, min-fresh=3"))).isTrue();
        assertThat(Freshness.bypasses(request("GET", 11, "Cache-Control: no-store"))).isFalse();
        assertThat(Freshness.bypasses(request("GET", 11, "Pragma: no-cache"))).isTrue();
        assertThat(Freshness.bypasses(request("GET", 11, "Pragma: no-cache", "Cache-Control: foo"))).as("RFC 7234 5.4").isFalse();
        assertThat(Freshness.forbidsStore(request("GET", 11, "Cache-Control: no-store"))).isTrue();
        assertThat(Freshness.forbidsStore(request("GET", 11, "Authorization: x"))).isTrue();
    }

    @Test
    void storableResponses() {
        assertThat(Freshness.storable(response(200, "Cache-Control: max-age=10"), true)).isTrue();
        assertThat(Freshness.storable(response(200, "ETag: \"a\""), true)).isTrue();
        assertThat(Freshness.storable(response(200, "Expires: x"), true)).isTrue();
        assertThat(Freshness.storable(response(200, "Set-Cookie: a=1", "Cache-Control: max-age=10"), true)).as("as HAProxy").isTrue();
        assertThat(Freshness.storable(response(200), true)).isFalse();
        assertThat(Freshness.storable(response(200, "Cache-Control: public"), true)).isFalse();
        assertThat(Freshness.storable(response(200, "Cache-Control: private, max-age=10"), true)).isFalse();
        assertThat(Freshness.storable(response(200, "Cache-Control: max-age=10", "Pragma: no-cache"), true)).isFalse();
        assertThat(Freshness.storable(response(200, "Cache-Control: max-age=10, no-cache=\"set-cookie\""), true)).isFalse();
        assertThat(Freshness.storable(response(200, "Cache-Control: max-age=10"), false)).as("no-store asked").isFalse();
        assertThat(Freshness.storable(response(200, "Cache-Control: max-age=10, public"), false)).as("public wins").isTrue();
    }

    @Test
    void lifetimes() {
        assertThat(Freshness.lifetime(headers("Cache-Control: max-age=30"), 0)).isEqualTo(30);
        assertThat(Freshness.lifetime(headers("Cache-Control: max-age=30, s-maxage=\"5\""), 0)).isEqualTo(5);
        assertThat(Freshness.lifetime(headers("Cache-Control: max-age=x"), 0)).isEqualTo(-2);
        assertThat(Freshness.lifetime(headers("Expires: Thu, 01 Jan 1970 00:01:40 GMT"), 40)).isEqualTo(60);
        assertThat(Freshness.lifetime(headers("Expires: Thursday, 01-Jan-70 00:01:40 GMT"), 40)).isEqualTo(60);
        assertThat(Freshness.lifetime(headers("Expires: Thu Jan  1 00:01:40 1970"), 40)).isEqualTo(60);
        assertThat(Freshness.lifetime(headers("Expires: garbage"), 40)).as("in the past").isZero();
        assertThat(Freshness.lifetime(headers("ETag: \"a\""), 40)).isEqualTo(-1);
        assertThat(Freshness.age("12")).isEqualTo(12);
        assertThat(Freshness.age("1x")).isEqualTo(-1);
    }

    @Test
    void varyOnAcceptEncodingAndReferer() {
        assertThat(VaryKey.signature(headers("Vary: Accept-Encoding, referer"))).isEqualTo(VaryKey.ACCEPT_ENCODING | VaryKey.REFERER);
        assertThat(VaryKey.signature(headers("Vary: origin"))).isEqualTo(-1);
        assertThat(VaryKey.signature(headers("Vary:"))).isEqualTo(-1);
        assertThat(VaryKey.signature(headers())).isZero();
        int both = VaryKey.ACCEPT_ENCODING | VaryKey.REFERER;
        VaryKey gzipped = VaryKey.of(request("GET", 11, "Accept-Encoding: gzip", "Referer: /a"), both)
                .reduced(VaryKey.ACCEPT_ENCODING).stored(headers("Content-Encoding: gzip"));
        assertThat(gzipped.hex()).isEqualTo("0100000000000000");
        assertThat(gzipped.serves(VaryKey.of(request("GET", 11, "Accept-Encoding: br, x-gzip;q=0.5"), VaryKey.ACCEPT_ENCODING))).isTrue();
        assertThat(gzipped.serves(VaryKey.of(request("GET", 11), VaryKey.ACCEPT_ENCODING))).isTrue();
        assertThat(gzipped.serves(VaryKey.of(request("GET", 11, "Accept-Encoding: br"), VaryKey.ACCEPT_ENCODING))).isFalse();
        assertThat(gzipped.serves(VaryKey.of(request("GET", 11, "Accept-Encoding: *, gzip;q=0"), VaryKey.ACCEPT_ENCODING))).isFalse();
        VaryKey plain = VaryKey.of(request("GET", 11, "Referer: /a"), both).stored(headers());
        assertThat(plain.serves(VaryKey.of(request("GET", 11, "Accept-Encoding: gzip", "Referer: /a"), both))).isTrue();
        assertThat(plain.serves(VaryKey.of(request("GET", 11, "Accept-Encoding: gzip,identity;q=0", "Referer: /a"), both))).isFalse();
        assertThat(plain.serves(VaryKey.of(request("GET", 11, "Referer: /b"), both))).isFalse();
        assertThat(VaryKey.of(request("GET", 11), both).stored(headers("Content-Encoding: foo"))).isNull();
    }
}
