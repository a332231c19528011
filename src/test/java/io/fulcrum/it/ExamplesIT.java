package io.fulcrum.it;

import io.fulcrum.it.HttpClientConn.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;

import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.HttpKit.serve;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The configurations shipped in examples/ do what their comments say. Each runs as written, with its
 * ports moved to free ones.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ExamplesIT {

    private static String example(String name, int... ports) throws Exception {
        String cfg = Files.readString(Path.of("examples", name));
        int[] shipped = {8080, 9001, 9002, 9003};
        for (int i = 0; i < ports.length; i++) {
            cfg = cfg.replace("127.0.0.1:" + shipped[i], "127.0.0.1:" + ports[i]);
        }
        return cfg;
    }

    @Test
    void quickstartBalancesItsOwnDemoServersAndAppliesItsRules() throws Exception {
        int fe = freePort();
        int s1 = freePort();
        int s2 = freePort();
        try (FulcrumProcess proxy = serve(example("quickstart.cfg", fe, s1, s2), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            Response a = c.exchange(get("/hello"));
            Response b = c.exchange(get("/hello"));
            assertThat(a.status()).isEqualTo(200);
            assertThat(a.bodyText() + b.bodyText())
                    .contains("Hello from demo server 1: you asked for /hello\n", "Hello from demo server 2: you asked for /hello\n");
            assertThat(a.get("x-served-by")).isIn("s1", "s2");
            assertThat(c.exchange(get("/admin/x")).status()).isEqualTo(403);
            Response r = c.exchange(get("/old/page"));
            assertThat(r.status()).isEqualTo(302);
            assertThat(r.get("location")).isEqualTo("/new/page");
        }
    }

    @Test
    void routingByHostAndPath() throws Exception {
        int fe = freePort();
        try (FulcrumProcess proxy = serve(example("routing.cfg", fe, freePort(), freePort(), freePort()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(c.exchange(get("/")).bodyText()).isEqualTo("app: /\n");
            assertThat(c.exchange("GET /users HTTP/1.1\r\nHost: API.example.com:8080\r\n\r\n").bodyText())
                    .isEqualTo("{\"api\": \"/users\"}\n");
            assertThat(c.exchange("GET /api/users HTTP/1.1\r\nHost: api.example.com\r\n\r\n").bodyText())
                    .isEqualTo("{\"api\": \"/users\"}\n");
            assertThat(c.exchange(get("/static/logo.png")).bodyText()).isEqualTo("static: /static/logo.png\n");
            assertThat(c.exchange(get("/images/a.png")).bodyText()).isEqualTo("static: /images/a.png\n");
            assertThat(c.exchange(get("/staticx")).bodyText()).isEqualTo("app: /staticx\n");
        }
    }

    @Test
    void httpsRedirectAndTermination() throws Exception {
        int http = freePort();
        int https = freePort();
        String cfg = example("https-redirect.cfg", http, freePort()).replace(":8080$", ":" + http + "$")
                .replace("8443", Integer.toString(https));
        try (FulcrumProcess proxy = serve(cfg, http);
             HttpClientConn c = HttpClientConn.open(http)) {
            Response r = c.exchange("GET /some/page?x=1 HTTP/1.1\r\nHost: 127.0.0.1:" + http + "\r\n\r\n");
            assertThat(r.status()).isEqualTo(301);
            assertThat(r.get("location")).isEqualTo("https://127.0.0.1:" + https + "/some/page?x=1");
            assertThat(r.get("strict-transport-security")).isNull();
            try (javax.net.ssl.SSLSocket s = TlsKit.connect(https, "localhost", new String[0])) {
                String answer = TlsKit.get(s, "/some/page");
                assertThat(answer).startsWith("HTTP/1.1 200").contains("strict-transport-security: max-age=31536000")
                        .endsWith("secure page: /some/page\n");
            }
        }
    }

    @Test
    void headerRewriting() throws Exception {
        int fe = freePort();
        try (FulcrumProcess proxy = serve(example("headers.cfg", fe, freePort()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            Response r = c.exchange("GET / HTTP/1.1\r\nHost: test\r\nX-Debug-Token: secret\r\nX-Forwarded-Proto: https\r\n\r\n");
            assertThat(r.status()).isEqualTo(200);
            String id = r.get("x-request-id");
            assertThat(id).matches("7F000001[0-9A-F]{4}[0-9A-F]+");
            assertThat(r.bodyText()).isEqualTo("proto=http debug= id=" + id + "\n");
            assertThat(r.get("server")).isNull();
            assertThat(r.get("x-internal-node")).isNull();
            assertThat(r.get("cache-control")).isEqualTo("public,no-store");
        }
    }

    @Test
    void maintenancePageWhileNoServerIsInService() throws Exception {
        int fe = freePort();
        int app = freePort();
        try (FulcrumProcess proxy = serve(example("maintenance.cfg", fe, app), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            Response r = c.exchange(get("/"));
            assertThat(r.status()).isEqualTo(503);
            assertThat(r.get("retry-after")).isEqualTo("600");
            assertThat(r.get("content-type")).isEqualTo("text/html");
            assertThat(r.bodyText()).contains("<h1>Down for maintenance</h1>");
        }
        String enabled = example("maintenance.cfg", fe, app).replace(" disabled\n", "\n");
        try (FulcrumProcess proxy = serve(enabled, fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            Response r = c.exchange(get("/"));
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.bodyText()).isEqualTo("application: up\n");
        }
    }

    @Test
    void basicAuthWithUsersAndGroups() throws Exception {
        int fe = freePort();
        try (FulcrumProcess proxy = serve(example("basic-auth.cfg", fe, freePort()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(c.exchange(get("/")).status()).isEqualTo(200);
            Response ask = c.exchange(get("/admin/"));
            assertThat(ask.status()).isEqualTo(401);
            assertThat(ask.get("www-authenticate")).isEqualTo("Basic realm=\"Administration\"");
            assertThat(c.exchange(withAuth("/admin/", "alice:wrong")).status()).isEqualTo(401);
            Response alice = c.exchange(withAuth("/admin/", "alice:wonderland"));
            assertThat(alice.status()).isEqualTo(200);
            assertThat(alice.bodyText()).isEqualTo("hello alice: /admin/\n");
        }
        try (FulcrumProcess proxy = serve(example("basic-auth.cfg", fe, freePort()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(c.exchange(withAuth("/admin/", "bob:builder")).status()).isEqualTo(403);
        }
    }

    private static String withAuth(String path, String credentials) {
        String basic = java.util.Base64.getEncoder().encodeToString(credentials.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return "GET " + path + " HTTP/1.1\r\nHost: test\r\nAuthorization: Basic " + basic + "\r\n\r\n";
    }

    @Test
    void denyListFromAMap() throws Exception {
        int fe = freePort();
        try (FulcrumProcess proxy = serve(example("denylist.cfg", fe, freePort()), fe)) {
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                Response r = c.exchange(get("/"));
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.bodyText()).isEqualTo("welcome\n");
            }
            try (HttpClientConn c = HttpClientConn.openFrom("127.0.0.2", fe)) {
                Response r = c.exchange(get("/"));
                assertThat(r.status()).isEqualTo(403);
                assertThat(r.bodyText()).isEqualTo("Access denied: abuse reported on 2026-11-02\n");
            }
        }
    }
}
