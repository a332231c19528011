package io.fulcrum.log;

import io.fulcrum.http.LoadedConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Configuration errors of the capture slots: {@code declare capture}, {@code http-request|http-response capture},
 * {@code tcp-request content capture}. Each message is the one HAProxy 2.6.12 printed for the same line alone
 * ({@code haproxy -c} stops at the first bad rule; Fulcrum reports them all).
 */
class CaptureConfigTest {
    @TempDir
    Path dir;

    /** HAProxy reads any word as the length and ignores what follows it: Fulcrum refuses both (its own messages). */
    @Test
    void captureCookieErrors() {
        assertThat(LoadedConfig.load(dir, """
                defaults
                    mode http
                    timeout client 1s
                    capture cookie A len 5
                frontend f
                    bind :18001
                    capture cookie
                    capture cookie A
                    capture cookie A len
                    capture cookie A len x
                    capture cookie A len 5 extra
                """).messages()).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:4] : 'capture cookie' not allowed in 'defaults' section.
                [ALERT]    (1) : config : parsing [t.cfg:7] : 'capture' expects 'cookie' <cookie_name> 'len' <len>.
                [ALERT]    (1) : config : parsing [t.cfg:8] : 'capture' expects 'cookie' <cookie_name> 'len' <len>.
                [ALERT]    (1) : config : parsing [t.cfg:9] : 'capture' expects 'cookie' <cookie_name> 'len' <len>.
                [ALERT]    (1) : config : parsing [t.cfg:10] : 'capture cookie' : invalid length 'x'.
                [ALERT]    (1) : config : parsing [t.cfg:11] : 'capture cookie' cannot handle unexpected argument 'extra'.
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }

    /** The last capture cookie wins, as in HAProxy; a length beyond tune.http.cookielen (63) is cut to it. */
    @Test
    void captureCookieSettings() {
        LoadedConfig c = LoadedConfig.load(dir, LoadedConfig.HTTP_DEFAULTS + """
                frontend f
                    bind :18001
                    capture cookie A len 5
                    capture cookie B= len 100
                """);
        HeaderCaptures captures = io.fulcrum.proxy.ProxyTable.of(c.model()).find("f").partOrNull(HeaderCaptures.class);
        assertThat(captures.cookieName).isEqualTo("B=");
        assertThat(captures.cookieLength).isEqualTo(63);
    }

    @Test
    void ruleErrors() {
        assertThat(LoadedConfig.load(dir, LoadedConfig.HTTP_DEFAULTS + """
                frontend f
                    bind :18001
                    http-request capture hdr(host)
                    http-request capture hdr(host) len x
                    http-request capture hdr(host) foo 3
                    http-request capture hdr(host) id x
                    http-request capture hdr(host) len 3 foo
                    http-request capture nosuch len 4
                    http-response capture res.hdr(host) len 3
                    http-response capture res.hdr(host)
                    tcp-request content capture hdr(host) id 2
                    tcp-request content capture req.len len x
                    tcp-request content capture foo(1) len 3
                    tcp-request content capture
                    tcp-request connection capture src len 4
                    tcp-request session capture src len 4
                backend b
                    http-request capture hdr(host) len 3
                    tcp-request content capture req.len len 3
                """).messages()).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:8] : error detected in frontend 'f' while parsing 'http-request capture' rule : expects <expression> [ 'len' <length> | id <idx> ].
                [ALERT]    (1) : config : parsing [t.cfg:9] : error detected in frontend 'f' while parsing 'http-request capture' rule : length must be > 0.
                [ALERT]    (1) : config : parsing [t.cfg:10] : error detected in frontend 'f' while parsing 'http-request capture' rule : expects 'len' or 'id', found 'foo'.
                [ALERT]    (1) : config : parsing [t.cfg:11] : error detected in frontend 'f' while parsing 'http-request capture' rule : cannot parse id 'x'.
                [ALERT]    (1) : config : parsing [t.cfg:12]: 'http-request capture' expects either 'if' or 'unless' followed by a condition but found 'foo'.
                [ALERT]    (1) : config : parsing [t.cfg:13] : error detected in frontend 'f' while parsing 'http-request capture' rule : unknown fetch method 'nosuch'.
                [ALERT]    (1) : config : parsing [t.cfg:14] : error detected in frontend 'f' while parsing 'http-response capture' rule : expects 'id', found 'len'.
                [ALERT]    (1) : config : parsing [t.cfg:15] : error detected in frontend 'f' while parsing 'http-response capture' rule : expects <expression> id <idx>.
                [ALERT]    (1) : config : parsing [t.cfg:16] : 'tcp-request content capture' : a positive 'len' argument is mandatory
                [ALERT]    (1) : config : parsing [t.cfg:17] : 'tcp-request content capture' : length must be > 0
                [ALERT]    (1) : config : parsing [t.cfg:18] : 'tcp-request content capture' : unknown fetch method 'foo'
                [ALERT]    (1) : config : parsing [t.cfg:19] : 'tcp-request content capture' : missing fetch method
                [ALERT]    (1) : config : parsing [t.cfg:20] : 'capture src' is not allowed in 'tcp-request connection' rules in frontend 'f'
                [ALERT]    (1) : config : parsing [t.cfg:21] : 'capture src' is not allowed in 'tcp-request session' rules in frontend 'f'
                [ALERT]    (1) : config : parsing [t.cfg:23] : error detected in backend 'b' while parsing 'http-request capture' rule : proxy 'b' has no frontend capability.
                [ALERT]    (1) : config : parsing [t.cfg:24] : 'tcp-request content capture' : proxy 'b' has no frontend capability
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }

    @Test
    void declareErrors() {
        assertThat(LoadedConfig.load(dir, LoadedConfig.HTTP_DEFAULTS + """
                frontend f
                    bind :18001
                    declare
                    declare foo
                    declare capture
                    declare capture foo
                    declare capture request
                    declare capture request len
                    declare capture request len x
                    declare capture request len 0
                    declare capture request len -1
                    declare capture response len 3 ignored
                backend b
                    declare capture request len 3
                """).messages()).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:8] : 'declare' needs a second keyword that specify the type of declaration ('capture')
                [ALERT]    (1) : config : parsing [t.cfg:9] : unknown declaration type 'foo' (supports 'capture')
                [ALERT]    (1) : config : parsing [t.cfg:10] : 'declare capture' requires a direction ('request' or 'response')
                [ALERT]    (1) : config : parsing [t.cfg:11] : 'declare capture' requires a direction ('request' or 'response')
                [ALERT]    (1) : config : parsing [t.cfg:12] : 'declare capture' requires a capture length ('len')
                [ALERT]    (1) : config : parsing [t.cfg:13] : 'declare capture': 'len' requires a numeric value that represents the capture length
                [ALERT]    (1) : config : parsing [t.cfg:14] : 'declare capture': cannot parse the length 'len'.
                [ALERT]    (1) : config : parsing [t.cfg:15] : length must be > 0
                [ALERT]    (1) : config : parsing [t.cfg:16] : length must be > 0
                [ALERT]    (1) : config : parsing [t.cfg:19] : 'declare' only available in frontend or listen section
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }

    /** Slots named by id are checked once the frontend has all its slots (a declare after the rule counts); a backend's are not. */
    @Test
    void missingSlotsAndContentWarnings() {
        assertThat(LoadedConfig.load(dir, LoadedConfig.HTTP_DEFAULTS + """
                frontend f
                    bind :18001
                    tcp-request content capture src len 3
                    tcp-request content capture req.len len 3
                    http-request capture hdr(host) id 2
                    declare capture request len 3
                    http-after-response capture res.hdr(x) id 0
                backend b
                    http-request capture hdr(host) id 7
                """).messages()).isEqualTo("""
                [WARNING]  (1) : config : frontend 'f' : a 'tcp-request capture' rule explicitly depending on request contents without any 'tcp-request inspect-delay' setting. This means that this rule will randomly find its contents. This can be fixed by setting the tcp-request inspect-delay.
                [ALERT]    (1) : config : Proxy 'f': unable to find capture id '0' referenced by http-response capture rule.
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }
}
