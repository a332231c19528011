package io.fulcrum.acl;

import io.fulcrum.http.LoadedConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** Configuration errors of set-map, del-map, add-acl and del-acl: each message is the one HAProxy 2.6.12 printed for the same line. */
class PatternActionsConfigTest {
    @TempDir
    Path dir;

    @Test
    void errors() {
        assertThat(LoadedConfig.load(dir, LoadedConfig.HTTP_DEFAULTS + """
                frontend f
                    bind :18001
                    http-request set-map(nosuch.map) %[src] x
                    http-request set-map(e.map) %[src]
                    http-request add-acl(e.map)
                    http-request del-map(e.map) a b
                    http-response del-acl(e.map) a
                    http-request set-map(e.map) a %[foo]
                """).messages()).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:9] : error detected in frontend 'f' while parsing 'http-request set-map(e.map)' rule : expects exactly 2 arguments.
                [ALERT]    (1) : config : parsing [t.cfg:10] : error detected in frontend 'f' while parsing 'http-request add-acl(e.map)' rule : expects exactly 1 arguments.
                [ALERT]    (1) : config : parsing [t.cfg:11]: 'http-request del-map(e.map)' expects either 'if' or 'unless' followed by a condition but found 'b'.
                [ALERT]    (1) : config : parsing [t.cfg:13] : error detected in frontend 'f' while parsing 'http-request set-map(e.map)' rule : failed to parse sample expression <foo]> : unknown fetch method 'foo'.
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }
}
