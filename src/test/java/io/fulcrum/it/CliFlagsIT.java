package io.fulcrum.it;

import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** HAProxy's command-line flags (management.txt section 3), on the real {@code bin/fulcrum}. */
class CliFlagsIT {

    private static Path tmp() throws Exception {
        return Files.createTempDirectory("fulcrum-cli");
    }

    // ---- -v, -vv -----------------------------------------------------------------------------------

    @Test
    void versionFlagPrintsTheVersionAndExits() throws Exception {
        FulcrumRun r = FulcrumRun.in(tmp(), "-v");
        assertThat(r.exit()).as(r.describe()).isZero();
        assertThat(r.stdout()).as(r.describe()).startsWith("Fulcrum version ").contains("HAProxy language: 2.6");
        assertThat(r.stdout()).as(r.describe()).doesNotContain("Feature list");
        assertThat(r.stderr()).as(r.describe()).isEmpty();
    }

    /** The servers tests start run with the AOT cache the build recorded (a module option would make the JVM refuse it). */
    @Test
    void serversStartWithTheBuildsAotCache() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Runtime.version().feature() >= 25, "AOT caches need Java 25");
        String opts = System.getProperty("fulcrum.test.jvm.args", "") + " -Xlog:aot=info:stderr";
        FulcrumRun r = FulcrumRun.in(tmp(), Map.of("FULCRUM_JAVA_OPTS", opts), "-v");
        assertThat(r.exit()).as(r.describe()).isZero();
        assertThat(r.stderr()).as(r.describe()).contains("Using AOT-linked classes: true").doesNotContain("[error]");
    }

    @Test
    void doubleVersionFlagPrintsBuildOptionsFeaturesPollersAndMultiplexers() throws Exception {
        FulcrumRun r = FulcrumRun.in(tmp(), "-vv");
        assertThat(r.exit()).as(r.describe()).isZero();
        assertThat(r.stdout()).as(r.describe())
                .startsWith("Fulcrum version ")
                .contains("Build options :")
                .contains("Feature list : ")
                .contains("+EPOLL")
                .contains("Available polling systems :")
                .contains("epoll : pref=300,  test result OK")
                .containsPattern("io_uring : pref=350,  test result (OK|FAILED)")
                .containsPattern("will use (io_uring|epoll)\\.")
                .contains("Available multiplexer protocols :")
                .contains("mode=TCP");
    }

    // ---- -cc ----------------------------------------------------------------------------------------

    @Test
    void conditionFlagExitsZeroWhenTrueOneWhenFalseTwoWhenMalformed() throws Exception {
        Path dir = tmp();
        Map<String, String> env = Map.of("FULCRUM_IT_VAR", "some value");
        assertThat(FulcrumRun.in(dir, env, "-cc", "defined(FULCRUM_IT_VAR)").exit()).isZero();
        assertThat(FulcrumRun.in(dir, env, "-cc", "defined(FULCRUM_IT_UNDEFINED_VAR)").exit()).isEqualTo(1);
        assertThat(FulcrumRun.in(dir, env, "-cc", "version_atleast(2.4)").exit()).isZero();
        assertThat(FulcrumRun.in(dir, env, "-cc", "version_before(2.4)").exit()).isEqualTo(1);
        assertThat(FulcrumRun.in(dir, env, "-cc", "streq(a,a) && !strneq(b,b)").exit()).isZero();
        assertThat(FulcrumRun.in(dir, env, "-cc", "1 && 0").exit()).isEqualTo(1);
        assertThat(FulcrumRun.in(dir, env, "-cc", "").exit()).as("an empty condition is false").isEqualTo(1);
        // The argument is tokenized like a configuration line: quotes and variables.
        FulcrumRun quoted = FulcrumRun.in(dir, env, "-cc", "streq(\"$FULCRUM_IT_VAR\",\"some value\")");
        assertThat(quoted.exit()).as(quoted.describe()).isZero();

        FulcrumRun bad = FulcrumRun.in(dir, env, "-cc", "foo(");
        assertThat(bad.exit()).as(bad.describe()).isEqualTo(2);
        Expected.of("[ALERT]    (PID) : config : Failed to evaluate condition: <*>").assertIn(bad.maskedStderr(), bad.describe());
        FulcrumRun unmatched = FulcrumRun.in(dir, env, "-cc", "streq(\"a,b)");
        assertThat(unmatched.exit()).as(unmatched.describe()).isEqualTo(2);
        assertThat(unmatched.stderr()).as(unmatched.describe()).contains("[ALERT]");
    }

    // ---- flags Fulcrum refuses ------------------------------------------------------------------------

    @Test
    void unknownFlagIsRefusedWithItsName() throws Exception {
        FulcrumRun r = FulcrumRun.in(tmp(), "-Z");
        assertThat(r.exit()).as(r.describe()).isEqualTo(1);
        Expected.of("[ALERT]    (PID) : unknown option '-Z'.").assertIn(r.maskedStderr(), r.describe());
        assertThat(r.stderr()).contains("Usage : fulcrum");

        FulcrumRun word = FulcrumRun.in(tmp(), "haproxy.cfg");
        assertThat(word.exit()).as(word.describe()).isEqualTo(1);
        assertThat(word.stderr()).as(word.describe()).contains("'haproxy.cfg'");
    }

    @Test
    void haproxyFlagsNotImplementedSaySo() throws Exception {
        Path dir = tmp();
        for (String[] args : new String[][] {{"-dI"}}) {
            FulcrumRun r = FulcrumRun.in(dir, args);
            assertThat(r.exit()).as(r.describe()).isEqualTo(1);
            Expected.of("[ALERT]    (PID) : option '" + args[0] + "' is an HAProxy flag that Fulcrum does not support yet.")
                    .assertIn(r.maskedStderr(), r.describe());
        }
    }

    // ---- -dr, -m, -dM, -dL, -x (messages taken from haproxy 2.6) -------------------------------------

    @Test
    void resolutionFailuresFlagDisablesTheServersInsteadOfFailing() throws Exception {
        Path dir = tmp();
        Files.writeString(dir.resolve("r.cfg"), """
                defaults
                    mode http
                    timeout client 1s
                    timeout server 1s
                    timeout connect 1s
                frontend f
                    bind 127.0.0.1:%d
                    default_backend b
                backend b
                    server s nonexistent.invalid:80
                    server t 127.0.0.1:80 init-addr libc
                    server u nonexistent.invalid:80 init-addr libc,none
                """.formatted(FulcrumProcess.freePort()));
        FulcrumRun fails = FulcrumRun.in(dir, "-c", "-f", "r.cfg");
        assertThat(fails.exit()).as(fails.describe()).isEqualTo(1);
        assertThat(fails.stderr()).contains("'server b/s' : could not resolve address 'nonexistent.invalid'.");
        FulcrumRun r = FulcrumRun.in(dir, "-c", "-dr", "-f", "r.cfg");
        assertThat(r.exit()).as(r.describe()).isZero();
        Expected.of("[WARNING]  (PID) : config : [r.cfg:10] : 'server b/s' : could not resolve address 'nonexistent.invalid', disabling server.",
                "[WARNING]  (PID) : config : [r.cfg:12] : 'server b/u' : could not resolve address 'nonexistent.invalid', disabling server.")
                .assertIn(r.maskedStderr(), r.describe());
    }

    @Test
    void memoryFlagIsShownAsMemmaxAndCapsTheBuffers() throws Exception {
        Path sock = tmp().resolve("s.sock");
        int port = FulcrumProcess.freePort();
        Path cfg = FulcrumProcess.config("""
                global
                    stats socket %s
                defaults
                    mode http
                    timeout client 5s
                frontend f
                    bind 127.0.0.1:%d
                    http-request return status 200
                """.formatted(sock, port));
        try (FulcrumProcess p = FulcrumProcess.serve(cfg, port, "-m", "96")) {
            String info = CliClient.send(sock, "show info");
            assertThat(info).contains("\nMemmax_MB: 96\n").contains("\nMemmax_bytes: 100663296\n");
        }
        FulcrumRun bad = FulcrumRun.in(tmp(), "-m", "lots", "-c", "-f", cfg.toString());
        assertThat(bad.exit()).as(bad.describe()).isEqualTo(1);
        Expected.of("[ALERT]    (PID) : option '-m' expects a positive integer, got 'lots'.").assertIn(bad.maskedStderr(), bad.describe());
    }

    @Test
    void memoryDebugFlagIsReadAsHaproxyReadsIt() throws Exception {
        Path dir = tmp();
        Files.writeString(dir.resolve("t.cfg"), "frontend f\n    bind 127.0.0.1:%d\n    timeout client 1s\n".formatted(FulcrumProcess.freePort()));
        FulcrumRun help = FulcrumRun.in(dir, "-dMno-tag,global,help");
        assertThat(help.exit()).as(help.describe()).isZero();
        // The marks show the settings before the option's words, as HAProxy's help does.
        assertThat(help.stdout()).contains("'*' marks the current setting")
                .contains("  * tag            |  no-tag         | add tag at end of allocated objects\n")
                .contains("    poison         |* no-poison      | poison newly allocated objects\n");
        if (Files.isExecutable(Path.of("/usr/sbin/haproxy"))) {
            Process h = new ProcessBuilder("/usr/sbin/haproxy", "-dMno-tag,global,help").redirectErrorStream(true).start();
            assertThat(help.stdout()).isEqualTo(new String(h.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1));
        }
        FulcrumRun bad = FulcrumRun.in(dir, "-dM0x41,no-merge,xyz", "-c", "-f", "t.cfg");
        assertThat(bad.exit()).as(bad.describe()).isEqualTo(1);
        Expected.of("[ALERT]    (PID) : -dM: unknown pool debugging feature <xyz>").assertIn(bad.maskedStderr(), bad.describe());
        FulcrumRun ok = FulcrumRun.in(dir, "-dM0x41,no-merge,cold-first", "-c", "-f", "t.cfg");
        assertThat(ok.exit()).as(ok.describe()).isZero();
    }

    @Test
    void dumpLibsFlagListsTheExecutableTheLibrariesAndTheJar() throws Exception {
        Path dir = tmp();
        Files.writeString(dir.resolve("t.cfg"), "frontend f\n    bind 127.0.0.1:%d\n    timeout client 1s\n".formatted(FulcrumProcess.freePort()));
        FulcrumRun quiet = FulcrumRun.in(dir, "-q", "-c", "-dL", "-f", "t.cfg");
        assertThat(quiet.exit()).as(quiet.describe()).isZero();
        java.util.List<String> lines = quiet.stdout().lines().toList();
        assertThat(lines.get(0)).as(quiet.describe()).endsWith("/bin/java");
        assertThat(lines).anyMatch(l -> l.endsWith("/libjvm.so")).anyMatch(l -> l.endsWith("/fulcrum.jar"))
                .allMatch(l -> Files.exists(Path.of(l)));
        FulcrumRun loud = FulcrumRun.in(dir, "-c", "-dL", "-f", "t.cfg");
        assertThat(loud.stdout()).startsWith("List of loaded object files:\n" + lines.get(0) + "\n").endsWith("Configuration file is valid\n");
    }

    /**
     * -dK lists the registered keywords once the configuration is read, in haproxy's format, so that the two lists
     * can be compared: lines of keywords both have are the same lines, the classes come in the order asked, an
     * unknown class prints nothing, and the check goes on as without the flag.
     */
    @Test
    void keywordDumpFlagListsKeywordsInHaproxysFormat() throws Exception {
        Path dir = tmp();
        Files.writeString(dir.resolve("t.cfg"), "frontend f\n    bind 127.0.0.1:%d\n    timeout client 1s\n".formatted(FulcrumProcess.freePort()));
        String[] args = {"-dKhelp,svc,bogus,cfg,smp,cnv,cli,acl,flt", "-q", "-c", "-f", "t.cfg"};
        FulcrumRun r = FulcrumRun.in(dir, args);
        assertThat(r.exit()).as(r.describe()).isZero();
        java.util.List<String> lines = r.stdout().lines().toList();
        java.util.List<String> shared = java.util.List.of(
                "# List of supported keyword classes:", "smp: sample fetch functions", "svc: service names",
                "prometheus-exporter", "global", "\tnbthread", "listen", "\tbind <addr> accept-proxy", "\tbind <addr> maxconn +1",
                "\tserver <name> <addr> inter +1", "\tserver <name> <addr> backup", "\toption dontlognull [ FE ]",
                "\toption allbackups [ BE ]", "\thttp-request set-header", "\thttp-request set-var*", "\thttp-response set-status",
                "\thttp-after-response set-header",
                "#                       _.---------------------- frontend tcp-request connection rule",
                "# | | | | | | | | | | | | | | | | | | | | | | ",
                "[ . . Y Y Y Y Y Y Y Y Y . . . . . . . . . . . ] base: str",
                "[ Y Y Y Y Y Y Y Y Y Y Y Y Y Y Y Y Y Y Y Y . Y ] be_conn(backend): sint",
                "[ . . Y Y Y Y Y Y Y Y Y . . . . . . . . . . . ] urlp_val([string,string]): sint",
                "map_str(string[,string]): str => str", "crc32([integer]): sint => bin", "b64dec: bin => str",
                "show stat [WORKER] ", "add map [WORKER] ", "path_beg = path -m beg", "url_sub = url -m sub", "compression [COMP]");
        assertThat(lines).as(r.describe()).containsAll(shared);
        java.util.List<String> headers = lines.stream().filter(l -> l.startsWith("# List")).toList();
        if (Files.isExecutable(Path.of("/usr/sbin/haproxy"))) {
            java.util.List<String> command = new java.util.ArrayList<>(java.util.List.of("/usr/sbin/haproxy"));
            command.addAll(java.util.List.of(args));
            Process h = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
            java.util.List<String> haproxy = new String(h.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1).lines().toList();
            assertThat(h.waitFor()).isZero();
            assertThat(haproxy).containsAll(shared);
            assertThat(headers).isEqualTo(haproxy.stream().filter(l -> l.startsWith("# List")).toList());
        }
        assertThat(headers).containsExactly("# List of supported keyword classes:", "# List of registered service names:",
                "# List of registered configuration keywords:", "# List of registered sample fetch functions:",
                "# List of registered sample converter functions:", "# List of registered CLI keywords:",
                "# List of registered ACL keywords:", "# List of registered filter names:");
        FulcrumRun unknown = FulcrumRun.in(dir, "-dKbogus", "-c", "-f", "t.cfg");
        assertThat(unknown.exit()).as(unknown.describe()).isZero();
        assertThat(unknown.stdout()).isEqualTo("Configuration file is valid\n");
    }

    /**
     * Every converter and fetch Fulcrum lists has haproxy's line (arguments, which are optional, input and output
     * types, rules where usable), so that their arguments are read and refused alike; those Fulcrum lacks are the
     * ones docs/differences.md lists ("Sample fetches and converters Fulcrum does not have").
     */
    @Test
    void convertersAndFetchesAreListedAsHaproxyListsThem() throws Exception {
        Path haproxy = Path.of("/usr/sbin/haproxy");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(haproxy), "haproxy is not installed");
        Path dir = tmp();
        Files.writeString(dir.resolve("t.cfg"), "frontend f\n    bind 127.0.0.1:%d\n    timeout client 1s\n".formatted(FulcrumProcess.freePort()));
        FulcrumRun r = FulcrumRun.in(dir, "-dKcnv,smp", "-q", "-c", "-f", "t.cfg");
        assertThat(r.exit()).as(r.describe()).isZero();
        Process h = new ProcessBuilder(haproxy.toString(), "-dKcnv,smp", "-q", "-c", "-f", "t.cfg").directory(dir.toFile())
                .redirectErrorStream(true).start();
        String theirs = new String(h.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        assertThat(h.waitFor()).isZero();
        Map<String, String> ours = keywordLines(r.stdout());
        Map<String, String> expected = keywordLines(theirs);
        java.util.List<String> differing = ours.entrySet().stream().filter(e -> !e.getValue().equals(expected.get(e.getKey())))
                .map(e -> e.getValue() + "   (haproxy: " + expected.get(e.getKey()) + ")").toList();
        assertThat(differing).as("lines that differ from haproxy's").isEmpty();
        java.util.Set<String> lacking = new java.util.TreeSet<>(expected.keySet());
        lacking.removeAll(ours.keySet());
        assertThat(lacking).containsExactly("fetch fcgi.docroot", "fetch fcgi.index", "fetch internal.htx.data",
                "fetch internal.htx.free", "fetch internal.htx.free_data", "fetch internal.htx.has_eom",
                "fetch internal.htx.nbblks", "fetch internal.htx.size", "fetch internal.htx.used",
                "fetch internal.htx_blk.data", "fetch internal.htx_blk.hdrname", "fetch internal.htx_blk.hdrval",
                "fetch internal.htx_blk.size", "fetch internal.htx_blk.start_line", "fetch internal.htx_blk.type",
                "fetch internal.strm.is_htx", "fetch sc1_clr_gpc", "fetch ssl_bc_npn", "fetch ssl_fc_npn");
    }

    /** The converter ("conv name") and fetch ("fetch name") lines of a -dKcnv,smp listing, by keyword. */
    private static Map<String, String> keywordLines(String listing) {
        Map<String, String> lines = new java.util.HashMap<>();
        String kind = null;
        for (String line : listing.lines().toList()) {
            if (line.startsWith("# List of registered sample converter")) {
                kind = "conv ";
            } else if (line.startsWith("# List of registered sample fetch")) {
                kind = "fetch ";
            } else if (kind != null && !line.startsWith("#") && !line.isBlank()) {
                String word = kind.equals("fetch ") ? line.substring(line.indexOf("] ") + 2) : line;
                lines.put(kind + word.split("[(:]", 2)[0], line);
            }
        }
        return lines;
    }

    @Test
    void oldSocketFlagNeedsAReachableSocket() throws Exception {
        Path dir = tmp();
        Path sock = dir.resolve("old.sock");
        int port = FulcrumProcess.freePort();
        Path cfg = FulcrumProcess.config("""
                global
                    stats socket %s expose-fd listeners
                frontend f
                    bind 127.0.0.1:%d
                    timeout client 1s
                """.formatted(sock, port));
        FulcrumRun none = FulcrumRun.in(dir, "-db", "-x", dir.resolve("none.sock").toString(), "-f", cfg.toString());
        assertThat(none.exit()).as(none.describe()).isEqualTo(1);
        Expected.of("[WARNING]  (PID) : Failed to connect to the old process socket '" + dir.resolve("none.sock") + "'",
                "[ALERT]    (PID) : Failed to get the sockets from the old process!").assertIn(none.maskedStderr(), none.describe());
        try (FulcrumProcess old = FulcrumProcess.serve(cfg, port)) {
            Path cfg2 = FulcrumProcess.config("""
                    frontend f
                        bind 127.0.0.1:%d
                        timeout client 1s
                    """.formatted(port));
            try (FulcrumProcess next = FulcrumProcess.serve(cfg2, port, "-x", sock.toString(), "-sf", Long.toString(old.pid()))) {
                next.awaitStderr("Fulcrum does not take the listening sockets of the old process over yet");
                assertThat(old.awaitExit(Duration.ofSeconds(30))).isZero();
                assertThat(next.isAlive()).isTrue();
            }
        }
    }

    @Test
    void flagMissingItsValueIsRefused() throws Exception {
        Path dir = tmp();
        for (String flag : new String[] {"-f", "-p", "-n", "-N", "-L", "-C"}) {
            FulcrumRun r = FulcrumRun.in(dir, "-c", flag);
            assertThat(r.exit()).as(r.describe()).isEqualTo(1);
            Expected.of("[ALERT]    (PID) : option '" + flag + "' expects an argument.").assertIn(r.maskedStderr(), r.describe());
        }
        FulcrumRun n = FulcrumRun.in(dir, "-n", "lots", "-c", "-f", "x.cfg");
        assertThat(n.exit()).as(n.describe()).isEqualTo(1);
        Expected.of("[ALERT]    (PID) : option '-n' expects a positive integer, got 'lots'.").assertIn(n.maskedStderr(), n.describe());
    }

    @Test
    void noConfigurationPrintsUsage() throws Exception {
        FulcrumRun r = FulcrumRun.in(tmp());
        assertThat(r.exit()).as(r.describe()).isEqualTo(1);
        assertThat(r.stderr()).contains("Usage : fulcrum");
    }

    // ---- -C, -N, -n, -L, -q/-V, -dD ------------------------------------------------------------------

    @Test
    void directoryFlagResolvesRelativeConfigurationFiles() throws Exception {
        Path elsewhere = tmp();
        String corpus = FulcrumRun.corpus().toString();
        FulcrumRun ok = FulcrumRun.in(elsewhere, "-C", corpus, "-c", "-f", "valid/minimal-tcp.cfg");
        assertThat(ok.exit()).as(ok.describe()).isZero();
        assertThat(ok.stdout()).contains("Configuration file is valid");

        FulcrumRun dir = FulcrumRun.in(elsewhere, "-C", corpus, "-c", "-dW", "-f", "confdir");
        assertThat(dir.exit()).as(dir.describe()).isZero();

        // Errors name the file as it was given.
        FulcrumRun bad = FulcrumRun.in(elsewhere, "-C", corpus, "-c", "-f", "invalid/unexpected-argument.cfg");
        assertThat(bad.exit()).as(bad.describe()).isEqualTo(1);
        Expected.of("[ALERT]    (PID) : config : parsing [invalid/unexpected-argument.cfg:2] : 'maxconn' cannot handle unexpected argument '200'.")
                .assertIn(bad.maskedStderr(), bad.describe());

        // Without -C, the same relative name does not exist where the command runs.
        FulcrumRun missing = FulcrumRun.in(elsewhere, "-c", "-f", "valid/minimal-tcp.cfg");
        assertThat(missing.exit()).as(missing.describe()).isEqualTo(1);
        assertThat(missing.stderr()).contains("Cannot open configuration file/directory valid/minimal-tcp.cfg");

        // An absolute file name is not affected by -C.
        FulcrumRun absolute = FulcrumRun.in(elsewhere, "-C", "/", "-c", "-f", FulcrumRun.corpus().resolve("valid/minimal-tcp.cfg").toString());
        assertThat(absolute.exit()).as(absolute.describe()).isZero();
    }

    @Test
    void maxconnFlagsAreAcceptedInCheckMode() throws Exception {
        FulcrumRun r = FulcrumRun.inCorpus("-N", "100", "-n", "1000", "-c", "-f", "valid/minimal-tcp.cfg");
        assertThat(r.exit()).as(r.describe()).isZero();
        assertThat(r.stdout()).contains("Configuration file is valid");
    }

    @Test
    void perProxyMaxconnFlagLimitsAFrontendWithoutMaxconn() throws Exception {
        assertOneConnectionAtATime("-N", "1");
    }

    @Test
    void globalMaxconnFlagLimitsTheProcess() throws Exception {
        assertOneConnectionAtATime("-n", "1");
    }

    /** With a limit of 1, a second client waits (unserved) until the first one leaves. */
    private static void assertOneConnectionAtATime(String flag, String value) throws Exception {
        try (Origin origin = Origin.start(Origin.ECHO)) {
            int port = FulcrumProcess.freePort();
            Path cfg = FulcrumProcess.config("""
                    defaults
                        mode tcp
                        timeout connect 5s
                        timeout client 30s
                        timeout server 30s
                    listen app
                        bind 127.0.0.1:%d
                        server s1 127.0.0.1:%d
                    """.formatted(port, origin.port()));
            try (FulcrumProcess p = FulcrumProcess.serve(cfg, port, flag, value)) {
                awaitNoSession(origin);
                try (Socket first = Net.connect(port)) {
                    Net.assertEcho(first, "first");
                    try (Socket second = Net.connect(port)) {
                        second.getOutputStream().write("second".getBytes(StandardCharsets.US_ASCII));
                        Net.assertSilent(second, Duration.ofMillis(700));
                        first.close();
                        assertThat(Net.read(second, 6, Duration.ofSeconds(10))).isEqualTo("second");
                    }
                }
            }
        }
    }

    /**
     * The readiness probe of {@link FulcrumProcess#awaitPort} may open a session to the origin a moment
     * after it closed its own side: let it arrive and end, then zero the origin's counters.
     */
    static void awaitNoSession(Origin origin) throws InterruptedException {
        Thread.sleep(300);
        origin.resetCounts(5000);
    }

    @Test
    void localPeerFlagSetsHaproxyLocalpeer() throws Exception {
        Path cfg = FulcrumProcess.config("""
                global
                    maxconn 100
                .if streq("$HAPROXY_LOCALPEER",peer-one)
                .notice "local peer is $HAPROXY_LOCALPEER"
                .else
                .alert "local peer is not peer-one but $HAPROXY_LOCALPEER"
                .endif
                frontend fe
                    mode tcp
                    bind 127.0.0.1:18080
                """);
        Path dir = cfg.getParent();
        FulcrumRun with = FulcrumRun.in(dir, "-L", "peer-one", "-c", "-f", "test.cfg");
        assertThat(with.exit()).as(with.describe()).isZero();
        Expected.of("[NOTICE]   (PID) : config : parsing [test.cfg:4]: 'local peer is peer-one'.").assertIn(with.maskedStderr(), with.describe());

        FulcrumRun without = FulcrumRun.in(dir, "-c", "-f", "test.cfg");
        assertThat(without.exit()).as(without.describe()).isEqualTo(1);
        Expected.of("[ALERT]    (PID) : config : parsing [test.cfg:6]: 'local peer is not peer-one but <*>'.")
                .assertIn(without.maskedStderr(), without.describe());

        FulcrumRun cc = FulcrumRun.in(dir, "-L", "peer-one", "-cc", "streq(\"$HAPROXY_LOCALPEER\",peer-one)");
        assertThat(cc.exit()).as(cc.describe()).isZero();
    }

    /** A configuration with nothing to accept on is valid but would not start: exit 2, as haproxy's -c. */
    @Test
    void checkWithoutAListenerExitsTwo() throws Exception {
        Path cfg = FulcrumProcess.config("""
                global
                    maxconn 100
                defaults
                    mode tcp
                frontend off
                    bind 127.0.0.1:18080
                    disabled
                """);
        FulcrumRun plain = FulcrumRun.in(cfg.getParent(), "-c", "-f", "test.cfg");
        assertThat(plain.exit()).as(plain.describe()).isEqualTo(2);
        assertThat(plain.stdout()).isEqualTo("Configuration file has no error but will not start (no listener) => exit(2).\n");
        FulcrumRun quiet = FulcrumRun.in(cfg.getParent(), "-q", "-c", "-f", "test.cfg");
        assertThat(quiet.exit()).as(quiet.describe()).isEqualTo(2);
        assertThat(quiet.stdout()).isEmpty();

        Path withSocket = FulcrumProcess.config("""
                global
                    stats socket %s
                """.formatted(cfg.getParent().resolve("s.sock")));
        FulcrumRun stats = FulcrumRun.in(withSocket.getParent(), "-c", "-f", "test.cfg");
        assertThat(stats.exit()).as("a stats socket is a listener: " + stats.describe()).isZero();
    }

    @Test
    void verboseFlagUndoesQuiet() throws Exception {
        FulcrumRun r = FulcrumRun.inCorpus("-q", "-V", "-c", "-f", "valid/minimal-tcp.cfg");
        assertThat(r.exit()).as(r.describe()).isZero();
        assertThat(r.stdout()).contains("Configuration file is valid");
    }

    @Test
    void diagnosticFlagShowsDiagMessages() throws Exception {
        Path cfg = FulcrumProcess.config("""
                global
                    maxconn 100
                .diag "a diagnostic message"
                frontend fe
                    mode tcp
                    bind 127.0.0.1:18080
                """);
        FulcrumRun plain = FulcrumRun.in(cfg.getParent(), "-c", "-f", "test.cfg");
        assertThat(plain.exit()).as(plain.describe()).isZero();
        assertThat(plain.stderr()).as(plain.describe()).doesNotContain("a diagnostic message");

        FulcrumRun diag = FulcrumRun.in(cfg.getParent(), "-dD", "-c", "-f", "test.cfg");
        assertThat(diag.exit()).as(diag.describe()).isZero();
        Expected.of("[DIAG]     (PID) : config : parsing [test.cfg:3]: 'a diagnostic message'.").assertIn(diag.maskedStderr(), diag.describe());
    }

    /** Client-side helpers shared by the CLI tests. */
    static final class Net {
        private Net() {
        }

        static Socket connect(int port) throws Exception {
            Socket s = new Socket();
            s.setTcpNoDelay(true);
            s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            s.setSoTimeout(10_000);
            return s;
        }

        /** Sends {@code text} and expects it back (the origins echo). */
        static void assertEcho(Socket s, String text) throws Exception {
            s.getOutputStream().write(text.getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            assertThat(read(s, text.length(), Duration.ofSeconds(10))).isEqualTo(text);
        }

        /** Reads exactly {@code n} bytes (fails on EOF or after {@code timeout}). */
        static String read(Socket s, int n, Duration timeout) throws Exception {
            s.setSoTimeout((int) timeout.toMillis());
            InputStream in = s.getInputStream();
            byte[] b = new byte[n];
            int got = 0;
            while (got < n) {
                int r = in.read(b, got, n - got);
                if (r < 0) {
                    throw new AssertionError("connection closed after " + got + " of " + n + " bytes");
                }
                got += r;
            }
            return new String(b, StandardCharsets.US_ASCII);
        }

        /** Nothing arrives (and the connection is not closed) for {@code d}. */
        static void assertSilent(Socket s, Duration d) throws Exception {
            s.setSoTimeout((int) d.toMillis());
            try {
                int r = s.getInputStream().read();
                throw new AssertionError(r < 0 ? "connection closed instead of waiting" : "got data while none was expected");
            } catch (SocketTimeoutException expected) {
                // silent, as it should be
            }
        }

        /** True when a connection to {@code port} is refused. */
        static boolean refused(int port) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
                return false;
            } catch (java.net.ConnectException e) {
                return true;
            } catch (Exception e) {
                return false;
            }
        }

        static void write(Socket s, String text) throws Exception {
            OutputStream out = s.getOutputStream();
            out.write(text.getBytes(StandardCharsets.US_ASCII));
            out.flush();
        }
    }
}
