package io.fulcrum.backend;

import io.fulcrum.http.LoadedConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** Errors of {@code retry-on} and {@code http-request disable-l7-retry}, as HAProxy 2.6.12 printed them for the same lines. */
class RetryOnConfigTest {
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
                    retry-on all-retryable-errors 404
                frontend f
                    bind :18001
                    retry-on 503
                    http-request disable-l7-retry foo
                    default_backend be
                backend be
                    retry-on
                    retry-on foo
                    retry-on 405
                    retry-on none 503
                    retry-on 503 none
                    retry-on conn-failure conn-failure 0rtt-rejected 401 403 408 425 501
                    server s1 127.0.0.1:1
                """).messages()).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:9] : 'retry-on' only available in backend or listen section
                [ALERT]    (1) : config : parsing [t.cfg:10]: 'http-request disable-l7-retry' expects either 'if' or 'unless' followed by a condition but found 'foo'.
                [ALERT]    (1) : config : parsing [t.cfg:13] : 'retry-on' needs at least one keyword to specify when to retry
                [ALERT]    (1) : config : parsing [t.cfg:14] : 'retry-on': unknown keyword 'foo'
                [ALERT]    (1) : config : parsing [t.cfg:15] : 'retry-on': unknown keyword '405'
                [ALERT]    (1) : config : parsing [t.cfg:16] : 'retry-on' 'none' keyworld only usable alone
                [ALERT]    (1) : config : parsing [t.cfg:17] : 'retry-on' 'none' keyworld only usable alone
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }
}
