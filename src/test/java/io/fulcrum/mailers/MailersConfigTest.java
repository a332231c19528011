package io.fulcrum.mailers;

import io.fulcrum.http.LoadedConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Configuration of mailers sections and of email-alert: each message is the one HAProxy 2.6.12 printed for the same
 * line, but where a comment says otherwise.
 * Fulcrum refuses what HAProxy ignores or takes as empty: words after a mailer's address or an email-alert value, a
 * missing value; HAProxy swaps the words of "unknown log level" ("'level' after 'loud'").
 */
class MailersConfigTest {
    /** What {@code -c} prints for the HTTP defaults followed by {@code text}. */
    private static String check(Path dir, String text) {
        return LoadedConfig.load(dir, LoadedConfig.HTTP_DEFAULTS + text).messages();
    }

    @Test
    void sectionErrors(@TempDir Path dir) {
        assertThat(check(dir, """
                mailers ops
                    mailer
                    mailer m1
                    mailer m1 127.0.0.1
                    mailer m1 foo:25
                    mailer m1 unix@/tmp/smtp.sock
                    mailer m1 127.0.0.1:25 extra
                    timeout
                    timeout foo 1s
                    timeout mail
                    timeout mail 10x
                    frob
                """)).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:7] : 'mailer' expects <name> and <addr>[:<port>] as arguments.
                [ALERT]    (1) : config : parsing [t.cfg:8] : 'mailer' expects <name> and <addr>[:<port>] as arguments.
                [ALERT]    (1) : config : parsing [t.cfg:9] : 'mailer m1' : missing port specification in '127.0.0.1'
                [ALERT]    (1) : config : parsing [t.cfg:10] : 'mailer m1' : invalid address: 'foo' in 'foo:25'
                [ALERT]    (1) : config : parsing [t.cfg:11] : 'mailer m1' : TCP not supported for this address family.
                [ALERT]    (1) : config : parsing [t.cfg:12] : 'mailer' cannot handle unexpected argument 'extra'.
                [ALERT]    (1) : config : parsing [t.cfg:13] : 'timeout' expects 'mail' and <time> as arguments.
                [ALERT]    (1) : config : parsing [t.cfg:14] : 'timeout' expects 'mail' and <time> as arguments got 'foo'.
                [ALERT]    (1) : config : parsing [t.cfg:15] : 'timeout mail' expects <time> as argument.
                [ALERT]    (1) : config : parsing [t.cfg:16]: unexpected character 'x' in argument to <timeout mail>.
                [ALERT]    (1) : config : parsing [t.cfg:17] : unknown keyword 'frob' in 'mailers' section
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }

    @Test
    void emailAlertErrors(@TempDir Path dir) {
        assertThat(check(dir, """
                mailers ops
                    mailer m1 127.0.0.1:25
                backend b
                    email-alert
                    email-alert sender a@b
                    email-alert level
                    email-alert level loud
                    email-alert from
                    email-alert to a@b c@d
                    email-alert mailers nowhere
                    email-alert from a@b
                    email-alert to c@d
                backend c
                    email-alert level notice
                """)).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:9] : missing argument after 'email-alert'.
                [ALERT]    (1) : config : parsing [t.cfg:10] : email-alert: unknown argument 'sender'.
                [ALERT]    (1) : config : parsing [t.cfg:11] : unknown log level '' after 'email-alert level'.
                [ALERT]    (1) : config : parsing [t.cfg:12] : unknown log level 'loud' after 'email-alert level'.
                [ALERT]    (1) : config : parsing [t.cfg:13] : 'email-alert from' expects <emailaddr> as argument.
                [ALERT]    (1) : config : parsing [t.cfg:14] : 'email-alert to' cannot handle unexpected argument 'c@d'.
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }
}
