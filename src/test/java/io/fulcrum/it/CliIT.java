package io.fulcrum.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The runtime CLI over real stats sockets, as scripts and operators use it: one-shot lines, ';' chains,
 * interactive prompt mode, levels per socket, severity prefixes, the idle timeout, help. Each expectation
 * is what haproxy 2.6 answers (run with -Dit.proxy=haproxy to check them against it).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CliIT {
    private static Path dir;
    private static Path admin;
    private static int userPort;
    private static int v6Port;
    private static FulcrumProcess proxy;

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("fulcrum-cli");
        admin = dir.resolve("admin.sock");
        userPort = freePort();
        v6Port = freePort();
        proxy = TcpProxyKit.serve("""
                global
                    stats socket %s mode 600 level admin
                    stats socket ipv4@127.0.0.1:%d level user severity-output string
                    stats socket ipv6@[::1]:%d level operator
                    stats timeout 5s
                    set-var proc.one int(1)
                    set-var proc.two int(3),sub(proc.one)
                    set-var-fmt proc.text "v=%%[var(proc.two)]"
                """.formatted(admin, userPort, v6Port), userPort);
    }

    @AfterAll
    static void stop() throws Exception {
        proxy.close();
    }

    @Test
    void oneLineIsAnsweredThenTheConnectionCloses() throws Exception {
        assertThat(CliClient.send(admin, "show cli level")).isEqualTo("admin\n\n");
    }

    @Test
    void semicolonsChainCommandsEachEndedByAnEmptyLine() throws Exception {
        assertThat(CliClient.send(admin, "show cli level;user;show cli level")).isEqualTo("admin\n\n\nuser\n\n");
    }

    /**
     * An empty command (nothing between two ';', after the last one, or a blank line) is answered with every command
     * of the level, as HAProxy's empty request is; the commands after it still run.
     */
    @Test
    void anEmptyCommandListsTheCommands() throws Exception {
        String listed = "Unknown command. Please enter one of the following commands only:\n";
        String chained = CliClient.send(admin, "show cli level;;show cli level");
        assertThat(chained).startsWith("admin\n\n" + listed + "  abort ssl ca-file <cafile>  ");
        assertThat(chained).endsWith("  quit                                    : disconnect\n\nadmin\n\n");
        assertThat(chained).contains("\n  show cli level                          : display the level of the current CLI session\n");
        assertThat(CliClient.send(admin, "show cli level;")).startsWith("admin\n\n" + listed);
        assertThat(CliClient.send(admin, " ")).startsWith(listed);
        assertThat(CliClient.send(admin, "user; ;show cli level")).startsWith("\n" + listed).endsWith("\nuser\n\n")
                .contains("\n  clear counters [all] "); // the same list at every level, as help's
        try (CliClient c = CliClient.open(admin)) {
            c.write("prompt\n");
            assertThat(c.readUntil("> ")).isEqualTo("\n");
            c.write("\nquit\n"); // (the list has "> " in it: "<srv>  ")
            assertThat(c.readAll()).startsWith(listed).endsWith("disconnect\n\n> ");
        }
    }

    /** {@code desc} adds each field's description to {@code show info}, in the plain form as in the typed one. */
    @Test
    void showInfoDescDescribesEachField() throws Exception {
        String plain = CliClient.send(admin, "show info desc");
        assertThat(plain).contains("\nNbproc: 1:\"Number of started worker processes (historical, always 1)\"\n");
        assertThat(plain.strip().lines()).allMatch(l -> l.matches("[^:]+: .*:\".*\""));
        assertThat(CliClient.send(admin, "show info typed desc"))
                .contains("\n4.Nbproc.1:CGS:u32:1:\"Number of started worker processes (historical, always 1)\"\n");
    }

    /**
     * {@code float} gives the uptime, the start date and the rates as floats, as HAProxy's mkf_flt() fields: type flt,
     * a rate's nature "rate", HAProxy's %f without trailing zeros.
     */
    @Test
    void showInfoFloatGivesTheRatesAsFloats() throws Exception {
        String typed = CliClient.send(admin, "show info typed float");
        assertThat(typed).containsPattern("\n8\\.Uptime_sec\\.1:MDP:flt:\\d+(\\.\\d*[1-9])?\n")
                .containsPattern("\n26\\.ConnRate\\.1:MRP:flt:\\d+(\\.\\d*[1-9])?\n")
                .contains("\n35.SslFrontendKeyRate.1:MRP:flt:0\n", "\n37.SslFrontendSessionReuse_pct.1:MRP:flt:0\n",
                        "\n28.MaxConnRate.1:MMP:u32:")
                .containsPattern("\n70\\.Start_time_sec\\.1:MDP:flt:\\d{10}(\\.\\d*[1-9])?\n");
        assertThat(CliClient.send(admin, "show info float")).containsPattern("\nUptime_sec: \\d+(\\.\\d*[1-9])?\n");
        assertThat(CliClient.send(admin, "show info json float"))
                .contains("{\"field\":{\"pos\":35,\"name\":\"SslFrontendKeyRate\"},\"processNum\":1,\"tags\":{\"origin\":\"Metric\","
                        + "\"nature\":\"Rate\",\"scope\":\"Process\"},\"value\":{\"type\":\"flt\",\"value\":0}}");
        assertThat(CliClient.send(admin, "show info typed")).contains("\n35.SslFrontendKeyRate.1:MGP:u32:0\n");
    }

    /** Without any certificate, {@code show ssl cert} answers nothing, not even its header, as HAProxy 2.6. */
    @Test
    void showSslCertWithoutCertificatesIsEmpty() throws Exception {
        assertThat(CliClient.send(admin, "show ssl cert")).isEqualTo("\n");
    }

    @Test
    void aSessionMayLowerItsLevelButNeverRaiseIt() throws Exception {
        assertThat(CliClient.send(admin, "user;operator;show cli level")).isEqualTo("\nPermission denied\n\nuser\n\n");
    }

    @Test
    void theUserSocketRefusesOperatorCommandsWithASeverityPrefix() throws Exception {
        try (CliClient c = CliClient.open(userPort)) {
            c.write("show cli level;clear counters\n");
            assertThat(c.readAll()).isEqualTo("[info]: user\n\n[err]: Permission denied\n\n");
        }
    }

    @Test
    void severityOutputCanBeChangedPerSession() throws Exception {
        assertThat(CliClient.send(admin, "set severity-output number;user;operator;set severity-output bad"))
                .isEqualTo("\n\n[3]: Permission denied\n\n[3]: one of 'none', 'number', 'string' is a required argument\n\n");
    }

    @Test
    void promptModeAnswersLineAfterLineUntilQuit() throws Exception {
        try (CliClient c = CliClient.open(admin)) {
            c.write("prompt\n");
            assertThat(c.readUntil("> ")).isEqualTo("\n");
            c.write("show cli level\n");
            assertThat(c.readUntil("> ")).isEqualTo("admin\n\n");
            c.write("show cli level;user\n");
            assertThat(c.readUntil("> ")).isEqualTo("admin\n\n> \n"); // a prompt after each command
            c.write("quit\n");
            assertThat(c.readAll()).isEmpty();
        }
    }

    @Test
    void anIdleInteractiveSessionIsClosedAfterItsTimeout() throws Exception {
        try (CliClient c = CliClient.open(admin)) {
            c.write("prompt\n");
            c.readUntil("> ");
            c.write("set timeout cli 1500ms\n"); // rounded up to whole seconds, as haproxy's
            assertThat(c.readUntil("> ")).isEqualTo("\n");
            long start = System.nanoTime();
            assertThat(c.readAll()).isEmpty();
            assertThat((System.nanoTime() - start) / 1_000_000).isBetween(1_900L, 4_500L); // the socket's 5 s were replaced by 2 s
        }
    }

    @Test
    void setTimeoutRefusesWhatItDoesNotKnow() throws Exception {
        assertThat(CliClient.send(admin, "set timeout client 5;set timeout cli;set timeout cli 5x"))
                .isEqualTo("'set timeout' only supports 'cli'.\n\nExpects an integer value.\n\nInvalid timeout value.\n\n");
    }

    @Test
    void setTimeoutCliTakesTimeUnitsSecondsByDefaultAndRefusesZero() throws Exception {
        String invalid = "Invalid timeout value.\n\n";
        assertThat(CliClient.send(admin, "set timeout cli 5s;set timeout cli 1m;set timeout cli 500ms;set timeout cli 2147483647"))
                .isEqualTo("\n\n\n\n");
        assertThat(CliClient.send(admin, "set timeout cli 0;set timeout cli 0s;set timeout cli x;set timeout cli -1"))
                .isEqualTo(invalid.repeat(4));
        assertThat(CliClient.send(admin, "set timeout cli 2147483648;set timeout cli 24856d;set timeout cli 5S"))
                .isEqualTo(invalid.repeat(3));
    }

    @Test
    void helpListsEveryCommandAlignedAndTheSessionCommandsLast() throws Exception {
        String help = CliClient.send(admin, "help");
        assertThat(help).startsWith("The following commands are valid at this level:\n")
                .contains("  show stat [desc|json|no-maint|typed|up]*: report counters for each proxy and server\n")
                .contains("  show info [desc|json|typed|float]*      : report information about the running process\n")
                .endsWith("  help [<command>]                        : list matching or all commands\n"
                        + "  prompt                                  : toggle interactive mode with prompt\n"
                        + "  quit                                    : disconnect\n\n");
    }

    /**
     * {@code help} at every level and in each mode is haproxy 2.6's list (as tools/gen-haproxy-cli-help.py recorded
     * it) less the commands Fulcrum lacks: each line word for word, in its order; the level changes nothing, expert
     * and experimental mode add their commands. Against haproxy (-Dit.proxy=haproxy) the lists are its own.
     */
    @Test
    void helpIsHaproxysListInEveryLevelAndMode() throws Exception {
        Map<String, List<String>> haproxy = haproxyHelp();
        String[] modes = {"", "expert-mode on;", "experimental-mode on;", "expert-mode on;experimental-mode on;"};
        for (String mode : modes) {
            List<String> ours = helpLines(CliClient.send(admin, mode + "help"));
            List<String> theirs = new ArrayList<>(haproxy.get("normal"));
            if (mode.contains("expert")) {
                theirs.addAll(haproxy.get("expert"));
                theirs.add(MEMSTATS_HELP);
            }
            if (mode.contains("experimental")) {
                theirs.addAll(haproxy.get("experimental"));
            }
            assertThat(ours).as(mode).isSortedAccordingTo(Comparator.naturalOrder()).isSubsetOf(theirs)
                    .contains("  show stat [desc|json|no-maint|typed|up]*: report counters for each proxy and server");
            assertThat(ours.stream().anyMatch(l -> l.startsWith("  set var "))).as(mode).isEqualTo(mode.contains("experimental"));
        }
        // user and operator may not switch the modes on, and see the same list
        String admins = CliClient.send(admin, "help");
        assertThat(CliClient.send(new java.net.InetSocketAddress("127.0.0.1", userPort), "help")).isEqualTo("[info]: " + admins);
        assertThat(CliClient.send(new java.net.InetSocketAddress("::1", v6Port), "help")).isEqualTo(admins);
        assertThat(CliClient.send(new java.net.InetSocketAddress("::1", v6Port), "expert-mode on;help"))
                .isEqualTo("Permission denied\n\n" + admins);
    }

    /** HAProxy's line for the command its builds with DEBUG_MEM_STATS have (Debian's has not): from its source. */
    private static final String MEMSTATS_HELP = "  debug dev memstats [reset|all]          : dump/reset memory statistics";

    /** The {@code help} lines of haproxy 2.6's commands by the mode that shows them. */
    private static Map<String, List<String>> haproxyHelp() throws Exception {
        Map<String, List<String>> byMode = new HashMap<>();
        String table;
        try (var in = CliIT.class.getResourceAsStream("/io/fulcrum/cli/haproxy-cli-help.txt")) {
            table = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).split("\n%%\n")[0];
        }
        for (String row : table.split("\n")) {
            String[] f = row.split("\t");
            if (!f[1].equals("-")) {
                byMode.computeIfAbsent(f[3], k -> new ArrayList<>()).add(String.format("  %-40s: %s", f[1], f[2]));
            }
        }
        return byMode;
    }

    /** The command lines of a help answer (after the modes' empty answers), without its heading and last three lines. */
    private static List<String> helpLines(String help) {
        List<String> lines = help.replaceFirst("^\n+", "").lines().toList();
        assertThat(lines.getFirst()).isEqualTo("The following commands are valid at this level:");
        return lines.subList(1, lines.size() - 4);
    }

    @Test
    void helpWithWordsListsTheMatchingCommands() throws Exception {
        assertThat(CliClient.send(admin, "help show stat")).isEqualTo("The following commands are valid at this level:\n"
                + "  show stat [desc|json|no-maint|typed|up]*: report counters for each proxy and server\n"
                + "  help [<command>]                        : list matching or all commands\n"
                + "  prompt                                  : toggle interactive mode with prompt\n"
                + "  quit                                    : disconnect\n\n");
    }

    /** A typo gets HAProxy's nearest commands (their choice is CliUsageTest's), with the severity of an information. */
    @Test
    void anUnknownCommandGetsTheNearestCommands() throws Exception {
        String near = "Unknown command, but maybe one of the following ones is a better match:\n"
                + "  show stat [desc|json|no-maint|typed|up]*: report counters for each proxy and server\n"
                + "  help [<command>]                        : list matching or all commands\n"
                + "  prompt                                  : toggle interactive mode with prompt\n"
                + "  quit                                    : disconnect\n\n";
        assertThat(CliClient.send(admin, "shwo stat")).isEqualTo(near);
        assertThat(CliClient.send(admin, "set severity-output number;show stats")).isEqualTo("\n[6]: " + near);
        assertThat(CliClient.send(admin, "set maxconn")).startsWith("Unknown command, but maybe one of the following ones is a better match:\n"
                + "  set maxconn frontend <frontend> <value> : change a frontend's maxconn setting\n"
                + "  set maxconn global <value>              : change the per-process maxconn setting\n");
    }

    @Test
    void showCliSocketsListsEverySocketWithItsLevel() throws Exception {
        assertThat(CliClient.send(admin, "show cli sockets")).isEqualTo("# socket lvl processes\n"
                + "unix@" + admin + " admin all\n"
                + "ipv4@127.0.0.1:" + userPort + " user all\n"
                + "ipv6@[::1]:" + v6Port + " operator all\n\n"); // haproxy's compressed IPv6 form (inet_ntop)
    }

    /** An {@code ipv6@} stats socket answers over IPv6 at its level. */
    @Test
    void ipv6SocketAnswersAtItsLevel() throws Exception {
        assertThat(CliClient.send(new java.net.InetSocketAddress("::1", v6Port), "show cli level")).isEqualTo("operator\n\n");
    }

    /**
     * {@code show version} is the Version of {@code show info}; {@code show info typed} and {@code json} give the
     * fields, with their tags and types, that haproxy 2.6 gives (where installed), in its order (values aside; the
     * zlib fields apart).
     */
    @Test
    void showVersionAndTypedAndJsonInfoAreHaproxys() throws Exception {
        List<String> ours = infoFields(admin);
        assertThat(ours).hasSizeGreaterThan(60).contains("1.Version.1:POS:str");
        String typed = CliClient.send(admin, "show info typed");
        String version = typed.lines().filter(l -> l.startsWith("1.Version.1:")).findFirst().orElseThrow().split(":", 4)[3];
        assertThat(CliClient.send(admin, "show version")).isEqualTo(version + "\n\n");
        if (Files.isExecutable(Path.of("/usr/sbin/haproxy"))) {
            Path sock = Files.createTempDirectory("fulcrum-cli-oracle").resolve("s.sock");
            int port = freePort();
            try (FulcrumProcess h = StatsIT.oracle("""
                    global
                        stats socket %s mode 600 level admin
                        stats socket ipv4@127.0.0.1:%d level user
                    """.formatted(sock, port), port)) {
                // ZlibMemUsage and MaxZlibMemUsage are HAProxy's zlib build's fields, which Fulcrum is (java.util.zip);
                // Debian's haproxy is the libslz build, without them
                assertThat(ours).filteredOn(f -> !f.contains("ZlibMem")).isEqualTo(infoFields(sock));
                assertThat(CliClient.send(sock, "show version")).matches("2\\.6\\.[^\\n]+\n\n");
            }
        }
    }

    /** Of "typed" and "json", the last word given decides, as in haproxy: "json typed" is typed, "typed json" json. */
    @Test
    void theLastFormatWordOfShowInfoAndShowStatWins() throws Exception {
        assertThat(CliClient.send(admin, "show info json typed")).startsWith("0.Name.1:POS:str:");
        assertThat(CliClient.send(admin, "show info typed json")).startsWith("[{\"field\":{\"pos\":0,\"name\":\"Name\"}");
        assertThat(CliClient.send(admin, "show info json typed desc")).contains(":\"Product name\"\n");
        assertThat(CliClient.send(admin, "show stat json typed")).isEqualTo(CliClient.send(admin, "show stat typed"))
                .doesNotStartWith("# pxname");
        assertThat(CliClient.send(admin, "show stat typed json")).isEqualTo(CliClient.send(admin, "show stat json"))
                .startsWith("[");
    }

    /** "N.Name.1:TAGS:type" of each line of "show info typed", checked to be the fields of "show info json" too. */
    private static List<String> infoFields(Path sock) throws Exception {
        List<String> typed = CliClient.send(sock, "show info typed").lines().filter(l -> !l.isEmpty())
                .map(l -> l.substring(0, l.indexOf(':', l.indexOf(':') + 1) + 4)).toList();
        Matcher m = java.util.regex.Pattern.compile("\\{\"field\":\\{\"pos\":(\\d+),\"name\":\"([^\"]+)\"\\}")
                .matcher(CliClient.send(sock, "show info json"));
        List<String> json = new java.util.ArrayList<>();
        while (m.find()) {
            json.add(m.group(1) + "." + m.group(2));
        }
        assertThat(json).isEqualTo(typed.stream().map(l -> l.substring(0, l.indexOf(".1:"))).toList());
        return typed;
    }

    @Test
    void showEnvShowsOneVariableOrSaysItIsMissing() throws Exception {
        assertThat(CliClient.send(admin, "show env PATH")).startsWith("PATH=/");
        assertThat(CliClient.send(admin, "show env FULCRUM_NO_SUCH_VARIABLE")).isEqualTo("Variable not found\n\n");
    }

    /** set-var and set-var-fmt in the global section, each line seeing the variables of the lines before it. */
    @Test
    void globalSetVarLinesSetProcessVariables() throws Exception {
        assertThat(CliClient.send(admin, "get var proc.two;get var proc.text"))
                .isEqualTo("proc.two: type=sint value=<2>\nproc.text: type=str value=<v=2>\n");
    }

    @Test
    void processVariablesAreSetInExperimentalModeAndRead() throws Exception {
        assertThat(CliClient.send(admin, "set var proc.cli int(5)")).isEqualTo("This command is restricted to experimental mode only.\n\n");
        assertThat(CliClient.send(admin, "experimental-mode;experimental-mode on;experimental-mode"))
                .isEqualTo("experimental-mode is OFF\n\n\nexperimental-mode is ON\n\n");
        assertThat(CliClient.send(admin, "experimental-mode on;set var proc.cli int(5);set var proc.s expr str(a\\ b);"
                + "set var proc.f fmt %[var(proc.cli)]x;get var proc.cli;get var proc.s;get var proc.f"))
                .isEqualTo("\n\n\n\nproc.cli: type=sint value=<5>\nproc.s: type=str value=<a b>\nproc.f: type=str value=<5x>\n");
        assertThat(CliClient.send(admin, "experimental-mode on;set var txn.y int(5);set var proc.z;set var proc.z src;set var 9x int(1)"))
                .isEqualTo("\n'set var': cannot set variable 'txn.y', only scope 'proc' is permitted here.\n"
                        + "Missing either 'expr', 'fmt' or expression.\n\n"
                        + "fetch method 'set-var(proc.z)' extracts information from 'client address', none of which is available here\n"
                        + "invalid variable name '9x'. A variable name must be start by its scope. The scope can be 'proc', 'sess', "
                        + "'txn', 'req', 'res' or 'check'\n");
        assertThat(CliClient.send(admin, "get var;get var proc.nothing;get var txn.x"))
                .isEqualTo("Missing process-wide variable identifier.\n\nVariable not found.\n\nVariable not found.\n\n");
        try (CliClient c = CliClient.open(userPort)) {
            c.write("experimental-mode on\n");
            assertThat(c.readAll()).isEqualTo("[err]: Permission denied\n\n");
        }
    }

    @Test
    void processVariableExpressionsHaveTheirArgumentsResolvedInProxyCli() throws Exception {
        String cli = " in CLI expression in proxy 'CLI'";
        assertThat(CliClient.send(admin, "experimental-mode on;set var proc.r expr str(abc),regsub((a,b);set var proc.r fmt %[str(a),regsub(,b)];"
                + "set var proc.r expr str(a),regsub((a,b),regsub(**,c);set var proc.r expr nbsrv(nosuch);"
                + "set var proc.r expr str(a),table_gpc0(nosuch);set var proc.r expr str(a),table_gpc0();set var proc.r expr be_conn;"
                + "set var proc.r expr str(abc),regsub(B,z,i);get var proc.r"))
                .isEqualTo("\n"
                        + "parsing [CLI:0]: error in regex '(a' in arg 1 of conversion keyword 'regsub' for sample fetch keyword 'str'" + cli
                        + " : regex '(a' is invalid (error=missing closing parenthesis, erroffset=2).\n"
                        + "parsing [CLI:0]: missing regex in arg 1 of conversion keyword 'regsub' for sample fetch keyword 'str'" + cli + ".\n"
                        + "\n"
                        + "  parsing [CLI:0]: error in regex '(a' in arg 1 of conversion keyword 'regsub' for sample fetch keyword 'str'" + cli
                        + " : regex '(a' is invalid (error=missing closing parenthesis, erroffset=2).\n"
                        + "  parsing [CLI:0]: error in regex '**' in arg 1 of conversion keyword 'regsub' for sample fetch keyword 'str'" + cli
                        + " : regex '**' is invalid (error=quantifier does not follow a repeatable item, erroffset=0).\n"
                        + "parsing [CLI:0]: unable to find backend 'nosuch' referenced in arg 1 of sample fetch keyword 'nbsrv'" + cli + ".\n"
                        + "parsing [CLI:0]: unable to find table 'nosuch' referenced in arg 1 of conversion keyword 'table_gpc0' for sample fetch keyword 'str'"
                        + cli + ".\n"
                        + "parsing [CLI:0]: unable to find table 'CLI' referenced in arg 1 of conversion keyword 'table_gpc0' for sample fetch keyword 'str'"
                        + cli + ".\n"
                        + "parsing [CLI:0]: proxy 'CLI', referenced in arg 1 of sample fetch keyword 'be_conn'" + cli + ", has not backend capability.\n"
                        + "\n"
                        + "proc.r: type=str value=<azc>\n");
    }

    /**
     * {@code show startup-logs} (operator level) gives what the process printed while it started, as printed, and
     * an empty line when it printed nothing; what it prints once serving (a server going down) is not part of it.
     */
    @Test
    void startupLogsAreWhatTheProcessPrintedWhileStarting() throws Exception {
        assertThat(CliClient.send(admin, "show startup-logs")).isEqualTo("\n\n");
        Path sock = dir.resolve("warned.sock");
        int fe = freePort();
        try (FulcrumProcess warned = TcpProxyKit.serve("""
                global
                    stats socket %s level operator
                defaults
                    mode http
                frontend fe
                    bind 127.0.0.1:%d
                    default_backend be
                backend be
                    timeout connect 1s
                    server s1 127.0.0.1:%d check inter 200
                """.formatted(sock, fe, freePort()), fe)) {
            warned.awaitStderr("Server be/s1 is DOWN");
            String printed = warned.stderr();
            String started = printed.substring(0, printed.indexOf("[WARNING]  (" + warned.pid() + ") : Server be/s1 is DOWN"));
            assertThat(started).contains("config : missing timeouts for frontend 'fe'.");
            assertThat(CliClient.send(sock, "show startup-logs")).isEqualTo(started + "\n");
            assertThat(CliClient.send(sock, "user;show startup-logs")).isEqualTo("\nPermission denied\n\n");
        }
    }

    /**
     * A process that printed nothing while it started keeps an empty start-up log, whatever its first checks then
     * report (they run once it serves, as HAProxy's), and the version notice that comes before a problem reported while
     * starting is not printed for them.
     */
    @Test
    void theFirstChecksAreNotPartOfTheStartupLogs() throws Exception {
        Path sock = dir.resolve("quiet.sock");
        int fe = freePort();
        try (FulcrumProcess quiet = TcpProxyKit.serve("""
                global
                    stats socket %s level operator
                defaults
                    mode http
                    timeout connect 1s
                    timeout client 5s
                    timeout server 5s
                frontend fe
                    bind 127.0.0.1:%d
                    default_backend be
                backend be
                    server s1 127.0.0.1:%d check inter 100 fall 1
                """.formatted(sock, fe, FulcrumProcess.refusedPort()), fe)) {
            quiet.awaitStderr("Server be/s1 is DOWN");
            assertThat(quiet.stderr()).doesNotContain("NOTICE");
            assertThat(CliClient.send(sock, "show startup-logs")).isEqualTo("\n\n");
        }
    }

    /** {@code show libs}: each object mapped into the process, its first and last address and its size, libc among them. */
    @Test
    void libsAreListedWithTheirAddresses() throws Exception {
        String out = CliClient.send(admin, "show libs");
        assertThat(out).endsWith("\n\n");
        String[] lines = out.strip().split("\n");
        Pattern line = Pattern.compile("0x([0-9a-f]+)-0x([0-9a-f]+) \\(0x([0-9a-f]{7,})\\) (/\\S+)");
        assertThat(lines).anyMatch(l -> l.matches(".* /\\S*/libc\\.so\\.6"));
        for (String l : lines) {
            Matcher m = line.matcher(l);
            assertThat(m.matches()).as(l).isTrue();
            long start = Long.parseUnsignedLong(m.group(1), 16);
            long last = Long.parseUnsignedLong(m.group(2), 16);
            assertThat(Long.parseLong(m.group(3), 16)).as(l).isEqualTo(last - start + 1);
        }
    }

    /** {@code show schema json} (user level) describes the items of {@code show info json}: the keys they have are those it requires. */
    @Test
    void theSchemaDescribesTheJsonOutputs() throws Exception {
        String schema = CliClient.send(new InetSocketAddress("127.0.0.1", userPort), "show schema json");
        assertThat(schema).startsWith("{\"$schema\":\"http://json-schema.org/draft-04/schema#\",").endsWith("}\n\n")
                .contains("{\"title\":\"Info\",\"type\":\"array\"", "\"required\":[\"field\",\"processNum\",\"tags\",\"value\"]",
                        "\"objType\":{\"enum\":[\"Frontend\",\"Backend\",\"Listener\",\"Server\",\"Unknown\"]}");
        assertThat(CliClient.send(admin, "show info json"))
                .startsWith("[{\"field\":{\"pos\":0,\"name\":\"Name\"},\"processNum\":1,\"tags\":{\"origin\":\"Product\",")
                .contains("\"value\":{\"type\":\"str\",\"value\":");
    }
}
