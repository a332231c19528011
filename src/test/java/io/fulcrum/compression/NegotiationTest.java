package io.fulcrum.compression;

import io.fulcrum.http.HttpHead;
import io.fulcrum.http.HttpHeaders;
import io.fulcrum.http.RequestHead;
import io.fulcrum.http.ResponseHead;
import io.netty.util.AsciiString;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.fulcrum.compression.Algo.DEFLATE;
import static io.fulcrum.compression.Algo.GZIP;
import static io.fulcrum.compression.Algo.IDENTITY;
import static io.fulcrum.compression.Algo.RAW_DEFLATE;
import static org.assertj.core.api.Assertions.assertThat;

class NegotiationTest {

    private static HttpHeaders fields(String... nameValues) {
        HttpHeaders h = new HttpHeaders();
        for (int i = 0; i < nameValues.length; i += 2) {
            h.add(nameValues[i], nameValues[i + 1]);
        }
        return h;
    }

    private static Algo choose(String acceptEncoding, Algo... configured) {
        return Negotiation.choose(fields("Accept-Encoding", acceptEncoding), List.of(configured));
    }

    private static Compression comp(boolean offload, Algo... algos) {
        Compression c = new Compression();
        c.algos.addAll(List.of(algos));
        c.offload = offload;
        return c;
    }

    @Test
    void tokensAndQValues() {
        assertThat(choose("gzip", GZIP, DEFLATE)).isEqualTo(GZIP);
        assertThat(choose("GZip", GZIP)).isEqualTo(GZIP);
        assertThat(choose("br", GZIP)).isNull();
        assertThat(choose("gzip;q=0", GZIP)).isNull();
        assertThat(choose("gzip; q=0.5, deflate", GZIP, DEFLATE)).isEqualTo(DEFLATE);
        assertThat(choose("gzip;level=1;q=0.2, deflate;q=0.1", GZIP, DEFLATE)).isEqualTo(GZIP);
        // At equal q-values, the first token answered.
        assertThat(choose("deflate, gzip", GZIP, DEFLATE)).isEqualTo(DEFLATE);
        // "1.5" counts as 1; a q-value without digits as 1.
        assertThat(choose("gzip;q=0.9, deflate;q=1.5", GZIP, DEFLATE)).isEqualTo(DEFLATE);
        assertThat(choose("gzip;q=0.9, deflate;q=x", GZIP, DEFLATE)).isEqualTo(DEFLATE);
    }

    /** raw-deflate answers "deflate"; "*" takes the last algorithm configured (HAProxy's list is built backwards). */
    @Test
    void aliasesAndStar() {
        assertThat(choose("deflate", RAW_DEFLATE)).isEqualTo(RAW_DEFLATE);
        assertThat(choose("*", GZIP, DEFLATE)).isEqualTo(DEFLATE);
        assertThat(choose("identity", IDENTITY, GZIP)).isEqualTo(IDENTITY);
        assertThat(choose("deflate, *;q=0.5", GZIP)).isEqualTo(GZIP);
    }

    @Test
    void severalFields() {
        HttpHeaders h = fields("Accept-Encoding", "br;q=1", "Accept-Encoding", "gzip;q=0.3, deflate;q=0.4");
        assertThat(Negotiation.choose(h, List.of(GZIP, DEFLATE))).isEqualTo(DEFLATE);
    }

    @Test
    void offloadRemovesAcceptEncodingOnlyWhenAnAlgorithmIsChosen() {
        RequestHead r = new RequestHead(new AsciiString("GET"), new AsciiString("/"), 11, fields("Accept-Encoding", "gzip"));
        assertThat(Negotiation.select(r, null, comp(true, GZIP))).isEqualTo(GZIP);
        assertThat(r.headers().contains("accept-encoding")).isFalse();

        RequestHead other = new RequestHead(new AsciiString("GET"), new AsciiString("/"), 11, fields("Accept-Encoding", "br"));
        assertThat(Negotiation.select(other, comp(true, GZIP, IDENTITY), null)).isEqualTo(IDENTITY);
        assertThat(other.headers().contains("accept-encoding")).isTrue();
    }

