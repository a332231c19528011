package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code show env} lists the environment as the process received it, in that order (not sorted, and without what
 * the launcher script's shell would add), then what the configuration and HAProxy define, in the order they are
 * defined. The proxy is started with {@code env -i} and a few variables, as a user would. Passes with
 * -Dit.proxy=haproxy.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ShowEnvIT {

    @Test
    void theEnvironmentInTheOrderTheProcessGotItThenWhatItDefined() throws Exception {
        Path dir = Files.createTempDirectory("fulcrum-env");
        Path cli = dir.resolve("admin.sock");
        int fe = freePort();
        String config = """
                global
                    stats socket %s level admin
                    setenv NEW_ONE "v${HAPROXY_STARTUP_VERSION}"
                    setenv A_SECOND 3
                    presetenv Z_FIRST 9
                    unsetenv GONE
                defaults
                    mode http
                    timeout client 10s
                frontend fe
                    bind 127.0.0.1:%d
                    http-request return status 200
                """.formatted(cli, fe);
        Path file = FulcrumProcess.config(config);
        String opts = "FULCRUM_JAVA_OPTS=" + System.getProperty("fulcrum.test.jvm.args", "-Dio.netty.leakDetection.level=paranoid");
        // not sorted: Z before A; the value of a variable set again stays in its place
        List<String> prefix = new ArrayList<>(List.of("env", "-i", "Z_FIRST=1", "GONE=x", "A_SECOND=2", "PATH=/usr/bin:/bin", opts));
        prefix.add(TcpProxyKit.haproxy() ? System.getProperty("it.haproxy", "/usr/sbin/haproxy")
                : FulcrumProcess.home().resolve("bin/fulcrum").toString());
        try (FulcrumProcess proxy = FulcrumProcess.start(prefix, List.of("-db", "-f", file.toString()))) {
            TcpProxyKit.awaitListening(proxy, "127.0.0.1", fe, Duration.ofSeconds(60));
            String env = CliClient.send(cli, "show env");
            String version = CliClient.send(cli, "show env HAPROXY_STARTUP_VERSION");
            assertThat(version).matches("HAPROXY_STARTUP_VERSION=\\S+\n\n");
            String v = version.substring(version.indexOf('=') + 1).trim();
            String peer = CliClient.send(cli, "show env HAPROXY_LOCALPEER");
            assertThat(env).isEqualTo("Z_FIRST=1\nA_SECOND=3\nPATH=/usr/bin:/bin\n" + opts + "\n"
                    + "HAPROXY_STARTUP_VERSION=" + v + "\n"
                    + peer.trim() + "\n"
                    + "NEW_ONE=v" + v + "\n"
                    + "HAPROXY_CFGFILES=" + file + "\n"
                    + "HAPROXY_CLI=unix@" + cli + "\n\n");
            assertThat(peer).startsWith("HAPROXY_LOCALPEER=");
            assertThat(CliClient.send(cli, "show env A_SECOND")).isEqualTo("A_SECOND=3\n\n");
            // a name is matched whole, never as a prefix; an unset one is gone
            for (String missing : List.of("A_SEC", "GONE", "PWD", "SHLVL", "_")) {
                assertThat(CliClient.send(cli, "show env " + missing)).as(missing).isEqualTo("Variable not found\n\n");
            }
        }
    }
}
