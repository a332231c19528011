package io.fulcrum.cfg;

import io.fulcrum.http.LoadedConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * HAProxy 2.6 reads a line no further than its first empty argument: a keyword needing a word there lacks it, the
 * words after it are lost. Alerts from haproxy 2.6.12; the warnings naming the lost words are Fulcrum's.
 */
class EmptyArgumentTest {
    @TempDir
    Path dir;

    @Test
    void anEmptyArgumentEndsTheLine() {
        LoadedConfig c = LoadedConfig.load(dir, LoadedConfig.HTTP_DEFAULTS + """
                frontend f
                    bind 127.0.0.1:18080 "" ssl crt /nonexistent
                    http-request deny '' if { path /x }
                    http-request set-header X-A ""
                    option forwardfor header ""
                    acl empty path -m str "" /x
                    default_backend b
                backend b
                    server s 127.0.0.1:18081
                """);
        assertThat(c.messages()).isEqualTo("""
                [WARNING]  (1) : config : parsing [t.cfg:7] : 'ssl crt /nonexistent' ignored: HAProxy reads a line no further than its first empty argument (argument 2).
                [WARNING]  (1) : config : parsing [t.cfg:8] : 'if { path /x }' ignored: HAProxy reads a line no further than its first empty argument (argument 2).
                [WARNING]  (1) : config : parsing [t.cfg:9]: previous 'http-request' action is final and has no condition attached, further entries are NOOP.
                [ALERT]    (1) : config : parsing [t.cfg:9] : error detected in frontend 'f' while parsing 'http-request set-header' rule : expects exactly 2 arguments.
                [ALERT]    (1) : config : parsing [t.cfg:10] : 'option forwardfor header' expects <header_name> as argument.
                [WARNING]  (1) : config : parsing [t.cfg:11] : '/x' ignored: HAProxy reads a line no further than its first empty argument (argument 5).
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }

    @Test
    void aTrailingEmptyArgumentIsDroppedSilently() {
        assertThat(LoadedConfig.load(dir, LoadedConfig.HTTP_DEFAULTS + """
                frontend f
                    bind 127.0.0.1:18080 ''
                    default_backend b ""
                backend b
                    server s 127.0.0.1:18081 check ""
                """).messages()).isBlank();
    }
}