    @Test
    void backendAlgorithmsWin() {
        RequestHead r = new RequestHead(new AsciiString("GET"), new AsciiString("/"), 11, fields("Accept-Encoding", "gzip, deflate"));
        assertThat(Negotiation.select(r, comp(false, GZIP), comp(false, DEFLATE))).isEqualTo(DEFLATE);
        assertThat(Negotiation.select(r, comp(false, GZIP), new Compression())).isEqualTo(GZIP);
    }

    @Test
    void oldMozillaButNewMsie() {
        assertThat(Negotiation.oldMozilla(new AsciiString("Mozilla/4.0 (compatible)"))).isTrue();
        assertThat(Negotiation.oldMozilla(new AsciiString("Mozilla/4.0 (compatible; MSIE 7.0; Windows NT 6.0)"))).isFalse();
        assertThat(Negotiation.oldMozilla(new AsciiString("Mozilla/4.0 (compatible; MSIE 5.5; Windows NT 5.0)"))).isTrue();
        assertThat(Negotiation.oldMozilla(new AsciiString("Mozilla/5.0 (X11)"))).isFalse();
    }

    private static ResponseHead response(int status, String... fields) {
        ResponseHead r = new ResponseHead(11, status, new AsciiString("X"), fields(fields));
        r.bodyLength(1000);
        return r;
    }

    @Test
    void responsesThatQualify() {
        RequestHead get = new RequestHead(new AsciiString("GET"), new AsciiString("/"), 11, fields());
        Compression types = new Compression();
        types.types.add("text/html");
        assertThat(Negotiation.qualifies(get, response(200, "Content-Type", "text/html; charset=utf-8"), types, null)).isTrue();
        assertThat(Negotiation.qualifies(get, response(200, "Content-Type", "Text/HTML"), types, null)).isTrue();
        assertThat(Negotiation.qualifies(get, response(200, "Content-Type", "image/png"), types, null)).isFalse();
        assertThat(Negotiation.qualifies(get, response(200), types, null)).isFalse();
        assertThat(Negotiation.qualifies(get, response(200), null, null)).isTrue();
        assertThat(Negotiation.qualifies(get, response(203), null, null)).isTrue();
        assertThat(Negotiation.qualifies(get, response(206), null, null)).isFalse();
        assertThat(Negotiation.qualifies(get, response(200, "Content-Type", "multipart/mixed"), null, null)).isFalse();
        assertThat(Negotiation.qualifies(get, response(200, "Cache-Control", "max-age=1, No-Transform"), null, null)).isFalse();
        assertThat(Negotiation.qualifies(get, response(200, "Content-Encoding", "br"), null, null)).isFalse();
        assertThat(Negotiation.qualifies(get, response(200, "ETag", "W/\"a\""), null, null)).isTrue();
        assertThat(Negotiation.qualifies(get, response(200, "ETag", "a"), null, null)).isFalse();
        assertThat(Negotiation.qualifies(get, response(200, "ETag", "\"a\"", "ETag", "\"b\""), null, null)).isFalse();
        ResponseHead closeDelimited = response(200);
        closeDelimited.bodyLength(HttpHead.UNTIL_CLOSE);
        assertThat(Negotiation.qualifies(get, closeDelimited, null, null)).isFalse();
        RequestHead http10 = new RequestHead(new AsciiString("GET"), new AsciiString("/"), 10, fields());
        assertThat(Negotiation.qualifies(http10, response(200), null, null)).isFalse();
    }

    @Test
    void rewrittenHead() {
        ResponseHead r = response(200, "Content-Length", "1000", "ETag", "\"v1\"");
        Negotiation.rewrite(r, GZIP);
        assertThat(r.headers().contains("content-length")).isFalse();
        assertThat(r.headers().get("etag").toString()).isEqualTo("W/\"v1\"");
        assertThat(r.headers().get("vary").toString()).isEqualTo("Accept-Encoding");
        assertThat(r.headers().get("content-encoding").toString()).isEqualTo("gzip");
        ResponseHead id = response(200);
        Negotiation.rewrite(id, IDENTITY);
        assertThat(id.headers().contains("content-encoding")).isFalse();
    }
}
