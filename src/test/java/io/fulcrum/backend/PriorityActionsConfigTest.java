package io.fulcrum.backend;

import io.fulcrum.http.LoadedConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Configuration errors of set-priority-class and set-priority-offset: the HTTP messages are HAProxy 2.6.12's; in
 * tcp-request connection and session rules, where HAProxy lists the actions it knows, Fulcrum says where they belong.
 */
class PriorityActionsConfigTest {
    @TempDir
    Path dir;

    @Test
    void errors() {
        assertThat(LoadedConfig.load(dir, LoadedConfig.HTTP_DEFAULTS + """
                frontend f
                    bind :18001
                    http-request set-priority-class
                    http-request set-priority-offset foo
                    http-request set-priority-class int(1) x
                    tcp-request content set-priority-class int(1)
                    tcp-request connection set-priority-class int(1)
                """).messages()).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:8] : error detected in frontend 'f' while parsing 'http-request set-priority-class' rule : missing fetch method.
                [ALERT]    (1) : config : parsing [t.cfg:9] : error detected in frontend 'f' while parsing 'http-request set-priority-offset' rule : unknown fetch method 'foo'.
                [ALERT]    (1) : config : parsing [t.cfg:10]: 'http-request set-priority-class' expects either 'if' or 'unless' followed by a condition but found 'x'.
                [ALERT]    (1) : config : parsing [t.cfg:12] : 'set-priority-class' is only allowed in 'tcp-request content' rules
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }
}
