package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code show stat} and {@code show info} after real traffic: the counters of frontends, backends and
 * servers, the formats (CSV with HAProxy 2.6's exact header, typed, JSON), filters and {@code clear
 * counters}; and, where haproxy is installed, the same traffic through it gives rows with the same fields
 * filled and the same counts.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class StatsIT {
    /** HAProxy 2.6.12's header line of "show stat", as it prints it. */
    static final String HEADER = "# pxname,svname,qcur,qmax,scur,smax,slim,stot,bin,bout,dreq,dresp,ereq,econ,eresp,wretr,wredis,"
            + "status,weight,act,bck,chkfail,chkdown,lastchg,downtime,qlimit,pid,iid,sid,throttle,lbtot,tracked,type,rate,"
            + "rate_lim,rate_max,check_status,check_code,check_duration,hrsp_1xx,hrsp_2xx,hrsp_3xx,hrsp_4xx,hrsp_5xx,hrsp_other,"
            + "hanafail,req_rate,req_rate_max,req_tot,cli_abrt,srv_abrt,comp_in,comp_out,comp_byp,comp_rsp,lastsess,last_chk,"
            + "last_agt,qtime,ctime,rtime,ttime,agent_status,agent_code,agent_duration,check_desc,agent_desc,check_rise,"
            + "check_fall,check_health,agent_rise,agent_fall,agent_health,addr,cookie,mode,algo,conn_rate,conn_rate_max,"
            + "conn_tot,intercepted,dcon,dses,wrew,connect,reuse,cache_lookups,cache_hits,srv_icur,src_ilim,qtime_max,"
            + "ctime_max,rtime_max,ttime_max,eint,idle_conn_cur,safe_conn_cur,used_conn_cur,need_conn_est,uweight,"
            + "agg_server_status,agg_server_check_status,agg_check_status,-,ssl_sess,ssl_reused_sess,ssl_failed_handshake,"
            + "h2_headers_rcvd,h2_data_rcvd,h2_settings_rcvd,h2_rst_stream_rcvd,h2_goaway_rcvd,h2_detected_conn_protocol_errors,"
            + "h2_detected_strm_protocol_errors,h2_rst_stream_resp,h2_goaway_resp,h2_open_connections,h2_backend_open_streams,"
            + "h2_total_connections,h2_backend_total_streams,h1_open_connections,h1_open_streams,h1_total_connections,"
            + "h1_total_streams,h1_bytes_in,h1_bytes_out,h1_spliced_bytes_in,h1_spliced_bytes_out,";

    /** The rows of a "show stat" answer, by "proxy/service", each by field name. */
    static Map<String, Map<String, String>> rows(String csv) {
        String[] lines = csv.split("\n");
        String[] names = lines[0].substring(2).split(",", -1);
        Map<String, Map<String, String>> rows = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            if (lines[i].isEmpty()) {
                continue;
            }
            String[] v = lines[i].split(",", -1);
            Map<String, String> row = new LinkedHashMap<>();
            for (int j = 0; j < names.length && j < v.length; j++) {
                if (!names[j].isEmpty()) {
                    row.put(names[j], v[j]);
                }
            }
            rows.put(v[0] + "/" + v[1], row);
        }
        return rows;
    }

    /** A row's check_status without the "* " that marks a check in progress (a short inter starts the next often). */
    static String lastCheck(Map<String, String> row) {
        String status = row.get("check_status");
        return status.startsWith("* ") ? status.substring(2) : status;
    }

    private record Run(Map<String, Map<String, String>> rows, String info, String typed, String json, String filtered,
                       Map<String, Map<String, String>> cleared) {
    }

    /**
     * Starts {@code proxy} (Fulcrum, or haproxy with {@code -Dit.proxy=haproxy} or from the oracle test), sends
     * 6 good requests through "fe", 2 to a dead backend, a bad request through its second socket and 3 TCP sessions
     * through "li", then reads the stats. Both keep listener rows (option socket-stats).
     */
    private static Run traffic(boolean oracle) throws Exception {
        Path dir = Files.createTempDirectory("fulcrum-stats");
        Path sock = dir.resolve("s.sock");
        int fe = freePort();
        int fe2 = freePort();
        int li = freePort();
        int dead = FulcrumProcess.refusedPort();
        try (HttpOrigin a = HttpOrigin.start(x -> x.reply(200, "a"));
             HttpOrigin b = HttpOrigin.start(x -> x.reply(200, "b"))) {
            String config = """
                    global
                        stats socket %s mode 600 level admin
                    defaults
                        mode http
                        timeout connect 2s
                        timeout client 10s
                        timeout server 10s
                    frontend fe
                        option socket-stats
                        bind 127.0.0.1:%d name web
                        bind 127.0.0.1:%d
                        use_backend dead if { path_beg /dead }
                        default_backend be
                    backend be
                        server s1 127.0.0.1:%d
                        server s2 127.0.0.1:%d
                    backend dead
                        retries 0
                        server d1 127.0.0.1:%d
                    listen li
                        mode tcp
                        option socket-stats
                        bind 127.0.0.1:%d
                        server t1 127.0.0.1:%d
                    """.formatted(sock, fe, fe2, a.port(), b.port(), dead, li, a.port());
            try (FulcrumProcess p = oracle ? oracle(config, fe) : TcpProxyKit.serve(config, fe)) {
                try (HttpClientConn c = HttpClientConn.open(fe)) {
                    for (int i = 0; i < 6; i++) {
                        assertThat(c.exchange(get("/x" + i)).status()).isEqualTo(200);
                    }
                }
                for (int i = 0; i < 2; i++) {
                    try (HttpClientConn c = HttpClientConn.open(fe)) {
                        assertThat(c.exchange(get("/dead")).status()).isEqualTo(503);
                    }
                }
                try (HttpClientConn c = HttpClientConn.open(fe2)) {
                    c.send("GARBAGE\r\n\r\n");
                    assertThat(c.read().status()).isEqualTo(400);
                }
                for (int i = 0; i < 3; i++) {
                    try (HttpClientConn c = HttpClientConn.open(li)) {
                        assertThat(c.exchange(get("/tcp")).status()).isEqualTo(200);
                    }
                }
                awaitIdle(sock);
                String csv = CliClient.send(sock, "show stat");
                assertThat(csv.substring(0, csv.indexOf('\n'))).isEqualTo(HEADER);
                String info = CliClient.send(sock, "show info");
                String typed = CliClient.send(sock, "show stat typed");
                String json = CliClient.send(sock, "show stat json");
                String filtered = CliClient.send(sock, "show stat be 4 -1");
                CliClient.send(sock, "clear counters all");
                return new Run(rows(csv), info, typed, json, filtered, rows(CliClient.send(sock, "show stat")));
            }
        }
    }

    /** Waits until the transactions have ended (the frontends have no session left), so that all are counted. */
    private static void awaitIdle(Path sock) throws Exception {
        for (int i = 0; i < 100; i++) {
            Map<String, Map<String, String>> rows = rows(CliClient.send(sock, "show stat -1 1 -1"));
            if (rows.values().stream().allMatch(r -> r.get("scur").equals("0"))) {
                return;
            }
            Thread.sleep(50);
        }
    }

    /** Starts haproxy on {@code config} and waits until it listens on {@code port}. */
    static FulcrumProcess oracle(String config, int port) throws Exception {
        Path file = FulcrumProcess.config(config);
        FulcrumProcess p = FulcrumProcess.start(List.of("/usr/sbin/haproxy"), List.of("-db", "-f", file.toString()));
        TcpProxyKit.awaitListening(p, "127.0.0.1", port, java.time.Duration.ofSeconds(20)); // no probe: it would count
        return p;
    }

    @Test
    void countersFollowTheTraffic() throws Exception {
        Run run = traffic(false);
        Map<String, Map<String, String>> r = run.rows();
        assertThat(r.keySet()).containsExactly("fe/FRONTEND", "fe/web", "fe/sock-2", "be/s1", "be/s2", "be/BACKEND", "dead/d1",
                "dead/BACKEND", "li/FRONTEND", "li/sock-1", "li/t1", "li/BACKEND");
        Map<String, String> fe = r.get("fe/FRONTEND");
        assertThat(fe).containsEntry("req_tot", "9").containsEntry("hrsp_2xx", "6").containsEntry("hrsp_5xx", "2")
                .containsEntry("hrsp_4xx", "1").containsEntry("ereq", "1")
                .containsEntry("stot", "4").containsEntry("conn_tot", "4").containsEntry("status", "OPEN")
                .containsEntry("mode", "http").containsEntry("type", "0").containsEntry("scur", "0");
        assertThat(Long.parseLong(fe.get("bin"))).isPositive();
        assertThat(Long.parseLong(fe.get("bout"))).isPositive();
        assertThat(r.get("be/BACKEND")).containsEntry("req_tot", "6").containsEntry("hrsp_2xx", "6").containsEntry("lbtot", "6")
                .containsEntry("status", "UP").containsEntry("act", "2").containsEntry("weight", "2").containsEntry("algo", "roundrobin");
        assertThat(r.get("be/s1")).containsEntry("lbtot", "3").containsEntry("hrsp_2xx", "3").containsEntry("status", "no check")
                .containsEntry("sid", "1").containsEntry("type", "2");
        assertThat(r.get("be/s2")).containsEntry("lbtot", "3").containsEntry("sid", "2");
        assertThat(r.get("dead/d1")).containsEntry("econ", "2");
        assertThat(r.get("dead/BACKEND")).containsEntry("econ", "2").containsEntry("hrsp_5xx", "2");
        assertThat(r.get("li/FRONTEND")).containsEntry("stot", "3").containsEntry("mode", "tcp").containsEntry("hrsp_2xx", "");
        assertThat(r.get("li/t1")).containsEntry("lbtot", "3").containsEntry("stot", "3");
        // The listeners' own rows: their connections, bytes and errors.
        assertThat(r.get("fe/web")).containsEntry("stot", "3").containsEntry("ereq", "0").containsEntry("type", "3")
                .containsEntry("sid", "1").containsEntry("status", "OPEN").containsEntry("slim", "0").containsEntry("mode", "http");
        assertThat(r.get("fe/sock-2")).containsEntry("stot", "1").containsEntry("ereq", "1").containsEntry("dreq", "0")
                .containsEntry("sid", "2");
        assertThat(Long.parseLong(r.get("fe/web").get("bin"))).isPositive();
        assertThat(r.get("li/sock-1")).containsEntry("stot", "3").containsEntry("mode", "tcp");
        assertThat(Long.parseLong(r.get("li/sock-1").get("bout"))).isPositive();
        assertThat(Long.parseLong(r.get("li/t1").get("bout"))).isPositive();

        assertThat(run.info()).startsWith("Name: " + (TcpProxyKit.haproxy() ? "HAProxy" : "Fulcrum") + "\nVersion: ").contains("\nNbproc: 1\n", "\nProcess_num: 1\n")
                .containsPattern("\nCumConns: ([6-9]|\\d\\d+)\n").contains("\nStopping: 0\n")
                .containsPattern("\nCumReq: (1[3-9]|[2-9]\\d)\n"); // 11 streams, the CLI's (StreamCountIT counts exactly)
        assertThat(run.typed()).contains("F.2.0.0.pxname.1:KNS:str:fe\n", "F.2.0.48.req_tot.1:MCP:u64:9\n",
                "S.3.1.30.lbtot.1:MCP:u64:3\n", "B.3.0.76.algo.1:CGS:str:roundrobin\n", "L.2.1.1.svname.1:KNS:str:web\n",
                "L.2.2.12.ereq.1:MCP:u64:1\n", "L.2.2.32.type.1:CGS:u32:3\n", "L.2.2.28.sid.1:KGS:u32:2\n");
        assertThat(run.json()).startsWith("[[{\"objType\":\"Frontend\",\"proxyId\":2,\"id\":0,\"field\":{\"pos\":0,\"name\":\"pxname\"},"
                + "\"processNum\":1,\"tags\":{\"origin\":\"Key\",\"nature\":\"Name\",\"scope\":\"Service\"},"
                + "\"value\":{\"type\":\"str\",\"value\":\"fe\"}}").endsWith("}]]\n\n");
        assertThat(rows(run.filtered()).keySet()).containsExactly("be/s1", "be/s2");
        assertThat(run.cleared().get("fe/FRONTEND")).containsEntry("req_tot", "0").containsEntry("hrsp_2xx", "0");
        assertThat(run.cleared().get("be/s1")).containsEntry("lbtot", "0");
    }

    /** The same traffic through haproxy 2.6 fills the same fields of every row, with the same counts. */
    @Test
    void rowsHaveTheFieldsAndCountsHaproxyReports() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/sbin/haproxy")), "haproxy not installed");
        Map<String, Map<String, String>> ours = traffic(false).rows();
        Map<String, Map<String, String>> theirs = traffic(true).rows();
        assertThat(ours.keySet()).containsExactlyElementsOf(theirs.keySet());
        List<String> same = List.of("pxname", "svname", "stot", "dreq", "ereq", "econ", "wretr", "wredis", "status", "weight",
                "act", "bck", "pid", "iid", "sid", "lbtot", "type", "hrsp_1xx", "hrsp_2xx", "hrsp_3xx", "hrsp_4xx", "hrsp_5xx",
                "req_tot", "mode", "algo", "conn_tot", "intercepted", "connect", "uweight");
        List<String> diffs = new ArrayList<>();
        for (String row : theirs.keySet()) {
            Map<String, String> o = ours.get(row);
            Map<String, String> t = theirs.get(row);
            TreeSet<String> filledOurs = new TreeSet<>(o.keySet().stream().filter(k -> !o.get(k).isEmpty()).toList());
            TreeSet<String> filledTheirs = new TreeSet<>(t.keySet().stream().filter(k -> !t.get(k).isEmpty()).toList());
            if (!filledOurs.equals(filledTheirs)) {
                TreeSet<String> missing = new TreeSet<>(filledTheirs);
                missing.removeAll(filledOurs);
                TreeSet<String> extra = new TreeSet<>(filledOurs);
                extra.removeAll(filledTheirs);
                diffs.add(row + ": missing " + missing + ", extra " + extra);
            }
            for (String f : same) {
                if (!o.get(f).equals(t.get(f))) {
                    diffs.add(row + "." + f + ": " + o.get(f) + " (haproxy: " + t.get(f) + ")");
                }
            }
        }
        assertThat(diffs).isEmpty();
    }

    /**
     * {@code show stat up} hides the servers in maintenance and the down ones, a down one that only tracks another
     * too, and keeps DRAIN, NOLB and unchecked ones; {@code no-maint} hides maintenance only; the
     * stats page's {@code ;up} and {@code ;no-maint} hide the same. haproxy 2.6, where installed, shows the same rows.
     */
    @Test
    void upAndNoMaintHideTheServersHaproxyHides() throws Exception {
        Map<String, List<String>> ours = upAndNoMaint(false);
        assertThat(ours.get("up")).containsExactly("be/up1", "be/drain1", "be/nc1", "nolb/n1");
        assertThat(ours.get("no-maint")).containsExactly("be/up1", "be/down1", "be/drain1", "be/nc1", "be/trk", "nolb/n1");
        assertThat(ours.get("page;up")).isEqualTo(ours.get("up"));
        assertThat(ours.get("page;no-maint")).isEqualTo(ours.get("no-maint"));
        // with either option a backend's status tells its servers not stopped out of all (drain, NOLB and unchecked
        // ones are not stopped; down, tracking a down one, maintenance are), in every format
        List<String> counted = List.of("stats UP (0/0)", "be UP (3/6)", "nolb DOWN (1/1)"); // NOLB: up, weight 0
        assertThat(ours.get("backends")).containsExactly("stats UP", "be UP", "nolb DOWN");
        for (String q : List.of("backends up", "backends no-maint", "backends page;up", "backends typed up", "backends json no-maint")) {
            assertThat(ours.get(q)).as(q).isEqualTo(counted);
        }
        if (Files.isExecutable(Path.of("/usr/sbin/haproxy"))) {
            assertThat(ours).isEqualTo(upAndNoMaint(true));
        }
    }

    /** The server rows of "show stat up", "show stat no-maint" and the page's ";up;csv" and ";no-maint;csv". */
    private static Map<String, List<String>> upAndNoMaint(boolean oracle) throws Exception {
        Path sock = Files.createTempDirectory("fulcrum-stats-up").resolve("s.sock");
        int page = freePort();
        int dead = FulcrumProcess.refusedPort();
        try (HttpOrigin ok = HttpOrigin.start(x -> x.reply(200, "a"));
             HttpOrigin gone = HttpOrigin.start(x -> x.reply(404, "gone"))) {
            String config = """
                    global
                        stats socket %1$s mode 600 level admin
                    defaults
                        mode http
                        timeout connect 2s
                        timeout client 10s
                        timeout server 10s
                        timeout check 2s
                    listen stats
                        bind 127.0.0.1:%2$d
                        stats uri /stats
                    backend be
                        server up1 127.0.0.1:%3$d check inter 100
                        server down1 127.0.0.1:%4$d check inter 100
                        server off1 127.0.0.1:%3$d check disabled
                        server drain1 127.0.0.1:%3$d check inter 100
                        server nc1 127.0.0.1:%3$d
                        server trk 127.0.0.1:%3$d track down1
                    backend nolb
                        option httpchk
                        http-check disable-on-404
                        server n1 127.0.0.1:%5$d check inter 100
                    """.formatted(sock, page, ok.port(), dead, gone.port());
            try (FulcrumProcess p = oracle ? oracle(config, page) : TcpProxyKit.serve(config, page)) {
                CliClient.send(sock, "set server be/drain1 state drain");
                for (int i = 0; i < 100; i++) {
                    Map<String, Map<String, String>> all = rows(CliClient.send(sock, "show stat"));
                    if (all.get("be/down1").get("status").equals("DOWN") && all.get("nolb/n1").get("status").equals("NOLB")
                            && all.get("be/trk").get("status").equals("DOWN")) {
                        break;
                    }
                    Thread.sleep(50);
                }
                // a first check slower than 100 ms (a cold JVM) would take down a server up until its first answer
                Map<String, List<String>> shown = new LinkedHashMap<>();
                String up = CliClient.send(sock, "show stat up");
                String noMaint = CliClient.send(sock, "show stat no-maint");
                shown.put("up", servers(up));
                shown.put("no-maint", servers(noMaint));
                shown.put("backends", backends(CliClient.send(sock, "show stat")));
                shown.put("backends up", backends(up));
                shown.put("backends no-maint", backends(noMaint));
                shown.put("backends typed up", typedBackends(CliClient.send(sock, "show stat typed up")));
                shown.put("backends json no-maint", jsonBackends(CliClient.send(sock, "show stat json no-maint")));
                for (String q : List.of(";up", ";no-maint")) {
                    try (HttpClientConn c = HttpClientConn.open(page)) {
                        String csv = c.exchange(get("/stats" + q + ";csv")).bodyText();
                        shown.put("page" + q, servers(csv));
                        shown.put("backends page" + q, backends(csv));
                    }
                }
                return shown;
            }
        }
    }

    /**
     * {@code lastchg} counts from entering and from leaving drain; three words after "stat" are a proxy, a type and a
     * server, read as atoi() reads them: a bad type shows the header alone, a word that is no proxy "No such proxy.".
     * haproxy 2.6, where installed, answers the same.
     */
    @Test
    void drainRestartsLastchgAndBadFiltersAnswerAsHaproxy() throws Exception {
        List<String> ours = drainAndFilters(false);
        assertThat(ours).containsExactly("DRAIN 0", "no check 0", HEADER, HEADER, "No such proxy.", "be/BACKEND");
        if (Files.isExecutable(Path.of("/usr/sbin/haproxy"))) {
            assertThat(ours).isEqualTo(drainAndFilters(true));
        }
    }

    private static List<String> drainAndFilters(boolean oracle) throws Exception {
        Path sock = Files.createTempDirectory("fulcrum-stats-drain").resolve("s.sock");
        int fe = freePort();
        try (HttpOrigin ok = HttpOrigin.start(x -> x.reply(200, "a"))) {
            String config = """
                    global
                        stats socket %s mode 600 level admin
                    defaults
                        mode http
                        timeout connect 2s
                        timeout client 10s
                        timeout server 10s
                    frontend fe
                        bind 127.0.0.1:%d
                        default_backend be
                    backend be
                        server s1 127.0.0.1:%d
                    """.formatted(sock, fe, ok.port());
            try (FulcrumProcess p = oracle ? oracle(config, fe) : TcpProxyKit.serve(config, fe)) {
                List<String> answers = new ArrayList<>();
                for (String state : List.of("drain", "ready")) {
                    Thread.sleep(1100); // lastchg counts seconds: at least 1 before each change
                    CliClient.send(sock, "set server be/s1 state " + state);
                    Map<String, String> s1 = rows(CliClient.send(sock, "show stat")).get("be/s1");
                    answers.add(s1.get("status") + " " + s1.get("lastchg"));
                }
                for (String words : List.of("be x -1", "2 0 -1", "up no-maint json", "be 2x -1")) {
                    String answer = CliClient.send(sock, "show stat " + words).strip();
                    answers.add(answer.startsWith("#") && answer.indexOf('\n') > 0 ? String.join(",", rows(answer).keySet()) : answer);
                }
                return answers;
            }
        }
    }

    /** The "proxy/server" names of the server rows of a CSV answer. */
    /** Each backend row's proxy and status. */
    private static List<String> backends(String csv) {
        return rows(csv).values().stream().filter(r -> r.get("type").equals("1")).map(r -> r.get("pxname") + " " + r.get("status")).toList();
    }

    /** The same from typed output: {@code B.<iid>.0.17.status.1:SGP:str:UP (3/6)}, named by the proxy's pxname line. */
    private static List<String> typedBackends(String typed) {
        Map<String, String> names = new LinkedHashMap<>();
        List<String> out = new ArrayList<>();
        for (String l : typed.split("\n")) {
            String[] f = l.split(":", 4);
            if (l.startsWith("B.") && f[0].endsWith(".pxname.1")) {
                names.put(f[0].substring(0, f[0].indexOf(".0.")), f[3]);
            } else if (l.startsWith("B.") && f[0].endsWith(".status.1")) {
                out.add(names.get(f[0].substring(0, f[0].indexOf(".0."))) + " " + f[3]);
            }
        }
        return out;
    }

    /** The same from JSON output: each backend's status value, after its pxname. */
    private static List<String> jsonBackends(String json) {
        Matcher m = Pattern.compile("\\{\"objType\":\"Backend\",[^{]*\\{\"pos\":(0|17),\"name\":\"(pxname|status)\"\\}.*?\"value\":\\{\"type\":\"str\",\"value\":\"([^\"]*)\"\\}")
                .matcher(json);
        List<String> out = new ArrayList<>();
        String name = null;
        while (m.find()) {
            if (m.group(2).equals("pxname")) {
                name = m.group(3);
            } else {
                out.add(name + " " + m.group(3));
            }
        }
        return out;
    }

    private static List<String> servers(String csv) {
        return rows(csv).entrySet().stream().filter(e -> e.getValue().get("type").equals("2")).map(Map.Entry::getKey).toList();
    }

    /** Every field of typed output has its position, name, tags and type. */
    @Test
    void typedLinesAreWellFormed() throws Exception {
        Pattern line = Pattern.compile("([FBSL])\\.(\\d+)\\.(\\d+)\\.(\\d+)\\.([a-z0-9_]+)\\.1:([A-Za-z]{3}):(u32|u64|s32|str):(.*)");
        String typed = traffic(false).typed();
        int n = 0;
        for (String l : typed.split("\n")) {
            if (l.isEmpty()) {
                continue;
            }
            Matcher m = line.matcher(l);
            assertThat(m.matches()).as(l).isTrue();
            n++;
        }
        assertThat(n).isGreaterThan(300);
    }
}
