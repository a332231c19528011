package io.fulcrum.rules;

import io.fulcrum.http.LoadedConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Configuration errors of set-src/set-dst(-port), set-mark, set-tos, set-nice, set-log-level, set-timeout, expect-proxy
 * and expect-netscaler-cip: each
 * message is the one HAProxy 2.6.12 printed for the same line alone, except that the list of tcp-request actions names
 * Fulcrum's.
 */
class ConnectionActionsConfigTest {
    @TempDir
    Path dir;

    @Test
    void errors() {
        assertThat(LoadedConfig.load(dir, LoadedConfig.HTTP_DEFAULTS + """
                frontend f
                    bind :18001
                    tcp-request connection set-src
                    tcp-request connection set-mark x
                    tcp-request content set-src foo
                    tcp-request content set-tos 0x
                    tcp-request content set-nice
                    tcp-request content set-log-level foo
                    tcp-request connection set-log-level err
                    http-request set-src
                    http-request set-src-port
                    http-request set-src foo
                    http-request set-dst src x
                    http-request set-mark
                    http-request set-mark 10x
                    http-request set-tos x
                    http-request set-nice
                    http-request set-log-level
                    http-request set-log-level foo
                    http-request set-timeout server 1s
                    http-request set-timeout server
                backend b
                    http-request set-timeout client 3s
                    http-request set-timeout server x
                    http-request set-timeout server 3x
                    http-request set-timeout server 0
                """).messages()).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:8] : missing fetch method
                [ALERT]    (1) : config : parsing [t.cfg:9] : invalid character starting at 'x' (integer/hex value expected)
                [ALERT]    (1) : config : parsing [t.cfg:10] : unknown fetch method 'foo'
                [ALERT]    (1) : config : parsing [t.cfg:11] : invalid character starting at 'x' (integer/hex value expected)
                [ALERT]    (1) : config : parsing [t.cfg:12] : expects exactly 1 argument (integer value)
                [ALERT]    (1) : config : parsing [t.cfg:13] : expects exactly 1 argument (log level name or 'silent')
                [ALERT]    (1) : config : parsing [t.cfg:14] : 'tcp-request connection' expects 'accept', 'reject', 'capture', 'expect-proxy', 'expect-netscaler-cip', 'set-var-fmt(*)', 'set-var(*)', 'unset-var(*)', 'set-src', 'set-src-port', 'set-dst', 'set-dst-port', 'set-mark', 'set-tos' in frontend 'f' (got 'set-log-level').
                [ALERT]    (1) : config : parsing [t.cfg:15] : error detected in frontend 'f' while parsing 'http-request set-src' rule : missing fetch method.
                [ALERT]    (1) : config : parsing [t.cfg:16] : error detected in frontend 'f' while parsing 'http-request set-src-port' rule : missing fetch method.
                [ALERT]    (1) : config : parsing [t.cfg:17] : error detected in frontend 'f' while parsing 'http-request set-src' rule : unknown fetch method 'foo'.
                [ALERT]    (1) : config : parsing [t.cfg:18]: 'http-request set-dst' expects either 'if' or 'unless' followed by a condition but found 'x'.
                [ALERT]    (1) : config : parsing [t.cfg:19] : error detected in frontend 'f' while parsing 'http-request set-mark' rule : expects exactly 1 argument (integer/hex value).
                [ALERT]    (1) : config : parsing [t.cfg:20] : error detected in frontend 'f' while parsing 'http-request set-mark' rule : invalid character starting at 'x' (integer/hex value expected).
                [ALERT]    (1) : config : parsing [t.cfg:21] : error detected in frontend 'f' while parsing 'http-request set-tos' rule : invalid character starting at 'x' (integer/hex value expected).
                [ALERT]    (1) : config : parsing [t.cfg:22] : error detected in frontend 'f' while parsing 'http-request set-nice' rule : expects exactly 1 argument (integer value).
                [ALERT]    (1) : config : parsing [t.cfg:23] : error detected in frontend 'f' while parsing 'http-request set-log-level' rule : expects exactly 1 argument (log level name or 'silent').
                [ALERT]    (1) : config : parsing [t.cfg:24] : error detected in frontend 'f' while parsing 'http-request set-log-level' rule : expects exactly 1 argument (log level name or 'silent').
                [ALERT]    (1) : config : parsing [t.cfg:25] : error detected in frontend 'f' while parsing 'http-request set-timeout' rule : proxy 'f' has no backend capability.
                [ALERT]    (1) : config : parsing [t.cfg:26] : error detected in frontend 'f' while parsing 'http-request set-timeout' rule : expects exactly 2 arguments.
                [ALERT]    (1) : config : parsing [t.cfg:28] : error detected in backend 'b' while parsing 'http-request set-timeout' rule : 'set-timeout' rule supports 'server'/'tunnel' (got 'client').
                [ALERT]    (1) : config : parsing [t.cfg:29] : error detected in backend 'b' while parsing 'http-request set-timeout' rule : unexpected character 'x' in rule 'set-timeout server'.
                [ALERT]    (1) : config : parsing [t.cfg:30] : error detected in backend 'b' while parsing 'http-request set-timeout' rule : unexpected character 'x' in rule 'set-timeout server'.
                [ALERT]    (1) : config : parsing [t.cfg:31] : error detected in backend 'b' while parsing 'http-request set-timeout' rule : null value is not valid for a 'set-timeout server' rule.
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }

    @Test
    void expectHeaders() {
        assertThat(LoadedConfig.load(dir, LoadedConfig.HTTP_DEFAULTS + """
                frontend f
                    bind :18001
                    tcp-request connection expect-proxy layer4 if TRUE
                    tcp-request connection expect-netscaler-cip layer4
                    tcp-request connection expect-proxy
                    tcp-request connection expect-netscaler-cip layer5
                    tcp-request connection expect-proxy layer4 foo
                    tcp-request session expect-proxy foo
                    tcp-request session expect-netscaler-cip layer4
                    tcp-request content expect-proxy layer4
                """).messages()).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:10] : 'tcp-request connection expect-proxy' only supports 'layer4' in frontend 'f' (got '')
                [ALERT]    (1) : config : parsing [t.cfg:11] : 'tcp-request connection expect-netscaler-cip' only supports 'layer4' in frontend 'f' (got 'layer5')
                [ALERT]    (1) : config : parsing [t.cfg:12] : 'tcp-request connection expect-proxy' only accepts 'if' or 'unless', in frontend 'f' (got 'foo')
                [ALERT]    (1) : config : parsing [t.cfg:13] : 'tcp-request session expect-proxy' only supports 'layer4' in frontend 'f' (got 'foo')
                [ALERT]    (1) : config : parsing [t.cfg:14] : 'expect-netscaler-cip layer4' is not allowed in 'tcp-request session' rules in frontend 'f'
                [ALERT]    (1) : config : parsing [t.cfg:15] : 'expect-proxy layer4' is not allowed in 'tcp-request content' rules in frontend 'f'
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }

    @Test
    void strtoul() throws Exception {
        assertThat(ConnectionActions.unsigned("0x2A")).isEqualTo(42);
        assertThat(ConnectionActions.unsigned("010")).isEqualTo(8);
        assertThat(ConnectionActions.unsigned("0")).isZero();
        assertThat(ConnectionActions.unsigned("-1")).isEqualTo(-1);
    }
}
