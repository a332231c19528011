package io.fulcrum.rules;

import io.fulcrum.http.LoadedConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Configuration errors of tcp-response rules: each message is the one HAProxy 2.6.12 printed for the same line alone,
 * except for the actions Fulcrum does not support yet and the "Did you mean" HAProxy adds to an unknown action. (Fulcrum
 * cuts the middle of an overlong message, as every message it prints.)
 */
class TcpResponseConfigTest {
    @TempDir
    Path dir;

    private static final String HEAD = """
            defaults
                mode tcp
                timeout client 1s
                timeout server 1s
                timeout connect 1s
            """;

    @Test
    void errors() {
        assertThat(LoadedConfig.load(dir, HEAD + """
                frontend f
                    bind :18001
                    tcp-response content accept
                    tcp-response inspect-delay 1s
                    tcp-request inspect-delay 1x
                    tcp-request content set-var(txn.x) res.len
                backend b
                    tcp-response inspect-delay
                    tcp-response inspect-delay 1x
                    tcp-response foo
                    tcp-response
                    tcp-response content
                    tcp-response content capture req.len len 3
                    tcp-response content accept foo
                    tcp-response content set-var(txn.x) req.len
                    tcp-response content set-mark
                    tcp-response content close if FOO
                    tcp-response content set-src src
                    tcp-response content sc-inc-gpc0(5)
                    tcp-response content send-spoe-group e g
                """).messages()).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:8] : tcp-response content is only allowed in 'backend' sections or 'defaults' section with a name
                [ALERT]    (1) : config : parsing [t.cfg:9] : tcp-response inspect-delay is only allowed in 'backend' sections or 'defaults' section with a name
                [ALERT]    (1) : config : parsing [t.cfg:10] : 'tcp-request inspect-delay' expects a positive delay in milliseconds, in frontend 'f' (unexpected character 'x')
                [ALERT]    (1) : config : parsing [t.cfg:11] : fetch method 'set-var(txn.x)' extracts information from 'response buffer', none of which is available here
                [ALERT]    (1) : config : parsing [t.cfg:13] : 'tcp-response inspect-delay' expects a positive delay in milliseconds, in backend 'b'
                [ALERT]    (1) : config : parsing [t.cfg:14] : 'tcp-response inspect-delay' expects a positive delay in milliseconds, in backend 'b' (unexpected character 'x')
                [ALERT]    (1) : config : parsing [t.cfg:15] : 'tcp-response' expects 'inspect-delay' or 'content' in backend 'b' (got 'foo')
                [ALERT]    (1) : config : parsing [t.cfg:16] : missing argument for 'tcp-response' in backend 'b'
                [ALERT]    (1) : config : parsing [t.cfg:17] : 'tcp-response content' expects 'accept', 'close', 'reject', 'ot-group', 'set-log-level', 'set-nice', 'sc-inc-gpc(*)', 'sc-inc-gpc0(*)', 'sc-inc-gpc1(*)', 'sc-set-gpt(*)', 'sc-set-gpt0(*)', 'send-spoe-group', 'set-var-fmt(*)',...nset-var(*)', 'set-mark', 'set-tos', 'silent-drop' in backend 'b' (got '').
                [ALERT]    (1) : config : parsing [t.cfg:18] : 'tcp-response content' expects 'accept', 'close', 'reject', 'ot-group', 'set-log-level', 'set-nice', 'sc-inc-gpc(*)', 'sc-inc-gpc0(*)', 'sc-inc-gpc1(*)', 'sc-set-gpt(*)', 'sc-set-gpt0(*)', 'send-spoe-group', 'set-var-fmt(*)',...r(*)', 'set-mark', 'set-tos', 'silent-drop' in backend 'b' (got 'capture').
                [ALERT]    (1) : config : parsing [t.cfg:19] : 'tcp-response content accept' only accepts 'if' or 'unless', in backend 'b' (got 'foo')
                [ALERT]    (1) : config : parsing [t.cfg:20] : fetch method 'set-var(txn.x)' extracts information from 'request buffer', none of which is available here
                [ALERT]    (1) : config : parsing [t.cfg:21] : expects exactly 1 argument (integer/hex value)
                [ALERT]    (1) : config : parsing [t.cfg:22] : 'tcp-response content close' : error detected in backend 'b' while parsing 'if' condition : no such ACL : 'FOO'
                [ALERT]    (1) : config : parsing [t.cfg:23] : 'tcp-response content' expects 'accept', 'close', 'reject', 'ot-group', 'set-log-level', 'set-nice', 'sc-inc-gpc(*)', 'sc-inc-gpc0(*)', 'sc-inc-gpc1(*)', 'sc-set-gpt(*)', 'sc-set-gpt0(*)', 'send-spoe-group', 'set-var-fmt(*)',...r(*)', 'set-mark', 'set-tos', 'silent-drop' in backend 'b' (got 'set-src').
                [ALERT]    (1) : config : parsing [t.cfg:24] : invalid stick table track ID. The max allowed ID is 2
                [ALERT]    (1) : config : parsing [t.cfg:25] : 'tcp-response content send-spoe-group' is an HAProxy action that Fulcrum does not support yet.
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }

    /**
     * Every action that runs, with its condition, is accepted; a condition on request data warns (HAProxy adds "in
     * 'tcp-response content'" after "never match", as for every tcp rule).
     */
    @Test
    void accepted() {
        assertThat(LoadedConfig.load(dir, HEAD + """
                backend b
                    tcp-response inspect-delay 2s
                    tcp-response content accept if { res.len gt 10 }
                    tcp-response content reject if { res.payload(0,3) -m str BAD }
                    tcp-response content close if { res.ssl_hello_type 2 }
                    tcp-response content silent-drop unless { rep_ssl_hello_type ge 0 }
                    tcp-response content set-var(txn.l) res.len
                    tcp-response content set-var-fmt(txn.f) "%[res.payload_lv(0,1)]"
                    tcp-response content unset-var(txn.f)
                    tcp-response content set-log-level debug
                    tcp-response content set-mark 0x10
                    tcp-response content set-tos 8
                    tcp-response content set-nice 10 if { wait_end }
                    tcp-response content reject if { req.len gt 0 }
                    server s 127.0.0.1:1
                """).messages()).isEqualTo("""
                [WARNING]  (1) : config : parsing [t.cfg:19] : anonymous acl will never match in 'tcp-response content' because it uses keyword 'req.len' which is incompatible with 'backend tcp-response content rule'
                """);
    }
}
