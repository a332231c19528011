package io.fulcrum.it;

import io.fulcrum.it.HttpClientConn.Response;
import io.fulcrum.it.HttpOrigin.Received;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.HttpKit.serve;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * ACLs, use_backend conditions and http-request / http-response / http-after-response rules, driven over
 * real sockets. Every expectation holds for HAProxy 2.6 too (-Dit.proxy=haproxy).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HttpRulesIT {

    private static String config(int fe, String frontendLines, String backends) {
        return """
                defaults
                    mode http
                    timeout connect 2s
                    timeout client 10s
                    timeout server 10s

                frontend fe
                    bind 127.0.0.1:%d
                %s
                %s
                """.formatted(fe, frontendLines.indent(4), backends);
    }

    private static String backend(String name, int port, String lines) {
        return "backend " + name + "\n    server s1 127.0.0.1:" + port + "\n" + lines.indent(4);
    }

    @Test
    void useBackendFollowsAclsInOrder() throws Exception {
        int fe = freePort();
        try (HttpOrigin api = HttpOrigin.ok("api");
             HttpOrigin img = HttpOrigin.ok("img");
             HttpOrigin web = HttpOrigin.ok("web");
             FulcrumProcess proxy = serve(config(fe, """
                     acl is_api path_beg /api/
                     acl is_img path_end .png .jpg
                     acl is_img hdr(host) -i images.example.com
                     use_backend api if is_api !{ method POST }
                     use_backend img if is_img || { req.hdr(x-img) -m found }
                     default_backend web
                     """, backend("api", api.port(), "") + backend("img", img.port(), "") + backend("web", web.port(), "")), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(c.exchange(get("/api/users")).bodyText()).isEqualTo("api");
            assertThat(c.exchange("POST /api/users HTTP/1.1\r\nHost: test\r\nContent-Length: 0\r\n\r\n").bodyText()).isEqualTo("web");
            assertThat(c.exchange(get("/a/b.png")).bodyText()).isEqualTo("img");
            assertThat(c.exchange("GET / HTTP/1.1\r\nHost: IMAGES.example.com\r\n\r\n").bodyText()).isEqualTo("img");
            assertThat(c.exchange("GET / HTTP/1.1\r\nHost: test\r\nX-Img: 1\r\n\r\n").bodyText()).isEqualTo("img");
            assertThat(c.exchange(get("/index.html")).bodyText()).isEqualTo("web");
        }
    }

    @Test
    void requestHeadersAndUriAreRewrittenBeforeForwarding() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.ok("ok");
             FulcrumProcess proxy = serve(config(fe, """
                     http-request set-var(txn.p) path
                     http-request set-header X-Path %[var(txn.p)]
                     http-request add-header X-Added "a b"
                     http-request del-header X-Secret
                     http-request del-header X-Tmp- -m beg
                     http-request replace-header X-Rep foo(.*) bar\\1
                     http-request replace-value X-Val foo(.*) bar\\1
                     http-request replace-path /old/(.*) /new/\\1
                     http-request set-query q=1 if { path_beg /new/ }
                     http-request set-method PUT if { req.hdr(x-put) -m found }
                     default_backend be
                     """, backend("be", origin.port(), "")), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            c.exchange("GET /old/x?a=1 HTTP/1.1\r\nHost: test\r\nX-Secret: s\r\nX-Tmp-1: t\r\nX-Tmp-2: t\r\nX-Rep: zfooyz\r\n"
                    + "X-Val: a, zfoo1 ,b\r\nX-Put: 1\r\n\r\n");
            Received r = origin.nextRequest(5000);
            assertThat(r.head().startLine()).isEqualTo("PUT /new/x?q=1 HTTP/1.1");
            assertThat(r.head().get("x-path")).isEqualTo("/old/x");
            assertThat(r.head().get("x-added")).isEqualTo("a b");
            assertThat(r.head().names()).doesNotContain("x-secret", "x-tmp-1", "x-tmp-2");
            assertThat(r.head().get("x-rep")).isEqualTo("baryz");
            assertThat(r.head().get("x-val")).isEqualTo("a,bar1,b");
        }
    }

    /**
     * set-uri and replace-uri with a URI in another form than origin put its authority in the Host field (when the
     * request has one); an empty authority fails the rewrite (a 500 in strict mode), a path leaves Host as it was.
     */
    @Test
    void setUriWithAnAuthorityRewritesHost() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.ok("ok");
             FulcrumProcess proxy = serve(config(fe, """
                     http-request set-uri http://user@foo.example:8080/bar?q=1 if { path /a }
                     http-request replace-uri ^/ru(.*) http://ru.example\\1 if { path_beg /ru }
                     http-request set-uri /plain if { path /p }
                     http-request set-uri http:///x if { path /empty }
                     http-request set-header x-host %[req.hdr(host)]
                     default_backend be
                     """, backend("be", origin.port(), "")), fe)) {
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                c.exchange("GET /a HTTP/1.1\r\nHost: orig\r\nX-B: 1\r\n\r\n");
                Received r = origin.nextRequest(5000);
                assertThat(r.head().startLine()).isEqualTo("GET http://user@foo.example:8080/bar?q=1 HTTP/1.1");
                assertThat(r.head().names()).containsExactly("host", "x-b", "x-host");
                assertThat(r.head().get("host")).isEqualTo("foo.example:8080");
                assertThat(r.head().get("x-host")).isEqualTo("foo.example:8080");
                c.exchange("GET /ru/zz HTTP/1.1\r\nHost: orig\r\n\r\n");
                assertThat(origin.nextRequest(5000).head().get("host")).isEqualTo("ru.example");
                c.exchange("GET http://abs.example/p HTTP/1.1\r\nHost: abs.example\r\n\r\n");
                r = origin.nextRequest(5000);
                assertThat(r.head().startLine()).isEqualTo("GET /plain HTTP/1.1");
                assertThat(r.head().get("host")).isEqualTo("abs.example");
                assertThat(c.exchange("GET /empty HTTP/1.1\r\nHost: orig\r\n\r\n").status()).isEqualTo(500);
            }
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                c.exchange("GET /a HTTP/1.0\r\n\r\n");
                assertThat(origin.nextRequest(5000).head().has("host")).as("no Host added").isFalse();
            }
        }
    }

    /** replace-value keeps the spaces around the values it does not replace. */
    @Test
    void replaceValueKeepsTheSpacesOfTheOtherValues() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.start(x -> x.send("HTTP/1.1 200 OK\r\nX-Rc: no-cache, no-store\r\nContent-Length: 2\r\n\r\nok"));
             FulcrumProcess proxy = serve(config(fe, """
                     http-request replace-value X-Cache no-cache stale
                     http-response replace-value X-Rc no-cache stale
                     default_backend be
                     """, backend("be", origin.port(), "")), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            Response r = c.exchange("GET / HTTP/1.1\r\nHost: test\r\nX-Cache: no-cache, no-store\r\nX-Cache: a , no-cache ,b\r\n"
                    + "X-Cache: a ,  b,c\r\n\r\n");
            assertThat(origin.nextRequest(5000).head().all("x-cache")).containsExactly("stale, no-store", "a ,stale,b", "a ,  b,c");
            assertThat(r.get("x-rc")).isEqualTo("stale, no-store");
        }
    }

    /** A reply's hdr whose log-format comes out empty is left out (HAProxy's http_reply_to_htx), in return and deny alike. */
    @Test
    void replyHeadersWithAnEmptyValueAreLeftOut() throws Exception {
        int fe = freePort();
        try (FulcrumProcess proxy = serve(config(fe, """
                     http-request deny hdr x-empty "%[req.hdr(x-none)]" hdr x-full v if { path /deny }
                     http-request return status 200 hdr x-empty "%[req.hdr(x-none)]" hdr x-full v
                     """, ""), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(c.exchange(get("/")).head().raw()).isEqualTo("HTTP/1.1 200 OK\r\nx-full: v\r\ncontent-length: 0\r\n\r\n");
            assertThat(c.exchange(get("/deny")).head().raw()).isEqualTo("HTTP/1.1 403 Forbidden\r\nx-full: v\r\ncontent-length: 0\r\n\r\n");
        }
    }

    /** A HEAD the rules turn into a GET: the server's body is not the client's (HAProxy's http_bodyless_response). */
    @Test
    void aHeadTurnedIntoAGetGetsNoBody() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.ok("skipped data");
             FulcrumProcess proxy = serve(config(fe, """
                     http-request set-method GET if METH_HEAD
                     http-request return status 200 content-type text/plain string "own answer" if { path /ret }
                     default_backend be
                     """, backend("be", origin.port(), "")), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            Response head = c.exchange("HEAD /req1 HTTP/1.1\r\nHost: test\r\n\r\n");
            assertThat(origin.nextRequest(5000).head().startLine()).isEqualTo("GET /req1 HTTP/1.1");
            assertThat(head.status()).isEqualTo(200);
            assertThat(head.get("content-length")).isEqualTo("12");
            assertThat(c.exchange("HEAD /ret HTTP/1.1\r\nHost: test\r\n\r\n").get("content-length")).isEqualTo("10");
            // Had a body followed either head, this response would start with it.
            Response get = c.exchange(get("/req2"));
            assertThat(get.status()).isEqualTo(200);
            assertThat(get.bodyText()).isEqualTo("skipped data");
        }
    }

    @Test
    void denyReturnRedirectAndAuthAnswerWithoutTheServer() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.ok("ok");
             FulcrumProcess proxy = serve(config(fe, """
                     http-request deny if { path /deny }
                     http-request deny deny_status 429 if { path /slow }
                     http-request return status 200 content-type text/plain hdr X-A "p=%[path]" lf-string "hello %[path]" if { path /ret }
                     http-request redirect location /new code 303 set-cookie A=1 if { path /r1 }
                     http-request redirect scheme https drop-query if { path_beg /r2 }
                     http-request auth realm "My Realm" if { path /auth }
                     default_backend be
                     """, backend("be", origin.port(), "")), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            Response deny = c.exchange(get("/deny"));
            assertThat(deny.status()).isEqualTo(403);
            assertThat(deny.bodyText()).contains("Request forbidden by administrative rules.");
            assertThat(c.exchange(get("/slow")).status()).isEqualTo(429);
            Response ret = c.exchange(get("/ret"));
            assertThat(ret.text()).isEqualTo("HTTP/1.1 200 OK\r\nx-a: p=/ret\r\ncontent-length: 10\r\ncontent-type: text/plain\r\n\r\nhello /ret");
            assertThat(c.exchange(get("/r1")).head().raw())
                    .isEqualTo("HTTP/1.1 303 See Other\r\ncontent-length: 0\r\nlocation: /new\r\ncache-control: no-cache\r\n"
                            + "set-cookie: A=1; path=/;\r\n\r\n");
            assertThat(c.exchange("GET /r2/x?k=1 HTTP/1.1\r\nHost: h.example:81\r\n\r\n").get("location"))
                    .isEqualTo("https://h.example:81/r2/x");
            Response auth = c.exchange(get("/auth"));
            assertThat(auth.status()).isEqualTo(401);
            assertThat(auth.get("www-authenticate")).isEqualTo("Basic realm=\"My Realm\"");
            // The connection stayed open through all of these, and the server saw none of them.
            assertThat(c.exchange(get("/pass")).bodyText()).isEqualTo("ok");
            assertThat(origin.nextRequest(5000).head().startLine()).isEqualTo("GET /pass HTTP/1.1");
        }
    }

    @Test
    void responseRulesBackendFirstThenFrontendThenAfterResponse() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.start(x -> x.send("HTTP/1.1 200 OK\r\nX-Server: s\r\nX-Drop: d\r\nContent-Length: 2\r\n\r\nok"));
             FulcrumProcess proxy = serve(config(fe, """
                     http-response set-header X-Order "%[res.hdr(x-order)],fe"
                     http-after-response add-header X-After fe
                     default_backend be
                     """, backend("be", origin.port(), """
                     http-response set-header X-Order be
                     http-response del-header X-Drop
                     http-response set-status 203 reason Fine if { res.hdr(x-server) s }
                     """)), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            Response r = c.exchange(get("/"));
            assertThat(r.head().startLine()).isEqualTo("HTTP/1.1 203 Fine");
            assertThat(r.get("x-order")).isEqualTo("be,fe");
            assertThat(r.head().has("x-drop")).isFalse();
            assertThat(r.get("x-after")).isEqualTo("fe");
            assertThat(r.bodyText()).isEqualTo("ok");
        }
    }

    /** set-header removes every field of that name and adds the new one at the end of the head, in each rule set. */
    @Test
    void setHeaderPutsTheFieldLast() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.start(x -> x.send("HTTP/1.1 200 OK\r\nX-R: 1\r\nX-Mid: m\r\nx-r: 2\r\n"
                + "X-S: s\r\nX-Last: l\r\nContent-Length: 2\r\n\r\nok"));
             FulcrumProcess proxy = serve(config(fe, """
                     http-request set-header X-A new
                     http-response set-header X-R new
                     http-after-response set-header X-S new
                     default_backend be
                     """, backend("be", origin.port(), "")), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            Response r = c.exchange("GET / HTTP/1.1\r\nHost: test\r\nX-A: 1\r\nX-B: b\r\nx-a: 2\r\nX-C: c\r\n\r\n");
            Received req = origin.nextRequest(5000);
            assertThat(req.head().names()).containsExactly("host", "x-b", "x-c", "x-a");
            assertThat(req.head().all("x-a")).containsExactly("new");
            assertThat(r.head().names()).containsSubsequence("x-mid", "x-last", "content-length", "x-r", "x-s")
                    .containsOnlyOnce("x-r", "x-s");
            assertThat(r.get("x-r")).isEqualTo("new");
            assertThat(r.get("x-s")).isEqualTo("new");
        }
    }

    @Test
    void responseDenyGives502AndAfterResponseRulesApplyToErrors() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.start(x -> x.send("HTTP/1.1 200 OK\r\nX-Bad: 1\r\nContent-Length: 2\r\n\r\nok"));
             FulcrumProcess proxy = serve(config(fe, """
                     http-response deny if { res.hdr(x-bad) 1 }
                     http-after-response set-header X-Seen yes
                     http-request deny if { path /deny }
                     default_backend be
                     """, backend("be", origin.port(), "")), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            Response r = c.exchange(get("/"));
            assertThat(r.status()).isEqualTo(502);
            assertThat(r.get("x-seen")).isEqualTo("yes");
            Response d = c.exchange(get("/deny"));
            assertThat(d.status()).isEqualTo(403);
            assertThat(d.get("x-seen")).isEqualTo("yes");
        }
    }

    @Test
    void variablesLiveAsLongAsTheirScope() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.ok("ok");
             FulcrumProcess proxy = serve(config(fe, """
                     http-request set-var(sess.first) path if !{ var(sess.first) -m found }
                     http-request set-var(txn.now) path
                     http-request return status 200 content-type text/plain lf-string "%[var(sess.first)] %[var(txn.now)]"
                     """, ""), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(c.exchange(get("/a")).bodyText()).isEqualTo("/a /a");
            assertThat(c.exchange(get("/b")).bodyText()).isEqualTo("/a /b");
        }
    }

    @Test
    void rejectTarpitEarlyHintsAndTheRedirectDirective() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.ok("ok");
             FulcrumProcess proxy = serve(config(fe, """
                     timeout tarpit 200ms
                     http-request reject if { path /reject }
                     http-request tarpit deny_status 429 if { path /tarpit }
                     http-request early-hint Link "</style.css>; rel=preload" if { path /hints }
                     redirect prefix /v2 code 301 if { path_beg /v1 }
                     default_backend be
                     """, backend("be", origin.port(), "")), fe)) {
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                c.send(get("/reject"));
                assertThat(TcpProxyKit.readToEof(c.socket, 0)).isEmpty();
            }
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                assertThat(c.exchange(get("/tarpit")).status()).isEqualTo(429);
                Response moved = c.exchange(get("/v1/a"));
                assertThat(moved.status()).isEqualTo(301);
                assertThat(moved.get("location")).isEqualTo("/v2/v1/a");
                c.send(get("/hints"));
                HttpWire.Head hints = c.readHead();
                assertThat(hints.startLine()).isEqualTo("HTTP/1.1 103 Early Hints");
                assertThat(hints.get("link")).isEqualTo("</style.css>; rel=preload");
                assertThat(c.read().bodyText()).isEqualTo("ok");
            }
        }
    }

    @Test
    void setTimeoutServerOverridesTheBackendTimeout() throws Exception {
        int fe = freePort();
        CountDownLatch release = new CountDownLatch(1);
        try (HttpOrigin origin = HttpOrigin.start(x -> release.await(20, TimeUnit.SECONDS));
             FulcrumProcess proxy = serve(config(fe, "default_backend be\n", backend("be", origin.port(), """
                     http-request set-timeout server 300ms
                     """)), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            // The backend's timeout server is 10 s; the test's own timeout would fire long before it.
            assertThat(c.exchange(get("/")).status()).isEqualTo(504);
        } finally {
            release.countDown();
        }
    }

    /**
     * {@code option http-use-proxy-header}: a proxied request (absolute URI) is authenticated as by a proxy:
     * Proxy-Authorization, 407 and Proxy-Authenticate; an origin-form one and frontends without the option as usual.
     * As HAProxy 2.6 (-Dit.proxy=haproxy).
     */
    @Test
    void proxiedRequestsAuthenticateAsAtAProxy() throws Exception {
        int fe = freePort();
        int plain = freePort();
        try (FulcrumProcess proxy = serve("""
                userlist L
                    user a insecure-password b
                defaults
                    mode http
                    timeout connect 2s
                    timeout client 5s
                    timeout server 5s
                frontend fe
                    bind 127.0.0.1:%d
                    option http-use-proxy-header
                    http-request auth realm R unless { http_auth(L) }
                    http-request return status 200 content-type text/plain lf-string "user=%%[http_auth_user]"
                frontend plain
                    bind 127.0.0.1:%d
                    http-request auth realm R unless { http_auth(L) }
                    http-request return status 200 content-type text/plain lf-string "user=%%[http_auth_user]"
                """.formatted(fe, plain), plain); // (the last bind: both listen then)
             HttpClientConn c = HttpClientConn.open(fe);
             HttpClientConn p = HttpClientConn.open(plain)) {
            Response challenge = c.exchange("GET http://x/ HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(challenge.head().startLine()).isEqualTo("HTTP/1.1 407 Unauthorized");
            assertThat(challenge.get("proxy-authenticate")).isEqualTo("Basic realm=\"R\"");
            assertThat(challenge.get("www-authenticate")).isNull();
            Response origin = c.exchange("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(origin.status()).isEqualTo(401);
            assertThat(origin.get("www-authenticate")).isEqualTo("Basic realm=\"R\"");
            String proxyCredentials = "Proxy-Authorization: Basic YTpi\r\n"; // a:b
            assertThat(c.exchange("GET http://x/ HTTP/1.1\r\nHost: x\r\n" + proxyCredentials + "\r\n").bodyText()).isEqualTo("user=a");
            assertThat(c.exchange("GET http://x/ HTTP/1.1\r\nHost: x\r\nAuthorization: Basic YTpi\r\n\r\n").status())
                    .as("a proxied request's Authorization is not the proxy's").isEqualTo(407);
            assertThat(p.exchange("GET http://x/ HTTP/1.1\r\nHost: x\r\n" + proxyCredentials + "\r\n").status())
                    .as("without the option").isEqualTo(401);
        }
    }

    @Test
    void basicAuthAgainstAUserlist() throws Exception {
        int fe = freePort();
        // tiger's password is "secret" (SHA-512 crypt), scott's "elgato".
        String userlist = """
                userlist users
                    group admins users tiger
                    user tiger password $6$saltsalt$TVLlQcbpFVof5W3Yz4DTP6gRstiNuHwwTt6GLc1E5n0U0aDehy0S5knV8wiOQSpT0Y77vwPZN.Pq.H91p5hVO1
                    user scott insecure-password elgato
                    user lion password $y$j9T$abcdefghijklmnop$3dL1LkYnZM.OVXuVdnnaKVDlLYT92dRwOzDZ5XiVCe.
                    user ghost password $9$a-scheme-nobody-knows
                """;
        try (HttpOrigin origin = HttpOrigin.ok("ok");
             FulcrumProcess proxy = serve(config(fe, """
                     acl authorized http_auth(users)
                     acl admin http_auth_group(users) admins
                     http-request auth realm private unless authorized
                     http-request deny if { path_beg /admin } !admin
                     http-request set-header X-User %[http_auth_user]
                     default_backend be
                     """, backend("be", origin.port(), "") + userlist), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            Response anonymous = c.exchange(get("/"));
            assertThat(anonymous.status()).isEqualTo(401);
            assertThat(anonymous.get("www-authenticate")).isEqualTo("Basic realm=\"private\"");
            assertThat(c.exchange(withAuth("/", "scott:wrong")).status()).isEqualTo(401);
            assertThat(c.exchange(withAuth("/", "scott:elgato")).bodyText()).isEqualTo("ok");
            assertThat(origin.nextRequest(5000).head().get("x-user")).isEqualTo("scott");
            assertThat(c.exchange(withAuth("/admin/", "scott:elgato")).status()).isEqualTo(403);
            assertThat(c.exchange(withAuth("/admin/", "tiger:secret")).bodyText()).isEqualTo("ok");
            // yescrypt, Debian's default scheme, through the system's crypt library as in HAProxy.
            assertThat(c.exchange(withAuth("/", "lion:secret")).bodyText()).isEqualTo("ok");
            assertThat(c.exchange(withAuth("/", "lion:Secret")).status()).isEqualTo(401);
            assertThat(c.exchange(withAuth("/", "ghost:x")).status()).as("an unknown scheme never matches").isEqualTo(401);
        }
    }

    private static String withAuth(String path, String credentials) {
        return "GET " + path + " HTTP/1.1\r\nHost: test\r\nAuthorization: Basic "
                + java.util.Base64.getEncoder().encodeToString(credentials.getBytes(java.nio.charset.StandardCharsets.UTF_8)) + "\r\n\r\n";
    }
}
