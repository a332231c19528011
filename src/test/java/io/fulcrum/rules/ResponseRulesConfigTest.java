package io.fulcrum.rules;

import io.fulcrum.http.LoadedConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * http-response wait-for-body and the http-after-response actions (configuration.txt 4.4): each message is the one
 * HAProxy 2.6.12 printed for the same line alone, but for the "ot-group" action (OpenTracing) Fulcrum has no build of.
 */
class ResponseRulesConfigTest {
    @TempDir
    Path dir;

    private static final String HEAD = """
            defaults
                mode http
                timeout client 1s
                timeout server 1s
                timeout connect 1s
            frontend f
                bind :18001
            """;

    @Test
    void everyDocumentedAfterResponseActionIsAccepted() {
        assertThat(LoadedConfig.load(dir, HEAD + """
                    http-after-response set-status 200 reason x
                    http-after-response strict-mode off
                    http-after-response set-var(txn.a) status
                    http-after-response set-var-fmt(txn.b) "%[status]"
                    http-after-response unset-var(txn.a)
                    http-after-response add-header a b
                    http-after-response set-header a b
                    http-after-response del-header a -m beg
                    http-after-response replace-header a b c
                    http-after-response replace-value a b c
                    http-after-response allow if { status 200 }
                    http-response wait-for-body time 1s at-least 10k
                """).messages()).isBlank();
    }

    @Test
    void errors() {
        assertThat(LoadedConfig.load(dir, HEAD + """
                    http-after-response foo
                    http-after-response wait-for-body time 1s
                    http-response wait-for-body
                    http-response wait-for-body time
                    http-response wait-for-body time 1x
                    http-response wait-for-body time 1s at-least 1q
                    http-response wait-for-body time 1s foo
                """).messages()).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:8]: 'http-after-response' expects 'add-header', 'allow', 'capture', 'del-header', 'replace-header', 'replace-value', 'set-header', 'set-status', 'set-var(*)', 'set-var-fmt(*)', 'strict-mode', 'unset-var(*)', but got 'foo'.
                [ALERT]    (1) : config : parsing [t.cfg:9]: 'http-after-response' expects 'add-header', 'allow', 'capture', 'del-header', 'replace-header', 'replace-value', 'set-header', 'set-status', 'set-var(*)', 'set-var-fmt(*)', 'strict-mode', 'unset-var(*)', but got 'wait-for-body'.
                [ALERT]    (1) : config : parsing [t.cfg:10] : error detected in frontend 'f' while parsing 'http-response wait-for-body' rule : expects time <time> [ at-least <bytes> ].
                [ALERT]    (1) : config : parsing [t.cfg:11] : error detected in frontend 'f' while parsing 'http-response wait-for-body' rule : missing argument for 'time'.
                [ALERT]    (1) : config : parsing [t.cfg:12] : error detected in frontend 'f' while parsing 'http-response wait-for-body' rule : unexpected character 'x'.
                [ALERT]    (1) : config : parsing [t.cfg:13] : error detected in frontend 'f' while parsing 'http-response wait-for-body' rule : unexpected character 'q'.
                [ALERT]    (1) : config : parsing [t.cfg:14]: 'http-response wait-for-body' expects either 'if' or 'unless' followed by a condition but found 'foo'.
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }
}
