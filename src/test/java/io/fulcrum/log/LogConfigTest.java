package io.fulcrum.log;

import io.fulcrum.http.LoadedConfig;
import io.fulcrum.proxy.ProxyTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Configuration errors of the logging keywords. Unless said otherwise, the expected messages are those
 * HAProxy 2.6.12 printed for the same lines ({@code haproxy -c}).
 */
class LogConfigTest {
    @TempDir
    Path dir;

    @Test
    void globalLogErrors() {
        assertThat(LoadedConfig.load(dir, """
                global
                    log 127.0.0.1 local9
                    log 127.0.0.1
                    log global
                    log 127.0.0.1 len 50 local0
                    log 127.0.0.1 len 70000 local0
                    log 127.0.0.1 format bogus local0
                    log 127.0.0.1 sample 1-5:3 local0
                    log 127.0.0.1 sample 0:3 local0
                    log 127.0.0.1 sample x local0
                    log 127.0.0.1 sample 1:0 local0
                    log 127.0.0.1 sample 3-1:5 local0
                    log 127.0.0.1 local0 bogus
                    log 127.0.0.1 local0 info bogus
                    log 127.0.0.1 local0 info err extra
                    log 127.0.0.1:99999 local0
                    log 127.0.0.1 format short len 100 local0
                    log-tag
                """).messages()).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:2] : log : unknown log facility 'local9'
                [ALERT]    (1) : config : parsing [t.cfg:3] : log : expects <address> and <facility>  as arguments
                [ALERT]    (1) : config : parsing [t.cfg:4] : log : 'global' is not supported for a global syslog server
                [ALERT]    (1) : config : parsing [t.cfg:5] : log : invalid log length '50', must be between 80 and 65535
                [ALERT]    (1) : config : parsing [t.cfg:6] : log : invalid log length '70000', must be between 80 and 65535
                [ALERT]    (1) : config : parsing [t.cfg:7] : log : unknown log format 'bogus'
                [ALERT]    (1) : config : parsing [t.cfg:8] : log : sample size 3 should be greater or equal to 5 the maximum of the high ranges limits
                [ALERT]    (1) : config : parsing [t.cfg:9] : log : wrong sample range '0'
                [ALERT]    (1) : config : parsing [t.cfg:10] : log : Missing sample size
                [ALERT]    (1) : config : parsing [t.cfg:11] : log : wrong sample size '0' for sample range '1'
                [ALERT]    (1) : config : parsing [t.cfg:12] : log : wrong sample range '3-1'
                [ALERT]    (1) : config : parsing [t.cfg:13] : log : unknown optional log level 'bogus'
                [ALERT]    (1) : config : parsing [t.cfg:14] : log : unknown optional minimum log level 'bogus'
                [ALERT]    (1) : config : parsing [t.cfg:15] : log : cannot handle unexpected argument 'extra'
                [ALERT]    (1) : config : parsing [t.cfg:16] : log : invalid port '99999'
                [ALERT]    (1) : config : parsing [t.cfg:17] : log : unknown log facility 'len'
                [ALERT]    (1) : config : parsing [t.cfg:18] : 'log-tag' expects a tag for use in syslog.
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }

    @Test
    void proxyKeywordErrors() {
        assertThat(LoadedConfig.load(dir, """
                defaults
                    capture request header Host len 10
                frontend f
                    mode http
                    bind 127.0.0.1:9999
                    no log x
                    log-format
                    log-format a b
                    error-log-format
                    unique-id-format a b
                    unique-id-header
                    option httplog x
                    option tcplog x
                    capture request header Host
                    capture request header Host len 10 x
                    capture foo
                    no maxconn
                backend b
                    log-format %ci
                    option httplog
                    option dontlognull
                """).messages()).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:2] : 'capture request' not allowed in 'defaults' section.
                [ALERT]    (1) : config : parsing [t.cfg:6] : log : 'no log' does not expect arguments
                [ALERT]    (1) : config : parsing [t.cfg:7] : log-format expects an argument.
                [ALERT]    (1) : config : parsing [t.cfg:8] : log-format expects only one argument, don't forget to escape spaces!
                [ALERT]    (1) : config : parsing [t.cfg:9] : error-log-format expects an argument.
                [ALERT]    (1) : config : parsing [t.cfg:10] : unique-id-format expects only one argument, don't forget to escape spaces!
                [ALERT]    (1) : config : parsing [t.cfg:11] : unique-id-header expects an argument.
                [ALERT]    (1) : config : parsing [t.cfg:12] : keyword 'httplog' only supports option 'clf'.
                [ALERT]    (1) : config : parsing [t.cfg:13] : 'option tcplog' cannot handle unexpected argument 'x'.
                [ALERT]    (1) : config : parsing [t.cfg:14] : 'capture request' expects 'header' <header_name> 'len' <len>.
                [ALERT]    (1) : config : parsing [t.cfg:15] : 'capture request' cannot handle unexpected argument 'x'.
                [ALERT]    (1) : config : parsing [t.cfg:16] : 'capture' expects 'cookie' or 'request header' or 'response header'.
                [ALERT]    (1) : config : parsing [t.cfg:17] : negation/default currently supported only for options and log.
                [WARNING]  (1) : config : parsing [t.cfg:19] : backend 'b' : 'log-format' directive is ignored in backends.
                [WARNING]  (1) : config : parsing [t.cfg:20] : backend 'b' : 'option httplog' directive is ignored in backends.
                [WARNING]  (1) : config : parsing [t.cfg:21] : 'dontlognull' ignored because backend 'b' has no frontend capability.
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }

    /** Formats are compiled once each frontend's mode is known, as HAProxy does after parsing, in its order (checked against haproxy 2.6). */
    @Test
    void formatErrorsAndFallbacks() {
        assertThat(LoadedConfig.load(dir, """
                global
                    log 127.0.0.1 local0
                defaults
                    timeout client 1s
                frontend t
                    mode tcp
                    bind 127.0.0.1:9999
                    log global
                    log-format %r
                    error-log-format %Ti
                    unique-id-format %Zz
                frontend u
                    mode tcp
                    bind 127.0.0.1:9998
                    log global
                    option httplog
                frontend h
                    mode http
                    bind 127.0.0.1:9997
                    option httplog
                    log-format "%[str(x)"
                """).messages()).isEqualTo("""
                [ALERT]    (1) : config : Parsing [t.cfg:9]: failed to parse log-format : format variable 'r' is reserved for HTTP mode.
                [ALERT]    (1) : config : Parsing [t.cfg:11]: failed to parse unique-id : no such format variable 'Zz'. If you wanted to emit the '%' character verbatim, you need to use '%%'.
                [ALERT]    (1) : config : Parsing [t.cfg:10]: failed to parse error-log-format : format variable 'Ti' is reserved for HTTP mode.
                [WARNING]  (1) : config : parsing [t.cfg:16] : 'option httplog' not usable with frontend 'u' (needs 'mode http'). Falling back to 'option tcplog'.
                [ALERT]    (1) : config : Parsing [t.cfg:21]: failed to parse log-format : missing ']' after 'str(x)'.
                [WARNING]  (1) : config : log format ignored for frontend 'h' since it has no log address.
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }

    @Test
    void defaultsAreInheritedAndNoLogForgetsTargets() {
        LoadedConfig c = LoadedConfig.load(dir, """
                global
                    log 127.0.0.1:514 local0
                    log-send-hostname
                defaults
                    log global
                    log 127.0.0.2 len 200 format raw sample 1:2 local1 notice err
                    option tcplog
                    option dontlognull
                    timeout client 1s
                frontend a
                    bind 127.0.0.1:9999
                frontend b
                    bind 127.0.0.1:9998
                    no log
                    no option dontlognull
                """);
        assertThat(c.messages()).isEqualTo("[WARNING]  (1) : config : log format ignored for frontend 'b' since it has no log address.\n");
        ProxyLog a = ProxyTable.of(c.model()).find("a").partOrNull(ProxyLog.class);
        assertThat(a.targets).hasSize(2);
        assertThat(a.targets.get(0)).isSameAs(ProxyLog.GLOBAL);
        LogTarget t = a.targets.get(1);
        assertThat(t.destination()).hasToString("127.0.0.2:514");
        assertThat(t.maxLength()).isEqualTo(200);
        assertThat(t.format()).isEqualTo(SyslogFormat.RAW);
        assertThat(t.facility()).isEqualTo(17);
        assertThat(t.levelFor(Syslog.INFO)).isEqualTo(-1);
        assertThat(t.levelFor(Syslog.NOTICE)).isEqualTo(Syslog.NOTICE);
        assertThat(t.levelFor(Syslog.ALERT)).isEqualTo(Syslog.ERR);
        assertThat(a.dontlognull).isTrue();
        assertThat(a.compiled).hasToString(BuiltinFormats.TCPLOG);
        ProxyLog b = ProxyTable.of(c.model()).find("b").partOrNull(ProxyLog.class);
        assertThat(b.targets).isEmpty();
        assertThat(b.dontlognull).isFalse();
        assertThat(GlobalLog.of(c.model()).defaultFormat()).isEqualTo(SyslogFormat.RFC3164);
    }
}
