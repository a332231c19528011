package io.fulcrum.check;

import io.fulcrum.http.LoadedConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Server check options as HAProxy 2.6.12 reads them ({@code haproxy -c} on the same lines printed the same alerts,
 * but for the wording of an unknown server keyword, Fulcrum's for every one).
 */
class CheckConfigTest {
    private static String check(Path dir, String text) {
        return LoadedConfig.load(dir, LoadedConfig.HTTP_DEFAULTS + text).messages();
    }

    /** {@code init-state} (HAProxy 3.1; 2.6 does not know it) is read with its four values; another is refused. */
    @Test
    void initStateValues(@TempDir Path dir) {
        assertThat(check(dir, """
                backend b
                    server s1 127.0.0.1:80 check init-state fully-up
                    server s2 127.0.0.1:80 check init-state up
                    server s3 127.0.0.1:80 check init-state down
                    server s4 127.0.0.1:80 check init-state fully-down
                """)).isBlank();
        assertThat(check(dir, """
                backend b
                    server s1 127.0.0.1:80 check init-state sideways
                """)).contains("'init-state' expects one of 'fully-up', 'up', 'down' or 'fully-down' but got 'sideways'.");
    }

    /** {@code port} is the agent's port too unless {@code agent-port} is given; an agent without a port is an alert. */
    @Test
    void theAgentTakesThePortOfTheChecks(@TempDir Path dir) {
        assertThat(check(dir, """
                backend b
                    server s1 127.0.0.1:80 agent-check port 9
                    server s2 127.0.0.1:80 agent-check agent-port 8 port 9
                """)).isBlank();
        assertThat(check(dir, """
                backend b
                    server s1 127.0.0.1:80 agent-check
                """)).contains("[ALERT]    (1) : config : [t.cfg:7] : 'server b/s1' : server s1 does not have agent port. Agent check has been disabled.\n")
                .contains("Fatal errors found in configuration.");
    }
}
