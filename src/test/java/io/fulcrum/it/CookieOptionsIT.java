package io.fulcrum.it;

import io.fulcrum.sample.Hashes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The options of {@code cookie} over real sockets, the Set-Cookie fields compared whole: {@code postonly},
 * {@code preserve}, {@code secure}, {@code httponly}, {@code domain} (several) and {@code attr}; the dates of
 * {@code maxidle}/{@code maxlife} and how they end persistence; {@code dynamic} cookies; {@code option persist} with
 * and without {@code option redispatch}. The expectations are what HAProxy 2.6 does with the same configuration
 * (run with -Dit.proxy=haproxy). {@code balance first} sends a request without persistence to s1, so that only the
 * cookie takes one to s2.
 */
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CookieOptionsIT {
    private static final String B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

    /** A server answering its name; on a path with "/app" it sets its own cookie SRV=app. */
    private static HttpOrigin named(String name) throws Exception {
        return HttpOrigin.start(x -> {
            if (x.target().contains("/app")) {
                x.reply(200, name, "Set-Cookie: SRV=app; path=/");
            } else {
                x.reply(200, name);
            }
        });
    }

    /** {@code listen} sections of the lines given (after {@code balance first}) with a log of "%s %ST %tsc". */
    private static String config(SyslogListener logs, String... listens) {
        StringBuilder b = new StringBuilder("""
                global
                    log 127.0.0.1:%d format raw local0
                defaults
                    mode http
                    log global
                    log-format "%%s %%ST %%tsc"
                    balance first
                    timeout connect 2s
                    timeout client 10s
                    timeout server 10s
                """.formatted(logs.port()));
        for (String l : listens) {
            b.append(l);
        }
        return b.toString();
    }

    private static String listen(String name, int port, String lines) {
        return "listen " + name + "\n    bind 127.0.0.1:" + port + "\n" + lines.indent(4);
    }

    private static HttpResponse<String> send(HttpClient client, int fe, String method, String path, String cookie)
            throws Exception {
        HttpRequest.Builder b = HttpKit.request(fe, path).method(method, method.equals("POST")
                ? HttpRequest.BodyPublishers.ofString("x=1") : HttpRequest.BodyPublishers.noBody());
        if (cookie != null) {
            b.header("Cookie", cookie);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static List<String> setCookies(HttpResponse<?> r) {
        return r.headers().allValues("set-cookie");
    }

    @Test
    void postonlyPreserveAndTheAttributesOfTheInsertedCookie() throws Exception {
        int fe = freePort();
        int plain = freePort();
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin s1 = named("s1");
             FulcrumProcess proxy = HttpKit.serve(config(logs,
                     listen("only", fe, "cookie SRV insert postonly preserve secure httponly domain .a.test domain .b.test"
                             + " attr SameSite=Lax\nserver s1 127.0.0.1:" + s1.port() + " cookie a"),
                     listen("plain", plain, "cookie SRV insert\nserver s1 127.0.0.1:" + s1.port() + " cookie a")), fe)) {
            HttpClient client = HttpKit.jdkClient();
            HttpResponse<String> get = send(client, fe, "GET", "/", null);
            assertThat(setCookies(get)).as("postonly: not on a GET").isEmpty();
            assertThat(logs.next().trim()).isEqualTo("s1 200 --NN");
            HttpResponse<String> post = send(client, fe, "POST", "/", null);
            assertThat(setCookies(post)).containsExactly(
                    "SRV=a; path=/; domain=.a.test; domain=.b.test; HttpOnly; Secure; SameSite=Lax");
            assertThat(logs.next().trim()).isEqualTo("s1 200 --NI");
            HttpResponse<String> own = send(client, fe, "POST", "/app", null);
            assertThat(setCookies(own)).as("preserve: the server's own cookie stays, none is added")
                    .containsExactly("SRV=app; path=/");
            assertThat(logs.next().trim()).isEqualTo("s1 200 --NP");
            HttpResponse<String> replaced = send(client, plain, "GET", "/app", null);
            assertThat(setCookies(replaced)).as("without preserve: the server's cookie gives way to the persistence one")
                    .containsExactly("SRV=a; path=/");
            assertThat(logs.next().trim()).isEqualTo("s1 200 --NI");
        }
    }

    /** The 5 base64 characters of a cookie date: the UNIX time in 4-second units (HAProxy's s30tob64()). */
    private static String date(long seconds) {
        long v = seconds >> 2;
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 5; i++) {
            b.append(B64.charAt((int) (v >> (24 - 6 * i)) & 63));
        }
        return b.toString();
    }

    private static long now() {
        return System.currentTimeMillis() / 1000;
    }

    /**
     * The Set-Cookie field of a response inserting "SRV=value|last|first" where the last date is the response's
     * ((now + 3) / 4, now being read before and after the exchange) and the first is {@code first}, or the
     * response's too when null.
     */
    private static void assertDated(List<String> setCookies, String value, String first, long before, long after) {
        assertThat(setCookies).hasSize(1);
        String c = setCookies.get(0);
        List<String> expected = new java.util.ArrayList<>();
        for (long t = before; t <= after; t++) {
            expected.add("SRV=" + value + "|" + date(t + 3) + "|" + (first == null ? date(t + 3) : first) + "; path=/");
        }
        assertThat(c).isIn(expected);
    }

    @Test
    void maxidleAndMaxlifeDateTheCookieAndEndPersistence() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin s1 = named("s1");
             HttpOrigin s2 = named("s2");
             FulcrumProcess proxy = HttpKit.serve(config(logs, listen("dated", fe, """
                     cookie SRV insert indirect maxidle 30s maxlife 60s
                     server s1 127.0.0.1:%d cookie a
                     server s2 127.0.0.1:%d cookie b
                     """.formatted(s1.port(), s2.port()))), fe)) {
            HttpClient client = HttpKit.jdkClient();
            // What each cookie sent does: the server, the log's cookie characters, and the first date the new
            // cookie keeps (null: the response's date, a new persistence).
            long t0 = now();
            // Four seconds back: a last date equal to now (t0 a multiple of 4, same second) would need no refresh.
            String fresh = date(t0 - 4);
            String[][] cases = {
                    {null, "s1", "--NI", null, "a"},
                    {"SRV=b|" + fresh + "|" + fresh, "s2", "--VU", fresh, "b"},
                    {"SRV=b", "s2", "--VU", null, "b"}, // without dates: valid, and dated from now on
                    {"SRV=b|" + fresh, "s2", "--VU", null, "b"}, // no first date: maxlife starts now
                    {"SRV=b|" + date(t0 - 40) + "|" + fresh, "s1", "--EI", null, "a"}, // idle more than 30 s
                    {"SRV=b|" + date(t0 - 40), "s1", "--EI", null, "a"},
                    {"SRV=b|" + fresh + "|" + date(t0 - 100), "s1", "--OI", null, "a"}, // older than 60 s
                    {"SRV=b|" + date(t0 + 2 * 86_400) + "|" + fresh, "s1", "--EI", null, "a"}, // from the future
            };
            for (String[] c : cases) {
                long before = now();
                HttpResponse<String> r = send(client, fe, "GET", "/", c[0]);
                long after = now();
                assertThat(r.body()).as(c[0]).isEqualTo(c[1]);
                assertDated(setCookies(r), c[4], c[3], before, after);
                assertThat(logs.next().trim()).as(c[0]).isEqualTo(c[1] + " 200 " + c[2]);
            }
        }
    }

    /**
     * {@code dynamic}: a server without a cookie value gets the XXH64 (seed 0) of the {@code dynamic-cookie-key}, its
     * IPv4 address and its port (4 bytes, network order), in 16 lower-case hexadecimal digits; a server with its own
     * value keeps it. The dynamic value designates its server as any other.
     */
    @Test
    void dynamicCookiesHashTheKeyTheAddressAndThePort() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin s1 = named("s1");
             HttpOrigin s2 = named("s2");
             HttpOrigin s3 = named("s3");
             FulcrumProcess proxy = HttpKit.serve(config(logs, listen("dyn", fe, """
                     cookie SRV insert indirect dynamic
                     dynamic-cookie-key "s3cr3t key"
                     server s1 127.0.0.1:%d
                     server s2 127.0.0.1:%d
                     server s3 127.0.0.1:%d cookie own
                     """.formatted(s1.port(), s2.port(), s3.port()))), fe)) {
            HttpClient client = HttpKit.jdkClient();
            String v1 = dynamic("s3cr3t key", s1.port());
            String v2 = dynamic("s3cr3t key", s2.port());
            assertThat(setCookies(send(client, fe, "GET", "/", null))).containsExactly("SRV=" + v1 + "; path=/");
            assertThat(logs.next().trim()).isEqualTo("s1 200 --NI");
            HttpResponse<String> to2 = send(client, fe, "GET", "/", "SRV=" + v2);
            assertThat(to2.body()).isEqualTo("s2");
            assertThat(setCookies(to2)).isEmpty();
            assertThat(logs.next().trim()).isEqualTo("s2 200 --VN");
            assertThat(send(client, fe, "GET", "/", "SRV=own").body()).isEqualTo("s3");
            assertThat(logs.next().trim()).isEqualTo("s3 200 --VN");
        }
    }

    /**
     * {@code disable|enable dynamic-cookie backend} and {@code set dynamic-cookie-key backend} change the cookies at
     * run time (a server without a cookie gets the deleting one), and a server that moved ({@code set server addr})
     * gets the cookie of its new address, as HAProxy 2.6 does.
     */
    @Test
    void theCliChangesTheDynamicCookies() throws Exception {
        int fe = freePort();
        Path sock = Files.createTempDirectory("fulcrum-cookie").resolve("stats.sock");
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin s1 = named("s1");
             HttpOrigin s1moved = named("s1");
             FulcrumProcess proxy = HttpKit.serve(config(logs, listen("dyn", fe, """
                     cookie SRV insert indirect dynamic
                     dynamic-cookie-key k1
                     server s1 127.0.0.1:%d
                     """.formatted(s1.port()))).replaceFirst("^global\n", "global\n    stats socket " + sock + " level admin\n"), fe)) {
            HttpClient client = HttpKit.jdkClient();
            assertThat(setCookies(send(client, fe, "GET", "/", null))).containsExactly("SRV=" + dynamic("k1", s1.port()) + "; path=/");
            assertThat(CliClient.send(sock, "disable dynamic-cookie backend dyn")).isEqualTo("\n");
            assertThat(setCookies(send(client, fe, "GET", "/", null)))
                    .containsExactly("SRV=; Expires=Thu, 01-Jan-1970 00:00:01 GMT; path=/");
            assertThat(CliClient.send(sock, "set dynamic-cookie-key backend dyn k2")).isEqualTo("\n");
            assertThat(CliClient.send(sock, "enable dynamic-cookie backend dyn")).isEqualTo("\n");
            assertThat(setCookies(send(client, fe, "GET", "/", null))).containsExactly("SRV=" + dynamic("k2", s1.port()) + "; path=/");
            CliClient.send(sock, "set server dyn/s1 addr 127.0.0.1 port " + s1moved.port());
            assertThat(setCookies(send(client, fe, "GET", "/", null)))
                    .containsExactly("SRV=" + dynamic("k2", s1moved.port()) + "; path=/");
            assertThat(CliClient.send(sock, "enable dynamic-cookie backend nope")).isEqualTo("No such backend.\n\n");
            assertThat(CliClient.send(sock, "disable dynamic-cookie backend")).isEqualTo("A backend name is expected.\n\n");
            assertThat(CliClient.send(sock, "set dynamic-cookie-key backend dyn")).isEqualTo("String value expected.\n\n");
        }
    }

    private static String dynamic(String key, int port) {
        byte[] k = key.getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(k.length + 8).put(k).put(new byte[]{127, 0, 0, 1}).putInt(port);
        return String.format("%016x", Hashes.xxh64(b.array(), 0, b.capacity(), 0));
    }

    /**
     * {@code option persist}: a cookie naming a server that is DOWN still sends the request there; when the connection
     * fails, {@code option redispatch} gives the last retry to another server (the cookie then marked as naming a
     * down server, and a new one inserted), without it the request fails. Without {@code option persist} the request
     * goes to another server at once.
     */
    @Test
    void optionPersistGoesToTheDownServerAndRedispatchMovesOn() throws Exception {
        int persist = freePort();
        int failing = freePort();
        int plain = freePort();
        int down = FulcrumProcess.refusedPort();
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin s1 = named("s1")) {
            String servers = "server s1 127.0.0.1:" + s1.port() + " cookie a\nserver s2 127.0.0.1:" + down
                    + " cookie b check inter 100 fall 1\n";
            try (FulcrumProcess proxy = HttpKit.serve(config(logs,
                    listen("persist", persist, "cookie SRV insert indirect\noption persist\noption redispatch\nretries 1\n" + servers),
                    listen("failing", failing, "cookie SRV insert indirect\noption persist\nretries 1\n" + servers),
                    listen("plain", plain, "cookie SRV insert indirect\n" + servers)), persist)) {
                for (String p : List.of("persist", "failing", "plain")) {
                    proxy.awaitStderr("Server " + p + "/s2 is DOWN");
                }
                HttpClient client = HttpKit.jdkClient();
                HttpResponse<String> moved = send(client, persist, "GET", "/", "SRV=b");
                assertThat(moved.body()).isEqualTo("s1");
                assertThat(setCookies(moved)).containsExactly("SRV=a; path=/");
                assertThat(requestLog(logs)).isEqualTo("s1 200 --DI");
                HttpResponse<String> failed = send(client, failing, "GET", "/", "SRV=b");
                assertThat(failed.statusCode()).isEqualTo(503);
                assertThat(setCookies(failed)).isEmpty();
                assertThat(requestLog(logs)).isEqualTo("s2 503 SCDN");
                HttpResponse<String> other = send(client, plain, "GET", "/", "SRV=b");
                assertThat(other.body()).isEqualTo("s1");
                assertThat(setCookies(other)).containsExactly("SRV=a; path=/");
                assertThat(requestLog(logs)).isEqualTo("s1 200 --DI");
            }
        }
    }

    /** The next log line of a request, past the servers' state changes ("Server persist/s2 is DOWN..."). */
    private static String requestLog(SyslogListener logs) throws InterruptedException {
        String l = logs.next().trim();
        while (l.startsWith("Server ")) {
            l = logs.next().trim();
        }
        return l;
    }
}
