package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The small object cache (configuration.txt section 6): a scripted origin numbers its answers (X-Hit), so that a
 * response from the cache carries the number of the one stored. What is stored and served (Cache-Control, Expires,
 * validators, status, method, version, Authorization, Vary), Age, HEAD from a stored GET, 304 to conditional
 * requests, max-object-size, eviction of the oldest by total-max-size, expiry, invalidation by an unsafe method, the
 * fetches, the log line of a hit and {@code show cache}. Passes against haproxy too ({@code -Dit.proxy=haproxy}).
 */
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CacheIT {

    /** The origin: the fields asked for in the query ("h=Name:value", "+" for a space), a body of "size" bytes. */
    private static HttpOrigin origin(AtomicInteger hits) throws Exception {
        return HttpOrigin.start(x -> {
            String target = x.target();
            int q = target.indexOf('?');
            StringBuilder body = new StringBuilder("hello");
            java.util.List<String> fields = new java.util.ArrayList<>();
            fields.add("X-Hit: " + hits.incrementAndGet());
            int status = 200;
            for (String p : q < 0 ? new String[0] : target.substring(q + 1).split("&")) {
                String v = java.net.URLDecoder.decode(p.substring(p.indexOf('=') + 1), java.nio.charset.StandardCharsets.UTF_8);
                if (p.startsWith("h=")) {
                    fields.add(v);
                } else if (p.startsWith("size=")) {
                    body = new StringBuilder("x".repeat(Integer.parseInt(v)));
                } else if (p.startsWith("status=")) {
                    status = Integer.parseInt(v);
                }
            }
            if (target.contains("chunked=1")) {
                x.readBody();
                StringBuilder b = new StringBuilder("HTTP/1.1 " + status + " OK\r\n");
                fields.forEach(f -> b.append(f).append("\r\n"));
                b.append("Transfer-Encoding: chunked\r\n\r\n");
                b.append(Integer.toHexString(body.length())).append("\r\n").append(body).append("\r\n0\r\n\r\n");
                x.send(x.method().equals("HEAD") ? b.substring(0, b.indexOf("\r\n\r\n") + 4) : b.toString());
            } else if (x.method().equals("HEAD")) {
                x.send("HTTP/1.1 " + status + " OK\r\n" + String.join("\r\n", fields) + "\r\nContent-Length: " + body.length() + "\r\n\r\n");
            } else {
                x.reply(status, body.toString(), fields.toArray(String[]::new));
            }
        });
    }

    private static String config(Path sock, SyslogListener logs, int fe, int be) {
        return """
                global
                    stats socket %s level admin
                    log 127.0.0.1:%d format raw local0
                defaults
                    mode http
                    log global
                    timeout connect 2s
                    timeout client 10s
                    timeout server 10s
                frontend fe
                    bind 127.0.0.1:%d
                    log-format "%%b/%%s %%ST %%ts %%HM %%HU"
                    http-response set-header X-Cache-Hit %%[res.cache_hit]
                    http-response set-header X-Cache-Name %%[res.cache_name] if { res.cache_hit }
                    use_backend vary if { path_beg /v/ }
                    use_backend small if { path_beg /s/ }
                    default_backend be
                backend be
                    compression algo gzip
                    compression type text/plain
                    http-request cache-use main
                    http-response cache-store main
                    server s1 127.0.0.1:%d
                backend vary
                    http-request cache-use varying
                    http-response cache-store varying
                    server s1 127.0.0.1:%4$d
                backend small
                    filter cache small
                    http-request cache-use small
                    http-response cache-store small
                    server s1 127.0.0.1:%4$d
                cache main
                    total-max-size 4
                    max-age 240
                cache varying
                    total-max-size 1
                    process-vary on
                cache small
                    total-max-size 1
                    max-object-size 524288
                    max-age 2
                """.formatted(sock, logs.port(), fe, be);
    }

    /** What a test drives: the proxy's port and CLI socket, its log, the origin. */
    @FunctionalInterface
    private interface Rig {
        void run(int fe, Path sock, SyslogListener logs, HttpOrigin origin) throws Exception;
    }

    /** Starts the origin and the proxy in front of it (a fresh cache), runs {@code test}, stops them. */
    private static void run(Rig test) throws Exception {
        int fe = freePort();
        Path sock = Files.createTempDirectory("fulcrum-cache").resolve("s.sock");
        try (SyslogListener logs = SyslogListener.open(); HttpOrigin origin = origin(new AtomicInteger());
             FulcrumProcess proxy = HttpKit.serve(config(sock, logs, fe, origin.port()), fe)) {
            test.run(fe, sock, logs, origin);
        }
    }

    /** Runs {@code request} on a new connection. */
    private static HttpClientConn.Response exchange(int fe, String request) throws Exception {
        try (HttpClientConn c = HttpClientConn.open(fe)) {
            return c.exchange(request);
        }
    }

    private static HttpClientConn.Response get(int fe, String target, String... fields) throws Exception {
        StringBuilder b = new StringBuilder("GET " + target + " HTTP/1.1\r\nHost: cache.test\r\n");
        for (String f : fields) {
            b.append(f).append("\r\n");
        }
        return exchange(fe, b.append("\r\n").toString());
    }

    /** True when the second of two identical requests is answered from the cache with the first one's response. */
    private static boolean stored(int fe, String target, String... fields) throws Exception {
        HttpClientConn.Response first = get(fe, target, fields);
        HttpClientConn.Response second = get(fe, target, fields);
        return first.get("X-Hit").equals(second.get("X-Hit")) && "1".equals(second.get("X-Cache-Hit"));
    }

    @Test
    void hitsCarryAgeAndAreLoggedAsTheCache() throws Exception {
        run((fe, sock, logs, origin) -> {
            String target = "/a?h=Cache-Control:+max-age%3D60";
            HttpClientConn.Response miss = get(fe, target);
            assertThat(miss.status()).isEqualTo(200);
            assertThat(miss.get("X-Cache-Hit")).isEqualTo("0");
            assertThat(miss.get("Age")).isNull();
            assertThat(logs.next()).isEqualTo("be/s1 200 -- GET " + target + "\n");
            HttpClientConn.Response hit = get(fe, target);
            assertThat(hit.bodyText()).isEqualTo("hello");
            assertThat(hit.get("X-Hit")).isEqualTo(miss.get("X-Hit"));
            assertThat(hit.get("X-Cache-Hit")).isEqualTo("1");
            assertThat(hit.get("X-Cache-Name")).isEqualTo("main");
            assertThat(hit.get("Age")).isIn("0", "1");
            assertThat(logs.next()).isEqualTo("be/<CACHE> 200 LR GET " + target + "\n");
            // HEAD is answered from the stored GET, without a body
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                HttpClientConn.Response head = c.exchange("HEAD " + target + " HTTP/1.1\r\nHost: cache.test\r\n\r\n");
                assertThat(head.get("X-Hit")).isEqualTo(miss.get("X-Hit"));
                assertThat(head.get("Content-Length")).isEqualTo("5");
                assertThat(head.body()).isEmpty();
            }
            assertThat(origin.requests(1)).hasSize(1);
            // the server's Age counts in, and is not passed on by the first answer either
            String aged = "/aged?h=Cache-Control:+max-age%3D60&h=Age:+5";
            assertThat(get(fe, aged).get("Age")).isNull();
            assertThat(get(fe, aged).get("Age")).isIn("5", "6");
            String show = CliClient.send(sock, "show cache");
            assertThat(show).containsPattern("(?m)^0x[0-9a-f]+: main \\(shctx:0x[0-9a-f]+, available blocks:4096\\)$");
            assertThat(show).containsPattern("(?m)^0x[0-9a-f]+ hash:[0-9]+ vary:0x0{16} size:[0-9]+ \\(1 blocks\\), refcount:0, expire:(59|60)$");
            // lookups and hits are counted by the proxy of the rule (the HEAD counts too); an answer from the cache is
            // a session of the backend (not one the balancing counts), not an interception
            Map<String, Map<String, String>> stats = StatsIT.rows(CliClient.send(sock, "show stat"));
            assertThat(stats.get("be/BACKEND")).containsEntry("cache_lookups", "5").containsEntry("cache_hits", "3")
                    .containsEntry("stot", "5").containsEntry("lbtot", "2");
            assertThat(stats.get("fe/FRONTEND")).containsEntry("intercepted", "0");
        });
    }

    @Test
    void onlyCacheableResponsesToCacheableRequestsAreStored() throws Exception {
        run((fe, sock, logs, origin) -> {
            assertThat(stored(fe, "/etag?h=ETag:+%22x%22")).as("a validator").isTrue();
            assertThat(stored(fe, "/lm?h=Last-Modified:+Mon,+01+Jan+2024+00:00:00+GMT")).as("a validator").isTrue();
            assertThat(stored(fe, "/exp?h=Expires:+Mon,+01+Jan+2035+00:00:00+GMT")).as("Expires").isTrue();
            assertThat(stored(fe, "/chunked?chunked=1&h=Cache-Control:+max-age%3D60")).as("chunked").isTrue();
            assertThat(stored(fe, "/cookie?h=Cache-Control:+max-age%3D60&h=Set-Cookie:+a%3D1")).as("a cookie, as HAProxy").isTrue();
            assertThat(stored(fe, "/none")).as("neither freshness nor validator").isFalse();
            assertThat(stored(fe, "/public?h=Cache-Control:+public")).as("public alone").isFalse();
            assertThat(stored(fe, "/past?h=Expires:+Mon,+01+Jan+2005+00:00:00+GMT")).as("expired").isFalse();
            assertThat(stored(fe, "/private?h=Cache-Control:+private,+max-age%3D60")).as("private").isFalse();
            assertThat(stored(fe, "/nocache?h=Cache-Control:+no-cache")).as("no-cache").isFalse();
            assertThat(stored(fe, "/nostore?h=Cache-Control:+no-store,+max-age%3D60")).as("no-store").isFalse();
            assertThat(stored(fe, "/zero?h=Cache-Control:+max-age%3D0")).as("max-age=0").isFalse();
            assertThat(stored(fe, "/sc?h=Cache-Control:+max-age%3D60,+no-cache%3D%22set-cookie%22")).as("no-cache=set-cookie").isFalse();
            assertThat(stored(fe, "/pragma?h=Cache-Control:+max-age%3D60&h=Pragma:+no-cache")).as("Pragma").isFalse();
            assertThat(stored(fe, "/404?status=404&h=Cache-Control:+max-age%3D60")).as("404").isFalse();
            assertThat(stored(fe, "/vary?h=Cache-Control:+max-age%3D60&h=Vary:+accept-encoding")).as("Vary without process-vary").isFalse();
            assertThat(stored(fe, "/old?h=Cache-Control:+max-age%3D60&h=Age:+90")).as("older than its max-age").isFalse();
            // requests
            String t = "/req?h=Cache-Control:+max-age%3D60";
            assertThat(stored(fe, t, "Authorization: Basic eDp5")).as("Authorization").isFalse();
            assertThat(stored(fe, t, "Cache-Control: no-store")).as("no-store").isFalse();
            assertThat(exchange(fe, "GET " + t + " HTTP/1.0\r\nHost: cache.test\r\n\r\n").get("X-Cache-Hit")).as("HTTP/1.0").isEqualTo("0");
            assertThat(stored(fe, t)).isTrue();
            assertThat(get(fe, t, "Cache-Control: no-cache").get("X-Cache-Hit")).as("no-cache is not served").isEqualTo("0");
            assertThat(get(fe, t, "Pragma: no-cache").get("X-Cache-Hit")).as("Pragma is not served").isEqualTo("0");
            assertThat(get(fe, t, "Cache-Control: no-store").get("X-Cache-Hit")).as("no-store is served").isEqualTo("1");
            // a successful POST on the resource invalidates it
            assertThat(exchange(fe, "POST " + t + " HTTP/1.1\r\nHost: cache.test\r\nContent-Length: 1\r\n\r\nx").get("X-Cache-Hit")).isEqualTo("0");
            assertThat(get(fe, t).get("X-Cache-Hit")).isEqualTo("0");
            assertThat(get(fe, t).get("X-Cache-Hit")).isEqualTo("1");
        });
    }

    /**
     * With compression in the cache's proxy, the response is stored as the server sent it (the cache's filter comes
     * before compression) and compressed again for each client that accepts it.
     */
    @Test
    void compressedResponsesAreStoredAsSent() throws Exception {
        run((fe, sock, logs, origin) -> {
            String t = "/text?size=100&h=Content-Type:+text/plain&h=Cache-Control:+max-age%3D60";
            HttpClientConn.Response gzipped = get(fe, t, "Accept-Encoding: gzip");
            assertThat(gzipped.get("Content-Encoding")).isEqualTo("gzip");
            HttpClientConn.Response plain = get(fe, t);
            assertThat(plain.get("X-Cache-Hit")).isEqualTo("1");
            assertThat(plain.get("Content-Encoding")).isNull();
            assertThat(plain.get("Content-Length")).isEqualTo("100");
            assertThat(plain.bodyText()).isEqualTo("x".repeat(100));
            HttpClientConn.Response again = get(fe, t, "Accept-Encoding: gzip");
            assertThat(again.get("X-Cache-Hit")).isEqualTo("1");
            assertThat(again.get("Content-Encoding")).isEqualTo("gzip");
            assertThat(origin.requests(1)).hasSize(1);
        });
    }

    @Test
    void conditionalRequestsGetNotModified() throws Exception {
        run((fe, sock, logs, origin) -> {
            String t = "/cond?h=Cache-Control:+max-age%3D60&h=ETag:+%22v1%22&h=Last-Modified:+Mon,+01+Jan+2024+00:00:00+GMT";
            assertThat(stored(fe, t)).isTrue();
            HttpClientConn.Response r = get(fe, t, "If-None-Match: \"v1\"");
            assertThat(r.status()).isEqualTo(304);
            assertThat(r.get("ETag")).isEqualTo("\"v1\"");
            assertThat(r.body()).isEmpty();
            assertThat(get(fe, t, "If-None-Match: W/\"v1\"").status()).as("weak comparison").isEqualTo(304);
            assertThat(get(fe, t, "If-None-Match: *").status()).isEqualTo(304);
            assertThat(get(fe, t, "If-None-Match: \"v2\"").status()).isEqualTo(200);
            assertThat(get(fe, t, "If-Modified-Since: Tue, 02 Jan 2024 00:00:00 GMT").status()).isEqualTo(304);
            assertThat(get(fe, t, "If-Modified-Since: Sun, 31 Dec 2023 00:00:00 GMT").status()).isEqualTo(200);
            assertThat(get(fe, t, "If-None-Match: \"v2\"", "If-Modified-Since: Tue, 02 Jan 2024 00:00:00 GMT").status())
                    .as("If-None-Match decides").isEqualTo(200);
            assertThat(origin.requests(1)).hasSize(1);
        });
    }

    @Test
    void varyingResponsesAreStoredPerVariant() throws Exception {
        run((fe, sock, logs, origin) -> {
            String gz = "/v/1?h=Cache-Control:+max-age%3D60&h=Vary:+accept-encoding&h=Content-Encoding:+gzip";
            assertThat(stored(fe, gz, "Accept-Encoding: gzip")).isTrue();
            assertThat(get(fe, gz, "Accept-Encoding: br, gzip").get("X-Cache-Hit")).as("gzip accepted").isEqualTo("1");
            assertThat(get(fe, gz).get("X-Cache-Hit")).as("any coding accepted").isEqualTo("1");
            assertThat(get(fe, gz, "Accept-Encoding: br").get("X-Cache-Hit")).as("gzip not accepted").isEqualTo("0");
            String plain = "/v/2?h=Cache-Control:+max-age%3D60&h=Vary:+accept-encoding";
            assertThat(stored(fe, plain)).isTrue();
            assertThat(get(fe, plain, "Accept-Encoding: gzip").get("X-Cache-Hit")).as("identity accepted").isEqualTo("1");
            assertThat(get(fe, plain, "Accept-Encoding: gzip, identity;q=0").get("X-Cache-Hit")).as("identity refused").isEqualTo("0");
            String both = "/v/3?h=Cache-Control:+max-age%3D60&h=Vary:+accept-encoding,referer";
            assertThat(stored(fe, both, "Referer: /a")).isTrue();
            assertThat(get(fe, both, "Referer: /b").get("X-Cache-Hit")).as("another referer").isEqualTo("0");
            assertThat(stored(fe, "/v/4?h=Cache-Control:+max-age%3D60&h=Vary:+user-agent")).as("a field not handled").isFalse();
            assertThat(stored(fe, "/v/5?h=Cache-Control:+max-age%3D60&h=Vary:+*")).isFalse();
            assertThat(stored(fe, "/v/6?h=Cache-Control:+max-age%3D60&h=Vary:+accept-encoding&h=Content-Encoding:+foo"))
                    .as("an unknown coding").isFalse();
            assertThat(CliClient.send(sock, "show cache")).containsPattern("(?m) vary:0x01000000[0-9a-f]{8} ");
        });
    }

    @Test
    void sizeLimitsEvictionAndExpiry() throws Exception {
        run((fe, sock, logs, origin) -> {
            String fresh = "&h=Cache-Control:+max-age%3D60";
            assertThat(stored(fe, "/s/1?size=500000" + fresh)).as("within max-object-size").isTrue();
            assertThat(stored(fe, "/s/2?size=530000" + fresh)).as("beyond max-object-size").isFalse();
            assertThat(stored(fe, "/s/3?size=530000&chunked=1" + fresh)).as("beyond, chunked").isFalse();
            // three objects of 400 kB in 1 MB: the oldest goes
            for (String t : new String[] {"/s/a", "/s/b", "/s/c"}) {
                get(fe, t + "?size=400000" + fresh);
            }
            assertThat(get(fe, "/s/c?size=400000" + fresh).get("X-Cache-Hit")).isEqualTo("1");
            assertThat(get(fe, "/s/a?size=400000" + fresh).get("X-Cache-Hit")).isEqualTo("0");
            // max-age 2 bounds the response's 60 s
            assertThat(stored(fe, "/s/exp?size=10" + fresh)).isTrue();
            Thread.sleep(3200);
            assertThat(get(fe, "/s/exp?size=10" + fresh).get("X-Cache-Hit")).isEqualTo("0");
        });
    }
}
