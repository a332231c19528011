package io.fulcrum.it;

import io.fulcrum.it.HttpClientConn.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.zip.GZIPInputStream;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;

import static io.fulcrum.it.HttpKit.serve;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code compression}: a real origin sends a large body (with a length, or in chunks), the client gets it compressed
 * as it asked and decodes the same bytes; the responses HAProxy 2.6 leaves alone stay as they were. Runs against
 * HAProxy with -Dit.proxy=haproxy: the same fields come out.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CompressionIT {
    /** About 3 MB of text that compresses well, but not to nothing (the line numbers change). */
    private static final byte[] BODY = text(60_000);

    private static byte[] text(int lines) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < lines; i++) {
            b.append("line ").append(i).append(": the quick brown fox jumps over the lazy dog ").append(i * 7919 % 1000).append('\n');
        }
        return b.toString().getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * The origin: /chunked sends the body in chunks of 64 kB and a trailer, /type/X with Content-Type X, /field/N:V with one more
     * field, /status/N with that status; else the body with a Content-Length, as text/plain.
     */
    private static HttpOrigin origin() throws IOException {
        return HttpOrigin.start(x -> {
            x.readBody();
            String t = x.target();
            String type = t.startsWith("/type/") ? t.substring(6).replace("%20", " ") : "text/plain";
            String extra = t.startsWith("/field/") ? t.substring(7).replace("%20", " ") + "\r\n" : "";
            int status = t.startsWith("/status/") ? Integer.parseInt(t.substring(8)) : 200;
            String head = "HTTP/1.1 " + status + " " + HttpOrigin.reason(status) + "\r\nContent-Type: " + type + "\r\n" + extra
                    + "X-Accept-Encoding: " + x.head.all("accept-encoding") + "\r\n";
            if (t.equals("/chunked")) {
                x.send(head + "Transfer-Encoding: chunked\r\n\r\n");
                for (int off = 0; off < BODY.length; off += 65536) {
                    int n = Math.min(65536, BODY.length - off);
                    x.send(Integer.toHexString(n) + "\r\n");
                    x.out.write(BODY, off, n);
                    x.send("\r\n");
                }
                x.send("0\r\nX-Sent: all\r\n\r\n");
            } else if (x.method().equals("HEAD")) {
                x.send(head + "Content-Length: " + BODY.length + "\r\n\r\n");
            } else {
                x.send(head + "Content-Length: " + BODY.length + "\r\n\r\n");
                x.send(BODY);
            }
        });
    }

    private static String config(int fe, int be, String frontend, String backend) {
        return HttpKit.config("127.0.0.1:" + fe, frontend, backend, be);
    }

    private static String get(String path, String... fields) {
        return request("GET", path, "HTTP/1.1", fields);
    }

    private static String request(String method, String path, String version, String... fields) {
        StringBuilder b = new StringBuilder(method + " " + path + " " + version + "\r\nHost: test\r\n");
        for (String f : fields) {
            b.append(f).append("\r\n");
        }
        return b.append("\r\n").toString();
    }

    private static byte[] decode(InputStream in) throws IOException {
        try (in) {
            return in.readAllBytes();
        }
    }

    /** The response was compressed as HAProxy does it: chunked, no length, Vary, the encoding. */
    private static void assertCompressed(Response r, String encoding) {
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.get("content-length")).isNull();
        assertThat(r.get("transfer-encoding")).isEqualTo("chunked");
        assertThat(r.head().all("vary")).containsExactly("Accept-Encoding");
        assertThat(r.head().all("content-encoding")).containsExactly(encoding);
        assertThat(r.body().length).isLessThan(BODY.length / 4);
    }

    /** As the origin sent it: the same body and length, no Vary (the origin's own Content-Encoding stays). */
    private static void assertUntouched(Response r) {
        assertThat(r.get("vary")).isNull();
        assertThat(r.get("content-length")).isEqualTo(Integer.toString(BODY.length));
        assertThat(r.body()).isEqualTo(BODY);
    }

    /** What a test does with a client connection to the proxy. */
    @FunctionalInterface
    private interface Client {
        void run(HttpClientConn c) throws Exception;
    }

    /** Runs {@code test} against a proxy whose frontend and backend have these lines, in front of {@link #origin()}. */
    private static void withProxy(String frontend, String backend, Client test) throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = origin();
             FulcrumProcess proxy = serve(config(fe, origin.port(), frontend, backend), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            test.run(c);
        }
    }

    @Test
    void gzipOfALengthAndOfChunks() throws Exception {
        withProxy("compression algo gzip\ncompression type text/html text/plain\nhttp-response set-header x-comp %[res.comp]", "", c -> {
            for (String path : new String[] {"/", "/chunked"}) {
                Response r = c.exchange(get(path, "Accept-Encoding: gzip, deflate"));
                assertCompressed(r, "gzip");
                assertThat(r.get("x-accept-encoding")).isEqualTo("[gzip, deflate]");
                // HAProxy decides on the server's head, before the response rules.
                assertThat(r.get("x-comp")).isEqualTo("1");
                assertThat(decode(new GZIPInputStream(new ByteArrayInputStream(r.body())))).isEqualTo(BODY);
                assertThat(r.trailers().toString().toLowerCase(Locale.ROOT)).isEqualTo(path.equals("/") ? "[]" : "[x-sent: all]");
            }
        });
    }

    /** {@code tune.comp.maxlevel}: every response is compressed at that level (tighter at 9 than at the default 1). */
    @Test
    void maxLevel() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeFalse(HttpKit.haproxy(),
                "Debian's haproxy compresses with libslz, which has no levels (zlib builds have them)");
        int[] sizes = new int[2];
        String[] globals = {"", "global\n    tune.comp.maxlevel 9\n"};
        for (int i = 0; i < 2; i++) {
            int fe = freePort();
            try (HttpOrigin origin = origin();
                 FulcrumProcess proxy = serve(globals[i] + config(fe, origin.port(), "compression algo gzip", ""), fe);
                 HttpClientConn c = HttpClientConn.open(fe)) {
                Response r = c.exchange(get("/", "Accept-Encoding: gzip"));
                assertCompressed(r, "gzip");
                assertThat(decode(new GZIPInputStream(new ByteArrayInputStream(r.body())))).isEqualTo(BODY);
                sizes[i] = r.body().length;
            }
        }
        assertThat(sizes[1]).isLessThan(sizes[0]);
    }

    /**
     * {@code maxcomprate}: {@code show info} gives it in bytes; a response that starts under it is compressed, its
     * level stepping down to 0 (stored) once the output rate is above it, so that most of the body goes out stored; the
     * next response, starting while the input rate is above it, goes as it is; {@code set rate-limit
     * http-compression global 0} lifts it.
     */
    @Test
    void maxcomprate() throws Exception {
        Path sock = Files.createTempDirectory("fulcrum-comprate").resolve("s.sock");
        int fe = freePort();
        String global = "global\n    maxcomprate 1\n    stats socket " + sock + " level admin\n";
        try (HttpOrigin origin = origin();
             FulcrumProcess proxy = serve(global + config(fe, origin.port(), "compression algo gzip", ""), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(CliClient.send(sock, "show info")).contains("\nCompressBpsRateLim: 1024\n");
            Response first = c.exchange(get("/", "Accept-Encoding: gzip"));
            assertThat(first.head().all("content-encoding")).containsExactly("gzip");
            assertThat(decode(new GZIPInputStream(new ByteArrayInputStream(first.body())))).isEqualTo(BODY);
            assertThat(first.body().length).as("stored after the first pieces").isGreaterThan(BODY.length / 2);
            assertUntouched(c.exchange(get("/", "Accept-Encoding: gzip")));
            assertThat(CliClient.send(sock, "set rate-limit http-compression global 0")).isEqualTo("\n");
            assertCompressed(c.exchange(get("/", "Accept-Encoding: gzip")), "gzip");
        }
    }

    /**
     * {@code maxzlibmem}: each compressing response holds its zlib stream's memory ({@code ZlibMemUsage}) until it
     * ends; a response that starts while one more stream would go above the limit goes as it is; once the others
     * ended, responses are compressed again. 1 MB holds three of zlib's streams (about 262 kB each), not four.
     */
    @Test
    void maxzlibmem() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeFalse(HttpKit.haproxy(),
                "Debian's haproxy compresses with libslz, which has no zlib memory (zlib builds limit it)");
        Path sock = Files.createTempDirectory("fulcrum-zlibmem").resolve("s.sock");
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        int fe = freePort();
        String global = "global\n    maxzlibmem 1\n    stats socket " + sock + " level admin\n";
        // /hold sends its head and a first chunk, then waits for the test before the rest.
        try (HttpOrigin origin = HttpOrigin.start(x -> {
                x.readBody();
                String head = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n";
                if (x.target().equals("/hold")) {
                    x.send(head + "Transfer-Encoding: chunked\r\n\r\n" + Integer.toHexString(BODY.length) + "\r\n");
                    x.out.write(BODY, 0, BODY.length);
                    x.out.flush();
                    release.await();
                    x.send("\r\n0\r\n\r\n");
                } else {
                    x.send(head + "Content-Length: " + BODY.length + "\r\n\r\n");
                    x.send(BODY);
                }
            });
             FulcrumProcess proxy = serve(global + config(fe, origin.port(), "compression algo gzip", ""), fe)) {
            assertThat(CliClient.send(sock, "show info")).contains("\nZlibMemUsage: 0\n").contains("\nMaxZlibMemUsage: 1048576\n");
            List<HttpClientConn> held = new java.util.ArrayList<>();
            List<HttpWire.Head> heads = new java.util.ArrayList<>();
            try {
                for (int i = 0; i < 3; i++) {
                    HttpClientConn c = HttpClientConn.open(fe);
                    held.add(c);
                    c.send(get("/hold", "Accept-Encoding: gzip"));
                    heads.add(c.readHead());
                    assertThat(heads.get(i).all("content-encoding")).as("stream " + i).containsExactly("gzip");
                }
                long used = infoValue(CliClient.send(sock, "show info"), "ZlibMemUsage");
                assertThat(used).isGreaterThan(3 * 256 * 1024L).isLessThanOrEqualTo(1024 * 1024L);
                try (HttpClientConn c = HttpClientConn.open(fe)) {
                    assertUntouched(c.exchange(get("/", "Accept-Encoding: gzip")));
                }
                release.countDown();
                for (int i = 0; i < 3; i++) {
                    byte[] body = held.get(i).body(heads.get(i), "GET").readAllBody();
                    assertThat(decode(new GZIPInputStream(new ByteArrayInputStream(body)))).isEqualTo(BODY);
                }
            } finally {
                release.countDown();
                for (HttpClientConn c : held) {
                    c.close();
                }
            }
            assertThat(infoValue(CliClient.send(sock, "show info"), "ZlibMemUsage")).isZero();
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                assertCompressed(c.exchange(get("/", "Accept-Encoding: gzip")), "gzip");
            }
        }
    }

    private static long infoValue(String info, String field) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^" + field + ": (\\d+)$").matcher(info);
        assertThat(m.find()).as(field + " in\n" + info).isTrue();
        return Long.parseLong(m.group(1));
    }

    @Test
    void deflateAndRawDeflate() throws Exception {
        withProxy("compression algo deflate", "compression algo raw-deflate", c -> {
            // The backend's algorithms win.
            Response r = c.exchange(get("/", "Accept-Encoding: deflate"));
            assertCompressed(r, "deflate");
            assertThat(decode(new InflaterInputStream(new ByteArrayInputStream(r.body()), new Inflater(true)))).isEqualTo(BODY);
        });
        withProxy("compression algo deflate", "", c -> {
            Response r = c.exchange(get("/chunked", "Accept-Encoding: deflate"));
            assertCompressed(r, "deflate");
            assertThat(decode(new InflaterInputStream(new ByteArrayInputStream(r.body())))).isEqualTo(BODY);
        });
    }

    /** The highest q-value wins; at equal q-values, the first token an algorithm answers; q=0 refuses. */
    @Test
    void qValues() throws Exception {
        withProxy("compression algo gzip deflate", "", c -> {
            assertThat(c.exchange(get("/", "Accept-Encoding: gzip;q=0.5, deflate")).get("content-encoding")).isEqualTo("deflate");
            assertThat(c.exchange(get("/", "Accept-Encoding: br, gzip;q=0.9", "Accept-Encoding: deflate;q=0.2")).get("content-encoding"))
                    .isEqualTo("gzip");
            assertUntouched(c.exchange(get("/", "Accept-Encoding: gzip;q=0")));
            assertUntouched(c.exchange(get("/", "Accept-Encoding: br")));
            assertUntouched(c.exchange(get("/")));
        });
    }

    /** What HAProxy leaves as it is. */
    @Test
    void notCompressed() throws Exception {
        withProxy("compression algo gzip\ncompression type text/", "http-response set-header x-comp %[res.comp]", c -> {
            String ae = "Accept-Encoding: gzip";
            Response json = c.exchange(get("/type/application/json", ae));
            assertUntouched(json);
            assertThat(json.get("x-comp")).isEqualTo("0");
            assertUntouched(c.exchange(get("/field/Content-Encoding:%20br", ae)));
            assertUntouched(c.exchange(get("/field/Cache-Control:%20public,%20no-transform", ae)));
            assertUntouched(c.exchange(get("/field/ETag:%20bad", ae)));
            assertUntouched(c.exchange(get("/status/404", ae)));
            assertUntouched(c.exchange(get("/", ae, "User-Agent: Mozilla/4.0 (compatible)")));
            Response head = c.exchange(request("HEAD", "/", "HTTP/1.1", ae));
            assertThat(head.get("content-encoding")).isNull();
            assertThat(head.get("content-length")).isEqualTo(Integer.toString(BODY.length));
        });
        withProxy("compression algo gzip", "", c -> {
            c.send(request("GET", "/", "HTTP/1.0", "Accept-Encoding: gzip"));
            assertUntouched(c.read());
        });
    }

    /**
     * The compressed response's head, byte for byte as HAProxy 2.6 writes it (checked on haproxy): the server's fields,
     * its Vary and ETag (weakened) in their place, then Transfer-Encoding (in its place when the server chunked), Vary
     * and Content-Encoding. A Content-Length response's Transfer-Encoding came last (after Content-Encoding).
     */
    @Test
    void headFieldsInHAProxysOrder() throws Exception {
        withProxy("compression algo gzip deflate", "", c -> {
            for (String algo : new String[] {"gzip", "deflate"}) {
                String tail = "transfer-encoding: chunked\r\nvary: Accept-Encoding\r\ncontent-encoding: " + algo + "\r\n\r\n";
                String accepted = "x-accept-encoding: [" + algo + "]\r\n";
                assertThat(c.exchange(get("/", "Accept-Encoding: " + algo)).head().raw())
                        .isEqualTo("HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n" + accepted + tail);
                assertThat(c.exchange(get("/chunked", "Accept-Encoding: " + algo)).head().raw())
                        .isEqualTo("HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n" + accepted + tail);
                assertThat(c.exchange(get("/field/Vary:%20Cookie", "Accept-Encoding: " + algo)).head().raw())
                        .isEqualTo("HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\nvary: Cookie\r\n" + accepted + tail);
                assertThat(c.exchange(get("/field/ETag:%20\"v1\"", "Accept-Encoding: " + algo)).head().raw())
                        .isEqualTo("HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\netag: W/\"v1\"\r\n" + accepted + tail);
            }
            // Connection comes after them all.
            assertThat(c.exchange(get("/", "Accept-Encoding: gzip", "Connection: close")).head().raw()).isEqualTo(
                    "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\nx-accept-encoding: [gzip]\r\ntransfer-encoding: chunked\r\n"
                            + "vary: Accept-Encoding\r\ncontent-encoding: gzip\r\nconnection: close\r\n\r\n");
            c.awaitClosed(5_000);
        });
    }

    /** A strong ETag becomes weak: the compressed bytes are not the ones it named. */
    @Test
    void etagBecomesWeak() throws Exception {
        withProxy("compression algo gzip", "", c -> {
            Response r = c.exchange(get("/field/ETag:%20\"v1\"", "Accept-Encoding: gzip"));
            assertCompressed(r, "gzip");
            assertThat(r.get("etag")).isEqualTo("W/\"v1\"");
        });
    }

    /** offload: the server does not see Accept-Encoding; identity answers without one and adds no encoding. */
    @Test
    void offloadAndIdentity() throws Exception {
        withProxy("compression algo identity gzip\ncompression offload", "", c -> {
            Response r = c.exchange(get("/", "Accept-Encoding: gzip"));
            assertCompressed(r, "gzip");
            assertThat(r.get("x-accept-encoding")).isEqualTo("[]");
            Response id = c.exchange(get("/"));
            assertThat(id.get("content-encoding")).isNull();
            assertThat(id.get("content-length")).isNull();
            assertThat(id.get("vary")).isEqualTo("Accept-Encoding");
            assertThat(id.body()).isEqualTo(BODY);
        });
    }

    /** res.comp and res.comp_algo, in the log line. */
    @Test
    void fetchesInTheLog() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin origin = origin();
             FulcrumProcess proxy = serve(LogIT.config(logs, "http", fe,
                     "compression algo raw-deflate\nlog-format \"%[res.comp] %[res.comp_algo]\"",
                     "server s1 127.0.0.1:" + origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            c.exchange(get("/", "Accept-Encoding: deflate"));
            assertThat(logs.next()).isEqualTo("1 raw-deflate\n");
            c.exchange(get("/"));
            assertThat(logs.next()).isEqualTo("0 -\n");
        }
    }
}
