package io.fulcrum.rules;

import io.fulcrum.http.LoadedConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** Configuration errors of wait-for-body: each message is the one HAProxy 2.6.12 printed for the same line alone. */
class WaitForBodyConfigTest {
    @TempDir
    Path dir;

    @Test
    void errors() {
        assertThat(LoadedConfig.load(dir, """
                defaults
                    mode http
                    timeout client 1s
                    timeout server 1s
                    timeout connect 1s
                frontend f
                    bind :18001
                    http-request wait-for-body
                    http-request wait-for-body time
                    http-request wait-for-body time x
                    http-request wait-for-body time 1s at-least
                    http-request wait-for-body time 1s at-least x
                    http-request wait-for-body time 1s foo
                    http-request wait-for-body at-least 10
                    http-request wait-for-body time 0
                    http-request wait-for-body time 1s at-least 1k at-least 2
                """).messages()).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:8] : error detected in frontend 'f' while parsing 'http-request wait-for-body' rule : expects time <time> [ at-least <bytes> ].
                [ALERT]    (1) : config : parsing [t.cfg:9] : error detected in frontend 'f' while parsing 'http-request wait-for-body' rule : missing argument for 'time'.
                [ALERT]    (1) : config : parsing [t.cfg:10] : error detected in frontend 'f' while parsing 'http-request wait-for-body' rule : unexpected character 'x'.
                [ALERT]    (1) : config : parsing [t.cfg:11] : error detected in frontend 'f' while parsing 'http-request wait-for-body' rule : missing argument for 'at-least'.
                [ALERT]    (1) : config : parsing [t.cfg:12] : error detected in frontend 'f' while parsing 'http-request wait-for-body' rule : unexpected character 'x'.
                [ALERT]    (1) : config : parsing [t.cfg:13]: 'http-request wait-for-body' expects either 'if' or 'unless' followed by a condition but found 'foo'.
                [ALERT]    (1) : config : parsing [t.cfg:14] : error detected in frontend 'f' while parsing 'http-request wait-for-body' rule : expects time <time> [ at-least <bytes> ].
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }
}
