package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.http.HttpClient;
import java.net.http.HttpResponse;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Cookie persistence with a real client and real servers: {@code cookie} in insert, rewrite and prefix modes,
 * {@code indirect}, {@code nocache}, a cookie naming a server that is down, {@code force-persist} and
 * {@code ignore-persist}, and the cookie characters of the log's termination state. The expectations are what
 * HAProxy 2.6 does with the same configuration (run with -Dit.proxy=haproxy).
 */
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CookiePersistenceIT {

    /**
     * A server answering "name cookie" (the Cookie field it received, or "-"); on a path with "/app" it sets its
     * own cookie SRV=app, on one with "/lm" its response has a Last-Modified field (a cache could keep it).
     */
    private static HttpOrigin named(String name) throws Exception {
        return HttpOrigin.start(x -> {
            String cookie = x.head.get("cookie");
            String body = name + " " + (cookie == null ? "-" : cookie);
            if (x.target().contains("/app")) {
                x.reply(200, body, "Set-Cookie: SRV=app; path=/");
            } else if (x.target().contains("/lm")) {
                x.reply(200, body, "Last-Modified: Mon, 30 Nov 2026 08:00:00 GMT");
            } else {
                x.reply(200, body);
            }
        });
    }

    private static HttpResponse<String> get(HttpClient client, int fe, String path, String... headers) throws Exception {
        var b = HttpKit.request(fe, path);
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String setCookie(HttpResponse<?> r) {
        return r.headers().firstValue("set-cookie").orElse(null);
    }

    private static String servers(HttpOrigin s1, HttpOrigin s2, String s2options) {
        return "server s1 127.0.0.1:" + s1.port() + " cookie a\nserver s2 127.0.0.1:" + s2.port() + " cookie b " + s2options;
    }

    @Test
    void insertIndirectSticksToTheServerOfTheCookie() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin s1 = named("s1");
             HttpOrigin s2 = named("s2");
             FulcrumProcess proxy = HttpKit.serve(LogIT.config(logs, "http", fe, "log-format \"%s %ST %tsc\"",
                     "cookie SRV insert indirect nocache httponly\n" + servers(s1, s2, "")), fe)) {
            HttpClient client = HttpKit.jdkClient();
            HttpResponse<String> first = get(client, fe, "/");
            String server = first.body().split(" ")[0];
            String value = server.equals("s1") ? "a" : "b";
            assertThat(setCookie(first)).isEqualTo("SRV=" + value + "; path=/; HttpOnly");
            assertThat(first.headers().firstValue("cache-control")).as("no validator: not cacheable anyway").isEmpty();
            assertThat(logs.next().trim()).isEqualTo(server + " 200 --NI");
            for (int i = 0; i < 6; i++) {
                HttpResponse<String> r = get(client, fe, "/", "Cookie", "x=1; SRV=" + value + "; y=2");
                assertThat(r.body()).as("the server of the cookie, which does not see it").isEqualTo(server + " x=1; y=2");
                assertThat(setCookie(r)).isNull();
                assertThat(logs.next().trim()).isEqualTo(server + " 200 --VN");
            }
            HttpResponse<String> cacheable = get(client, fe, "/lm");
            assertThat(setCookie(cacheable)).startsWith("SRV=");
            assertThat(cacheable.headers().allValues("cache-control")).containsExactly("private");
            logs.next();
            HttpResponse<String> unknown = get(client, fe, "/", "Cookie", "SRV=zz");
            assertThat(setCookie(unknown)).isNotNull();
            assertThat(logs.next().trim()).endsWith(" 200 --II");
        }
    }

    @Test
    void rewriteAndPrefixModesChangeTheServersCookie() throws Exception {
        int fe = freePort();
        int fe2 = freePort();
        try (HttpOrigin s1 = named("s1");
             HttpOrigin s2 = named("s2");
             FulcrumProcess proxy = HttpKit.serve("""
                     defaults
                         mode http
                         timeout connect 2s
                         timeout client 10s
                         timeout server 10s
                     listen rewrite
                         bind 127.0.0.1:%d
                         cookie SRV rewrite
                     %s
                     listen prefix
                         bind 127.0.0.1:%d
                         cookie SRV prefix
                     %s
                     """.formatted(fe, servers(s1, s2, "").indent(4), fe2, servers(s1, s2, "").indent(4)), fe)) {
            HttpClient client = HttpKit.jdkClient();
            HttpResponse<String> r = get(client, fe, "/app", "Cookie", "SRV=b");
            assertThat(r.body()).isEqualTo("s2 SRV=b");
            assertThat(setCookie(r)).isEqualTo("SRV=b; path=/");
            HttpResponse<String> p = get(client, fe2, "/app");
            String value = p.body().startsWith("s1") ? "a" : "b";
            assertThat(setCookie(p)).isEqualTo("SRV=" + value + "~app; path=/");
            HttpResponse<String> back = get(client, fe2, "/", "Cookie", "SRV=b~app");
            assertThat(back.body()).as("the prefix goes, the application's value stays").isEqualTo("s2 SRV=app");
        }
    }

    @Test
    void aServerThatIsDownAndThePersistRules() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin s1 = named("s1");
             HttpOrigin s2 = named("s2");
             FulcrumProcess proxy = HttpKit.serve(LogIT.config(logs, "http", fe, "log-format \"%s %ST %tsc\"", """
                     cookie SRV insert indirect
                     force-persist if { hdr(x-force) -m found }
                     ignore-persist if { hdr(x-ignore) -m found }
                     """ + servers(s1, s2, "disabled")), fe)) {
            HttpClient client = HttpKit.jdkClient();
            HttpResponse<String> moved = get(client, fe, "/", "Cookie", "SRV=b");
            assertThat(moved.body()).isEqualTo("s1 -");
            assertThat(setCookie(moved)).isEqualTo("SRV=a; path=/");
            assertThat(logs.next().trim()).isEqualTo("s1 200 --DI");
            HttpResponse<String> forced = get(client, fe, "/", "Cookie", "SRV=b", "x-force", "1");
            assertThat(forced.body()).as("force-persist: to the disabled server all the same").isEqualTo("s2 -");
            assertThat(setCookie(forced)).isNull();
            assertThat(logs.next().trim()).isEqualTo("s2 200 --DN");
            HttpResponse<String> ignored = get(client, fe, "/", "Cookie", "SRV=a", "x-ignore", "1");
            assertThat(setCookie(ignored)).isNull();
            assertThat(logs.next().trim()).isEqualTo("s1 200 --UN");
        }
    }
}
