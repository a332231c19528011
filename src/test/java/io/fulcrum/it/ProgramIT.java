package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.fulcrum.it.CliSignalsIT.await;
import static io.fulcrum.it.TcpProxyKit.awaitListening;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code program} sections (configuration.txt 3.7) run by the master of master-worker mode, with a shell script as
 * the program: started with their arguments and the configuration's environment, listed by the master CLI's
 * {@code show proc}, sent SIGUSR1 and listed as "old programs" on a reload (started anew unless
 * {@code no option start-on-reload}), run as their {@code user} and {@code group}, stopped with the master. Passes
 * against haproxy too ({@code -Dit.proxy=haproxy}).
 */
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ProgramIT {

    /** Records its start, its identity and the signals it gets in {@code <dir>/<name>.log}; leaves on SIGTERM only. */
    private static final String PROGRAM = """
            #!/bin/sh
            log=%s/$1.log
            echo "$$ start $* MWORKER=$HAPROXY_MWORKER FOO=$FOO id=$(/usr/bin/id -u):$(/usr/bin/id -g)" >> $log
            trap 'echo "$$ USR1" >> $log' USR1
            trap 'echo "$$ TERM" >> $log; exit 0' TERM
            while true; do /bin/sleep 0.1; done
            """;

    private static Path program(Path dir) throws Exception {
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx")); // for the program run as nobody
        Path p = dir.resolve("program.sh");
        Files.writeString(p, PROGRAM.formatted(dir));
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        return p;
    }

    /** The lines a program's instances wrote, once {@code count} of them are there. */
    private static List<String> log(Path dir, String name, int count) throws Exception {
        Path f = dir.resolve(name + ".log");
        await(count + " lines in " + f, Duration.ofSeconds(60), () -> lines(f).size() >= count);
        return lines(f);
    }

    private static List<String> lines(Path f) {
        try {
            return Files.exists(f) ? Files.readAllLines(f) : List.of();
        } catch (java.io.IOException e) {
            return List.of();
        }
    }

    /** The PID of the n-th line of a log that reads "PID start ...". */
    private static long pid(String line) {
        return Long.parseLong(line.substring(0, line.indexOf(' ')));
    }

    /** The rows of {@code show proc} under {@code section} ("# programs"): PID, name, reloads, version. */
    private static List<String> rows(Path cli, String section) throws Exception {
        List<String> rows = new ArrayList<>();
        boolean in = false;
        for (String line : CliClient.send(cli, "show proc").split("\n")) {
            if (line.startsWith("#")) {
                in = line.equals(section);
            } else if (in && !line.isBlank()) {
                Matcher m = Pattern.compile("(\\d+) +(\\S+) +(\\d+) +\\dd\\d\\dh\\d\\dm\\d\\ds +(\\S+) *").matcher(line);
                assertThat(m.matches()).as(line).isTrue();
                rows.add(m.group(1) + " " + m.group(2) + " " + m.group(3) + " " + m.group(4));
            }
        }
        return rows;
    }

    @Test
    void programsRunBesideTheWorkersFollowTheReloadsAndStopWithTheMaster() throws Exception {
        Path dir = Files.createTempDirectory("fulcrum-program");
        Path program = program(dir);
        Path cli = dir.resolve("master.sock");
        int fe = freePort();
        boolean root = System.getProperty("user.name").equals("root");
        String cfg = """
                global
                    setenv FOO bar
                defaults
                    mode tcp
                    timeout connect 5s
                    timeout client 5s
                    timeout server 5s
                frontend fe
                    bind 127.0.0.1:%d
                program p1
                    command %s p1 "a b"
                program p2
                    command %s p2
                    no option start-on-reload
                %s
                """.formatted(fe, program, program, root ? "    user nobody\n    group nogroup" : "");
        try (FulcrumProcess m = TcpProxyKit.start(cfg, "-W", "-S", cli.toString())) {
            awaitListening(m, "127.0.0.1", fe, Duration.ofSeconds(60));
            String p1 = log(dir, "p1", 1).get(0);
            String p2 = log(dir, "p2", 1).get(0);
            assertThat(p1).matches("\\d+ start p1 a b MWORKER=1 FOO=bar id=.*");
            if (root) {
                assertThat(p1).endsWith(" id=0:0");
                assertThat(p2).endsWith(" start p2 MWORKER=1 FOO=bar id=65534:65534");
            }
            long first1 = pid(p1);
            long first2 = pid(p2);
            assertThat(m.stderr()).contains("New program 'p1' (" + first1 + ") forked", "New program 'p2' (" + first2 + ") forked");
            await("show proc's programs", Duration.ofSeconds(30), () -> !rowsOrEmpty(cli, "# workers").isEmpty());
            assertThat(rows(cli, "# programs")).containsExactlyInAnyOrder(first1 + " p1 0 -", first2 + " p2 0 -");
            assertThat(rows(cli, "# old programs")).isEmpty();

            // A reload: every instance gets SIGUSR1 and is old; p1 starts anew, p2 does not.
            m.signal("USR2");
            List<String> log1 = log(dir, "p1", 3);
            assertThat(log1).contains(first1 + " USR1");
            long second1 = log1.stream().filter(l -> l.contains(" start ")).map(ProgramIT::pid).filter(p -> p != first1).findFirst().orElseThrow();
            assertThat(log(dir, "p2", 2)).containsExactly(p2, first2 + " USR1");
            // Asked once the reload is done: HAProxy's master drops a CLI connection made while it re-executes.
            await("the new worker serving", Duration.ofSeconds(60), () -> m.stderr().split("Loading success\\.", -1).length - 1 >= 2);
            assertThat(rows(cli, "# programs")).containsExactly(second1 + " p1 0 -");
            assertThat(rows(cli, "# old programs")).containsExactlyInAnyOrder(first1 + " p1 1 -", first2 + " p2 1 -");

            // The master's stop reaches every program; it leaves once they are gone.
            m.signal("TERM");
            assertThat(m.awaitExit(Duration.ofSeconds(60))).isZero();
            assertThat(lines(dir.resolve("p1.log"))).contains(first1 + " TERM", second1 + " TERM");
            assertThat(lines(dir.resolve("p2.log"))).contains(first2 + " TERM");
            assertThat(m.stderr()).contains("Current program 'p1' (" + second1 + ") exited with code 0 (Exit)",
                    "Former program 'p1' (" + first1 + ") exited with code 0 (Exit)",
                    "Former program 'p2' (" + first2 + ") exited with code 0 (Exit)");
            for (long pid : List.of(first1, first2, second1)) {
                assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).as("program " + pid + " alive").isFalse();
            }
        }
    }

    private static List<String> rowsOrEmpty(Path cli, String section) {
        try {
            return rows(cli, section);
        } catch (Exception | AssertionError e) {
            return List.of();
        }
    }
}
