package io.fulcrum.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The statistics page ({@code stats enable}...) with a real HTTP client: the HTML page's tables and rows agree
 * with {@code show stat}, the CSV and JSON exports, {@code stats refresh}, {@code stats auth} with its realm,
 * {@code stats admin} changing servers' states (seen over the stats socket), the log line, the stats page of a
 * backend; and where haproxy is installed, its page has the same structure as Fulcrum's.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class StatsPageIT {
    private static final HttpClient CLIENT = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private static HttpOrigin origin;
    private static Path sock;
    private static int fe;
    private static int auth;
    private static int be;
    private static FulcrumProcess proxy;

    /** The page's configuration: %1$s the stats socket, then the ports of fe, auth, fe2 and the origin. */
    private static final String CONFIG = """
            global
                stats socket %s level admin
            defaults
                mode http
                timeout connect 2s
                timeout client 10s
                timeout server 10s
                option httplog
            frontend fe
                bind 127.0.0.1:%d
                log stdout format raw local0
                http-request deny if { path_beg /stats } { req.hdr(x-block) -m found }
                stats enable
                stats uri /stats
                stats refresh 7s
                stats show-legends
                stats admin if { src 127.0.0.1 } !{ req.hdr(x-readonly) -m found }
                default_backend be
            backend be
                server s1 127.0.0.1:%5$d
                server s2 127.0.0.1:%5$d
            listen auth
                bind 127.0.0.1:%d
                stats enable
                stats realm Ops\\ Area
                stats auth admin:pw
                stats auth ops:pw2
                server x 127.0.0.1:%5$d
            frontend fe2
                option socket-stats
                bind 127.0.0.1:%d
                log stdout format raw local0
                default_backend bstats
            backend bstats
                stats enable
                stats uri /bs
                server y 127.0.0.1:%5$d
            backend pool
                server up1 127.0.0.1:%5$d check inter 100
                server down1 127.0.0.1:1 check inter 100
                server off1 127.0.0.1:%5$d disabled
                server bk1 127.0.0.1:%5$d backup
            """;

    @BeforeAll
    static void start() throws Exception {
        origin = HttpOrigin.start(x -> x.reply(200, "hello"));
        sock = Files.createTempDirectory("fulcrum-statspage").resolve("s.sock");
        fe = freePort();
        auth = freePort();
        be = freePort();
        proxy = TcpProxyKit.serve(CONFIG.formatted(sock, fe, auth, be, origin.port()), fe);
    }

    @AfterAll
    static void stop() throws Exception {
        if (proxy != null) {
            proxy.close();
        }
        if (origin != null) {
            origin.close();
        }
    }

    private static HttpResponse<String> send(HttpRequest.Builder b) throws Exception {
        return CLIENT.send(b.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.ISO_8859_1));
    }

    private static HttpResponse<String> get(int port, String path, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return send(b);
    }

    private static HttpResponse<String> post(String path, String form, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + fe + path))
                .header("content-type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString(form));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return send(b);
    }

    private static Map<String, Map<String, String>> showStat() throws Exception {
        return StatsIT.rows(CliClient.send(sock, "show stat"));
    }

    /** The cells of each row of the page's tables, by "proxy/service", tooltips removed. */
    static Map<String, List<String>> htmlRows(String html) {
        Map<String, List<String>> rows = new LinkedHashMap<>();
        String page = html.replaceAll("<div class=tips>.*?</div>", "");
        Matcher tr = Pattern.compile("<tr class=\"(frontend|backend|active_\\w+|backup_\\w+|maintain)\">(.*?)</tr>", Pattern.DOTALL).matcher(page);
        Pattern anchor = Pattern.compile("<a name=\"([^\"]+)\">");
        while (tr.find()) {
            String body = tr.group(2);
            Matcher name = anchor.matcher(body);
            assertThat(name.find()).as(body).isTrue();
            List<String> cells = new ArrayList<>();
            cells.add(tr.group(1));
            Matcher td = Pattern.compile("<td[^>]*>(.*?)</td>").matcher(body);
            while (td.find()) {
                cells.add(td.group(1).replaceAll("<[^>]+>", ""));
            }
            rows.put(name.group(1), cells);
        }
        return rows;
    }

    @Test
    void pageShowsEachProxyAndServerWithShowStatValues() throws Exception {
        for (int i = 0; i < 4; i++) {
            assertThat(get(fe, "/app/" + i).statusCode()).isEqualTo(200);
        }
        HttpResponse<String> r = get(fe, "/stats");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("content-type")).hasValue("text/html");
        assertThat(r.headers().firstValue("cache-control")).hasValue("no-cache");
        assertThat(r.headers().firstValue("refresh")).hasValue("7");
        String html = r.body();
        assertThat(html).startsWith("<!DOCTYPE HTML PUBLIC").endsWith("</body></html>\n")
                .contains("<h3>&gt; General process information</h3>", "<td class=\"active_up\">&nbsp;</td>")
                .contains("<a class=px href=\"#fe\">fe</a><div class=tips>cap: frontend, mode: http, id: 2</div>")
                .contains("<a class=px href=\"#auth\">auth</a><div class=tips>cap: proxy, mode: http, id: 4</div>")
                .contains("<th colspan=3>Queue</th><th colspan=3>Session rate</th><th colspan=6>Sessions</th><th colspan=2>Bytes</th>"
                        + "<th colspan=2>Denied</th><th colspan=3>Errors</th><th colspan=2>Warnings</th><th colspan=9>Server</th>")
                .contains("<li><a href=\"/stats;norefresh\">Disable refresh</a>", "<li><a href=\"/stats;csv;norefresh\">CSV export</a>");
        Map<String, List<String>> rows = htmlRows(html);
        assertThat(rows.keySet()).containsExactly("fe/Frontend", "be/s1", "be/s2", "be/Backend", "auth/Frontend", "auth/x",
                "auth/Backend", "fe2/Frontend", "bstats/y", "bstats/Backend", "pool/up1", "pool/down1", "pool/off1", "pool/bk1",
                "pool/Backend");
        Map<String, Map<String, String>> stat = showStat();
        // Columns (after the row's class and the admin checkbox column): name, queue cur/max/limit, rate cur/max/limit,
        // sessions cur/max/limit/total, lbtot, last, bytes in/out, denied req/resp, errors req/conn/resp, retr, redis, status...
        for (String server : List.of("s1", "s2")) {
            List<String> cells = rows.get("be/" + server);
            Map<String, String> csv = stat.get("be/" + server);
            assertThat(cells.get(0)).isEqualTo("active_no_check");
            assertThat(cells.get(2)).isEqualTo(server);
            assertThat(cells.get(12)).isEqualTo(csv.get("stot"));
            assertThat(Long.parseLong(cells.get(12))).isGreaterThanOrEqualTo(2);
            assertThat(cells.get(13)).isEqualTo(csv.get("lbtot"));
            assertThat(cells.get(15).replaceAll("\\D", "")).isEqualTo(csv.get("bin"));
            assertThat(cells.get(24)).isEqualTo("no check");
            assertThat(cells.get(26)).isEqualTo(csv.get("weight") + "/" + csv.get("uweight"));
        }
        List<String> backend = rows.get("be/Backend");
        assertThat(backend.get(12)).isEqualTo(stat.get("be/BACKEND").get("stot"));
        assertThat(backend.get(13)).isEqualTo(stat.get("be/BACKEND").get("lbtot"));
        assertThat(backend.get(24)).endsWith(" UP");
        List<String> frontend = rows.get("fe/Frontend");
        assertThat(frontend.get(0)).isEqualTo("frontend");
        assertThat(frontend.get(22)).isEqualTo("OPEN"); // its queue is one cell, its rows have no LastChk... columns
        assertThat(frontend.get(15)).isEqualTo(stat.get("fe/FRONTEND").get("dreq"));
        // fe2's listener (option socket-stats), as haproxy 2.6 draws it
        // (other tests may have sent it traffic: the counts are any numbers)
        assertThat(html).containsPattern(Pattern.quote("<tr class=socket><td></td><td class=ac><a name=\"fe2/+sock-1\"></a><u><a class=lfsb "
                + "href=\"#fe2/+sock-1\">sock-1</a><div class=tips>IPv4: 127.0.0.1:" + be + ", id: 1</div></u></td><td colspan=3></td>"
                + "<td colspan=3>&nbsp;</td>") + "(<td>[0-9<>a-z =\"/]*</td>){4}" + Pattern.quote("<td>&nbsp;</td><td>&nbsp;</td>")
                + "(<td>[0-9<>a-z =\"/]*</td>){5}" + Pattern.quote("<td></td><td></td><td></td><td></td><td class=ac>OPEN</td>"
                + "<td class=ac colspan=8></td></tr>"));
        assertThat(html).contains("<input class='be-checkbox' type=\"checkbox\" name=\"s\" value=\"s1\">",
                "<input type=\"hidden\" name=\"b\" value=\"#3\">", "<option value=\"maint\">Set state to MAINT</option>");
    }

    @Test
    void csvJsonAndOptions() throws Exception {
        HttpResponse<String> csv = get(fe, "/stats;csv");
        assertThat(csv.statusCode()).isEqualTo(200);
        assertThat(csv.headers().firstValue("content-type")).hasValue("text/plain");
        assertThat(csv.body()).startsWith(StatsIT.HEADER + "\n");
        Map<String, Map<String, String>> rows = StatsIT.rows(csv.body());
        assertThat(rows.keySet()).containsExactlyElementsOf(showStat().keySet());
        assertThat(rows.get("be/s1")).containsEntry("pxname", "be").containsEntry("type", "2").containsEntry("iid", "3");

        HttpResponse<String> json = get(fe, "/stats;json;norefresh");
        assertThat(json.headers().firstValue("content-type")).hasValue("application/json");
        assertThat(json.headers().firstValue("refresh")).isEmpty();
        assertThat(json.body()).startsWith("[[{\"objType\":\"Frontend\",\"proxyId\":2,\"id\":0,\"field\":{\"pos\":0,\"name\":\"pxname\"}");

        assertThat(get(fe, "/stats;typed").body()).startsWith("F.2.0.0.pxname.1:KNS:str:fe\n");
        // scope=: the proxies whose name contains it, in every format
        assertThat(StatsIT.rows(get(fe, "/stats;csv?scope=stat").body()).keySet()).containsExactly("bstats/y", "bstats/BACKEND");
        assertThat(htmlRows(get(fe, "/stats?scope=auth").body()).keySet()).containsExactly("auth/Frontend", "auth/x", "auth/Backend");
        // The prefix matches whatever follows it; other methods are not for the page.
        assertThat(get(fe, "/statsanything;csv").body()).startsWith("# pxname");
        HttpResponse<String> put = send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + fe + "/stats"))
                .PUT(HttpRequest.BodyPublishers.ofString("x")));
        assertThat(put.body()).isEqualTo("hello");
    }

    @Test
    void authAsksForAnAccountOfTheRealm() throws Exception {
        HttpResponse<String> none = get(auth, "/haproxy?stats");
        assertThat(none.statusCode()).isEqualTo(401);
        assertThat(none.headers().firstValue("www-authenticate")).hasValue("Basic realm=\"Ops Area\"");
        assertThat(get(auth, "/haproxy?stats", "authorization", basic("admin", "bad")).statusCode()).isEqualTo(401);
        assertThat(get(auth, "/haproxy?stats", "authorization", basic("admin", "pw")).statusCode()).isEqualTo(200);
        HttpResponse<String> ops = get(auth, "/haproxy?stats;csv", "authorization", basic("ops", "pw2"));
        assertThat(ops.statusCode()).isEqualTo(200);
        // Without stats admin, a POST is refused with a redirect saying so.
        HttpResponse<String> post = send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + auth + "/haproxy?stats"))
                .header("authorization", basic("admin", "pw")).POST(HttpRequest.BodyPublishers.ofString("s=x&action=maint&b=auth")));
        assertThat(post.statusCode()).isEqualTo(303);
        assertThat(post.headers().firstValue("location")).hasValue("/haproxy?stats;st=DENY");
        // A page not asked for goes to the servers.
        assertThat(get(auth, "/other").body()).isEqualTo("hello");
    }

    @Test
    void adminFormChangesServerStates() throws Exception {
        HttpResponse<String> maint = post("/stats", "s=s2&action=maint&b=%233");
        assertThat(maint.statusCode()).isEqualTo(303);
        assertThat(maint.headers().firstValue("location")).hasValue("/stats;st=DONE");
        assertThat(maint.body()).isEmpty();
        assertThat(showStat().get("be/s2")).containsEntry("status", "MAINT");
        String page = get(fe, "/stats;st=DONE").body();
        assertThat(page).contains("<p><div class=active_up><a class=lfsb href=\"/stats\" title=\"Remove this message\">[X]</a> "
                + "Action processed successfully.</div>");
        assertThat(htmlRows(page).get("be/s2").get(0)).isEqualTo("maintain");
        assertThat(htmlRows(get(fe, "/stats;up").body())).doesNotContainKey("be/s2").containsKey("be/s1");

        assertThat(post("/stats;up;norefresh", "s=s2&action=ready&b=be").headers().firstValue("location"))
                .hasValue("/stats;st=DONE;up;norefresh");
        assertThat(showStat().get("be/s2")).containsEntry("status", "no check");
        assertThat(post("/stats", "s=s1&s=nosuch&action=drain&b=be").headers().firstValue("location")).hasValue("/stats;st=PART");
        assertThat(post("/stats", "s=s1&action=ready&b=be").headers().firstValue("location")).hasValue("/stats;st=DONE");
        assertThat(post("/stats", "s=nosuch&action=maint&b=be").headers().firstValue("location")).hasValue("/stats;st=ERRP");
        assertThat(post("/stats", "s=s1&action=explode&b=be").headers().firstValue("location")).hasValue("/stats;st=ERRP");
        assertThat(post("/stats", "s=s1&action=maint&b=nosuch").headers().firstValue("location")).hasValue("/stats;st=ERRP");
        assertThat(post("/stats", "").headers().firstValue("location")).hasValue("/stats;st=NONE");
        // stats admin's condition does not hold: denied, nothing changes
        assertThat(post("/stats", "s=s1&action=maint&b=be", "x-readonly", "1").headers().firstValue("location"))
                .hasValue("/stats;st=DENY");
        // a form larger than a buffer
        assertThat(post("/stats", "s=s1&action=maint&b=be&pad=" + "x".repeat(40_000)).headers().firstValue("location"))
                .hasValue("/stats;st=EXCD");
        assertThat(showStat().get("be/s1")).containsEntry("status", "no check");
        // The readonly page has no forms.
        String readonly = get(fe, "/stats", "x-readonly", "1").body();
        assertThat(readonly).doesNotContain("<form method=\"post\">", "be-checkbox");
    }

    @Test
    void rulesComeFirstAndTheTransactionIsLoggedAndCounted() throws Exception {
        assertThat(get(fe, "/stats", "x-block", "1").statusCode()).isEqualTo(403);
        long before = Long.parseLong(showStat().get("fe/FRONTEND").get("intercepted"));
        assertThat(get(fe, "/stats;csv").statusCode()).isEqualTo(200);
        awaitLog("fe fe/<STATS> ");
        assertThat(Long.parseLong(showStat().get("fe/FRONTEND").get("intercepted"))).isEqualTo(before + 1);
        // A page counts itself: HAProxy counts the request as intercepted as it picks the page, before drawing it.
        String csv = get(fe, "/stats;csv").body();
        assertThat(StatsIT.rows(csv).get("fe/FRONTEND")).containsEntry("intercepted", String.valueOf(before + 2));
        assertThat(proxy.stdout()).containsPattern(" fe fe/<STATS> \\d+/\\d+/\\d+/\\d+/\\d+ 200 \\d+ - - LR-- .* \"GET /stats;csv HTTP/1.1\"");
        // A backend's page answers after the frontend has chosen the backend.
        HttpResponse<String> bs = get(be, "/bs;csv");
        assertThat(bs.statusCode()).isEqualTo(200);
        assertThat(bs.body()).startsWith("# pxname");
        awaitLog("fe2 bstats/<STATS> ");
        assertThat(get(be, "/elsewhere").body()).isEqualTo("hello");
        // A backend's page is not the frontend's interception (HAProxy counts one when fe == be only).
        assertThat(showStat().get("fe2/FRONTEND")).containsEntry("intercepted", "0");
    }

    private static void awaitLog(String text) throws InterruptedException {
        for (int i = 0; i < 100 && !proxy.stdout().contains(text); i++) {
            Thread.sleep(50);
        }
        assertThat(proxy.stdout()).contains(text);
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.ISO_8859_1));
    }

    /**
     * haproxy 2.6 answers the same configuration with a page of the same structure: the same tables, rows,
     * cells and tooltips, tag for tag (text aside), but for what names the product (its links, the schema link,
     * and the "Kill Sessions" action Fulcrum does not offer).
     */
    @Test
    void pageHasHaproxysStructure() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/sbin/haproxy")), "haproxy not installed");
        Path oracleSock = Files.createTempDirectory("fulcrum-statspage-oracle").resolve("s.sock");
        int[] ports = {freePort(), freePort(), freePort()};
        String config = CONFIG.formatted(oracleSock, ports[0], ports[1], ports[2], origin.port());
        try (FulcrumProcess haproxy = StatsIT.oracle(config, ports[0])) {
            awaitChecks(ports[0]);
            awaitChecks(fe);
            String theirs = get(ports[0], "/stats").body();
            String ours = get(fe, "/stats").body();
            // the row colours of the servers' states come from their fields
            assertThat(htmlRows(ours).get("pool/up1").get(0)).isEqualTo("active_up");
            assertThat(htmlRows(ours).get("pool/down1").get(0)).isEqualTo("active_down");
            assertThat(htmlRows(ours).get("pool/off1").get(0)).isEqualTo("maintain");
            assertThat(htmlRows(ours).get("pool/bk1").get(0)).isEqualTo("backup_no_check");
            assertThat(tags(ours)).containsExactlyElementsOf(tags(theirs));
        }
    }

    /**
     * {@code stats show-modules}: a column per extra module (ssl, h2, h1) with its counters in a tooltip, the h1
     * module counting the page's own connection and request as open; where haproxy is installed, its page has the same tags.
     */
    @Test
    void showModulesAddsTheModulesColumns() throws Exception {
        String config = """
                defaults
                    mode http
                    timeout connect 2s
                    timeout client 10s
                    timeout server 10s
                listen st
                    bind 127.0.0.1:%d
                    stats enable
                    stats uri /st
                    stats show-modules
                    server s1 127.0.0.1:%d
                """;
        int port = freePort();
        String ours;
        try (FulcrumProcess p = TcpProxyKit.start(config.formatted(port, origin.port()))) {
            p.awaitPort(port, Duration.ofSeconds(60));
            // awaitPort's probe connection is open until its close reaches the server: the page may count it once
            String openNow = "Count of currently open connections</th><td>1</td>";
            ours = get(port, "/st").body();
            for (long deadline = System.nanoTime() + 5_000_000_000L; !ours.contains(openNow) && System.nanoTime() < deadline; ) {
                Thread.sleep(50);
                ours = get(port, "/st").body();
            }
        }
        assertThat(ours).contains("<th colspan=9>Server</th><th colspan=3>Extra modules</th></tr>")
                .contains("<th>Thrtle</th>\n<th>ssl</th><th>h2</th><th>h1</th></tr>");
        Map<String, List<String>> rows = htmlRows(ours);
        List<String> frontend = rows.get("st/Frontend");
        assertThat(frontend.subList(frontend.size() - 3, frontend.size())).containsExactly("ssl", "h2", "h1");
        List<String> server = rows.get("st/s1");
        assertThat(server.subList(server.size() - 3, server.size())).containsExactly("ssl", "", "");
        String h1 = ours.substring(ours.indexOf("<u>h1<div class=tips>"));
        assertThat(h1).startsWith("<u>h1<div class=tips><table class=det><tr><th>Count of currently open connections</th><td>1</td></tr>"
                + "<tr><th>Count of currently open streams</th><td>1</td></tr><tr><th>Total number of connections</th>");
        if (Files.isExecutable(Path.of("/usr/sbin/haproxy"))) {
            int other = freePort();
            try (FulcrumProcess haproxy = StatsIT.oracle(config.formatted(other, origin.port()), other)) {
                assertThat(tags(ours)).containsExactlyElementsOf(tags(get(other, "/st").body()));
            }
        }
    }

    /**
     * A browser (headless Chromium, which .ci/run installs: Debian's chromium, or chromium-headless-shell) parses the page into
     * the same rows and draws it with the page's colours: the title rows' cyan and the frontend rows' beige.
     */
    @Test
    void browserRendersThePage() throws Exception {
        Path chromium = Stream.of("/usr/bin/chromium", "/usr/bin/chromium-headless-shell").map(Path::of).filter(Files::isExecutable)
                .findFirst().orElse(null);
        org.junit.jupiter.api.Assumptions.assumeTrue(chromium != null, "chromium not installed");
        Path dir = Files.createTempDirectory("fulcrum-statspage-browser");
        String url = "http://127.0.0.1:" + fe + "/stats;norefresh";
        String dom = browser(chromium, dir, "--dump-dom", url);
        assertThat(htmlRows(dom).keySet()).containsExactlyElementsOf(htmlRows(get(fe, "/stats;norefresh").body()).keySet());
        Path png = dir.resolve("page.png");
        browser(chromium, dir, "--screenshot=" + png, "--window-size=1200,800", url);
        java.awt.image.BufferedImage image = javax.imageio.ImageIO.read(png.toFile());
        assertThat(image.getWidth()).isEqualTo(1200);
        java.util.Set<Integer> colours = new java.util.HashSet<>();
        for (int y = 0; y < image.getHeight(); y += 2) {
            for (int x = 0; x < image.getWidth(); x += 2) {
                colours.add(image.getRGB(x, y) & 0xffffff);
            }
        }
        assertThat(colours).contains(0x20d0d0, 0xe8e8d0, 0xb00040);
    }

    /** Runs headless Chromium on {@code url}; its standard output. */
    private static String browser(Path chromium, Path dir, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(chromium.toString(), "--headless=new", "--no-sandbox", "--disable-gpu",
                "--hide-scrollbars", "--user-data-dir=" + dir.resolve("profile")));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectError(dir.resolve("stderr").toFile()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("chromium did not finish in 60 s");
        }
        assertThat(p.exitValue()).as(Files.readString(dir.resolve("stderr"))).isZero();
        return out;
    }

    /** Waits until the checks of backend "pool" have found its servers up and down. */
    private static void awaitChecks(int port) throws Exception {
        for (int i = 0; i < 100; i++) {
            Map<String, Map<String, String>> rows = StatsIT.rows(get(port, "/stats;csv").body());
            if (rows.get("pool/down1").get("status").equals("DOWN") && rows.get("pool/up1").get("status").equals("UP")
                    && !rows.get("pool/up1").get("check_status").startsWith("*")) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the checks did not settle on port " + port);
    }

    /** The tags of the page from its first table of proxies, the product's own parts removed. */
    private static List<String> tags(String html) {
        String body = html.substring(html.indexOf("<table class=\"tbl\""))
                .replace("<option value=\"shutdown\">Kill Sessions</option>", "").replaceAll("</?span[^>]*>", "");
        List<String> tags = new ArrayList<>();
        Matcher m = Pattern.compile("<[^>]+>").matcher(body);
        while (m.find()) {
            tags.add(m.group());
        }
        return tags;
    }

    /**
     * A page larger than the buffer is made as it goes, as HAProxy's applets make it: an http-after-response rewrite
     * need only fit beside what fills the buffer, the Prometheus exporter's too (-Dit.proxy=haproxy agrees).
     */
    @Test
    void aPageLargerThanTheBufferTakesAfterResponseRewrites() throws Exception {
        int port = freePort();
        StringBuilder backends = new StringBuilder();
        for (int i = 1; i <= 15; i++) {
            backends.append("backend b").append(i).append("\n    server s1 127.0.0.1:1\n    server s2 127.0.0.1:2\n");
        }
        try (FulcrumProcess p = pages(port, "    http-after-response set-header x-after yes\n" + backends)) {
            for (String path : new String[] {"/stats", "/metrics"}) {
                try (HttpClientConn c = HttpClientConn.open(port)) {
                    HttpClientConn.Response r = c.exchange("GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n");
                    assertThat(r.status()).as(path).isEqualTo(200);
                    assertThat(r.get("x-after")).as(path).isEqualTo("yes");
                    assertThat(r.bodyText().length()).as(path).isGreaterThan(20_000);
                }
            }
        }
    }

    /** A stats page at /stats and the exporter at /metrics on {@code port}, the frontend's section going on with {@code more}. */
    private static FulcrumProcess pages(int port, String more) throws Exception {
        return HttpKit.serve("""
                defaults
                    mode http
                    timeout connect 2s
                    timeout client 10s
                    timeout server 10s
                frontend fe
                    bind 127.0.0.1:%d
                    stats enable
                    stats uri /stats
                    http-request use-service prometheus-exporter if { path /metrics }
                """.formatted(port) + more, port);
    }

    /**
     * The pages' heads, byte for byte as HAProxy 2.6 sends them to an HTTP/1.1 client (checked on haproxy): chunked,
     * the page's Transfer-Encoding before the Connection that HTTP/1 adds; a HEAD's answer without framing for the
     * stats page, with its Transfer-Encoding for the exporter; the 303 after a POST with its zero length before
     * Location. The connection stays but for the one that asks to close.
     */
    @Test
    void pagesGoChunkedToHttp11() throws Exception {
        int port = freePort();
        String ok = "HTTP/1.1 200 OK\r\ncache-control: no-cache\r\ncontent-type: ";
        try (FulcrumProcess p = pages(port, "    stats admin if TRUE\n"); HttpClientConn c = HttpClientConn.open(port)) {
            String[][] pages = {{"/stats", "text/html", "<body>"}, {"/stats;csv", "text/plain", "# pxname,"},
                    {"/stats;json", "application/json", "[["}, {"/metrics", "text/plain; version=0.0.4", "# HELP"}};
            for (String[] page : pages) {
                HttpClientConn.Response r = c.exchange("GET " + page[0] + " HTTP/1.1\r\nHost: x\r\n\r\n");
                assertThat(r.head().raw()).as(page[0]).isEqualTo(ok + page[1] + "\r\ntransfer-encoding: chunked\r\n\r\n");
                assertThat(r.bodyText()).as(page[0]).contains(page[2]);
            }
            assertThat(c.exchange("HEAD /stats;csv HTTP/1.1\r\nHost: x\r\n\r\n").head().raw())
                    .isEqualTo(ok + "text/plain\r\n\r\n");
            assertThat(c.exchange("HEAD /metrics HTTP/1.1\r\nHost: x\r\n\r\n").head().raw())
                    .isEqualTo(ok + "text/plain; version=0.0.4\r\ntransfer-encoding: chunked\r\n\r\n");
            assertThat(c.exchange("POST /stats HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\na=b").head().raw()).isEqualTo(
                    "HTTP/1.1 303 See Other\r\ncache-control: no-cache\r\ncontent-type: text/plain\r\ncontent-length: 0\r\n"
                            + "location: /stats;st=NONE\r\n\r\n");
            HttpClientConn.Response last = c.exchange("GET /stats;csv HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            assertThat(last.head().raw()).isEqualTo(ok + "text/plain\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n");
            c.awaitClosed(5_000);
        }
    }

    /**
     * An HTTP/1.0 client gets the pages with a Content-Length where HAProxy 2.6 sends chunks (RFC 9112 6.1 forbids
     * them, docs/differences.md): in the place of HAProxy's Transfer-Encoding, after the Connection HTTP/1 adds for
     * the stats page, among the exporter's own fields for the exporter; keep-alive when asked.
     */
    @Test
    void pagesHaveALengthForHttp10() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeFalse(HttpKit.haproxy(), "HAProxy 2.6 sends an HTTP/1.0 client chunks");
        int port = freePort();
        String ok = "HTTP/1.1 200 OK\r\ncache-control: no-cache\r\ncontent-type: ";
        try (FulcrumProcess p = pages(port, "    stats admin if TRUE\n"); HttpClientConn c = HttpClientConn.open(port)) {
            HttpClientConn.Response r = c.exchange("GET /stats;csv HTTP/1.0\r\nHost: x\r\nConnection: keep-alive\r\n\r\n");
            assertThat(r.head().raw()).isEqualTo(ok + "text/plain\r\nconnection: keep-alive\r\ncontent-length: " + r.body().length + "\r\n\r\n");
            assertThat(r.bodyText()).startsWith("# pxname,");
            r = c.exchange("GET /metrics HTTP/1.0\r\nHost: x\r\n\r\n");
            assertThat(r.head().raw()).isEqualTo(ok + "text/plain; version=0.0.4\r\ncontent-length: " + r.body().length
                    + "\r\nconnection: close\r\n\r\n");
            assertThat(r.bodyText()).startsWith("# HELP");
            c.awaitClosed(5_000);
        }
    }
}
