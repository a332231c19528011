package io.fulcrum.rules;

import io.fulcrum.http.LoadedConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** Sample expressions in HTTP rules that HAProxy refuses: each message is the one HAProxy 2.6.12
 * printed for the line alone (haproxy -c; it stops at the first). */
class RuleSampleErrorsConfigTest {
    @TempDir
    Path dir;

    @Test
    void errors() {
        assertThat(LoadedConfig.load(dir, LoadedConfig.HTTP_DEFAULTS + """
                frontend fe
                    bind 127.0.0.1:18001
                    http-request set-var(txn.x) res.hdr(x)
                    http-request set-var(txn.x) status
                    http-request capture status len 10
                    http-request set-header x %[str(a),digest(nope)]
                    http-request set-header x %[str(a),hmac(nope,txn.k)]
                    http-request set-header x %[str(a)lower]
                """).messages()).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:8] : error detected in frontend 'fe' while parsing 'http-request set-var(txn.x)' rule : fetch method 'set-var(txn.x)' extracts information from 'HTTP response headers', none of which is available here.
                [ALERT]    (1) : config : parsing [t.cfg:9] : error detected in frontend 'fe' while parsing 'http-request set-var(txn.x)' rule : fetch method 'set-var(txn.x)' extracts information from 'HTTP response', none of which is available here.
                [ALERT]    (1) : config : parsing [t.cfg:10] : error detected in frontend 'fe' while parsing 'http-request capture' rule : fetch method 'status' extracts information from 'HTTP response', none of which is available here.
                [ALERT]    (1) : config : parsing [t.cfg:11] : error detected in frontend 'fe' while parsing 'http-request set-header' rule : failed to parse sample expression <str(a),digest(nope)]> : invalid args in converter 'digest' : algorithm must be a valid OpenSSL message digest name..
                [ALERT]    (1) : config : parsing [t.cfg:12] : error detected in frontend 'fe' while parsing 'http-request set-header' rule : failed to parse sample expression <str(a),hmac(nope,txn.k)]> : invalid args in converter 'hmac' : algorithm must be a valid OpenSSL message digest name..
                [ALERT]    (1) : config : parsing [t.cfg:13] : error detected in frontend 'fe' while parsing 'http-request set-header' rule : expected ']' after 'str(a)', but found 'l'.
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }
}
