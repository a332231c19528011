package io.fulcrum.http;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Configuration errors of the error keywords. Unless said otherwise, the expected messages are those
 * HAProxy 2.6.12 printed for the same lines ({@code haproxy -c}); HAProxy also prints an empty line
 * after its "expects ... as arguments." messages, which Fulcrum does not.
 */
class HttpErrorsModuleTest {
    @TempDir
    Path dir;

    @BeforeEach
    void files() throws IOException {
        Files.writeString(dir.resolve("ok.http"), "HTTP/1.1 403 Forbidden\r\nX-Foo: Bar\r\nContent-Length: 3\r\n\r\nabc");
        Files.writeString(dir.resolve("bad.http"), "garbage\r\n\r\n");
    }

    @Test
    void errorfileErrors() {
        assertThat(LoadedConfig.load(dir, """
                defaults
                    errorfile
                    errorfile 403
                    errorfile 999 $DIR/ok.http
                    errorfile 302 $DIR/ok.http
                    errorfile 403 /nonexistent
                    errorfile 403 $DIR/bad.http
                    errorfile 403 $DIR/ok.http
                """).messages()).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:2] : errorfile : expects <status_code> and <file> as arguments.
                [ALERT]    (1) : config : parsing [t.cfg:3] : errorfile : expects <status_code> and <file> as arguments.
                [ALERT]    (1) : config : parsing [t.cfg:4] : errorfile : status code '999' not handled.
                [ALERT]    (1) : config : parsing [t.cfg:5] : errorfile : status code '302' not handled.
                [ALERT]    (1) : config : parsing [t.cfg:6] : errorfile : error opening file '/nonexistent'.
                [ALERT]    (1) : config : parsing [t.cfg:7] : errorfile : '$DIR/bad.http': unable to parse headers (error offset: 0)
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }

    /** Where HAProxy reads a status with atol() ("abc" is 0, "403x" is 403) or ignores extra words, Fulcrum refuses the line. */
    @Test
    void fulcrumIsStricterWithStatusCodesAndExtraWords() {
        assertThat(LoadedConfig.load(dir, """
                defaults
                    errorfile abc $DIR/ok.http
                    errorfile 403x $DIR/ok.http
                    errorfile 403 $DIR/ok.http extra
                    errorloc 503 /x extra
                    errorfile 0403 $DIR/ok.http
                """).messages()).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:2] : errorfile : status code 'abc' not handled.
                [ALERT]    (1) : config : parsing [t.cfg:3] : errorfile : status code '403x' not handled.
                [ALERT]    (1) : config : parsing [t.cfg:4] : 'errorfile' cannot handle unexpected argument 'extra'.
                [ALERT]    (1) : config : parsing [t.cfg:5] : 'errorloc' cannot handle unexpected argument 'extra'.
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }

    @Test
    void errorlocAndErrorfilesErrors() {
        assertThat(LoadedConfig.load(dir, """
                defaults
                    errorloc
                    errorloc 403
                    errorloc302 999 /x
                    errorloc303 404 /x
                    errorfiles
                    errorfiles foo 999
                    errorfiles foo 403 404
                """).messages()).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:2] : errorloc : expects <status_code> and <url> as arguments.
                [ALERT]    (1) : config : parsing [t.cfg:3] : errorloc : expects <status_code> and <url> as arguments.
                [ALERT]    (1) : config : parsing [t.cfg:4] : errorloc302 : status code '999' not handled.
                [ALERT]    (1) : config : parsing [t.cfg:6] : errorfiles : expects <name> as argument.
                [ALERT]    (1) : config : parsing [t.cfg:7] : errorfiles : status code '999' not handled.
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }

    @Test
    void httpErrorsSectionErrors() {
        assertThat(LoadedConfig.load(dir, """
                http-errors a.b
                    errorfile
                    errorfile 403
                    errorfile 999 $DIR/ok.http
                    errorfile 403 /nonexistent
                    foo
                    errorfile 403 $DIR/ok.http
                http-errors a.b
                http-errors bad/name
                http-errors
                """).messages()).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:2] : errorfile: expects <status_code> and <file> as arguments.
                [ALERT]    (1) : config : parsing [t.cfg:3] : errorfile: expects <status_code> and <file> as arguments.
                [ALERT]    (1) : config : parsing [t.cfg:4] : errorfile : status code '999' not handled.
                [ALERT]    (1) : config : parsing [t.cfg:5] : errorfile : error opening file '/nonexistent'.
                [ALERT]    (1) : config : parsing [t.cfg:6] : unknown keyword 'foo' in 'http-errors' section
                [ALERT]    (1) : config : parsing [t.cfg:8] : http-errors section 'a.b' already exists (declared at t.cfg:1).
                [ALERT]    (1) : config : parsing [t.cfg:9] : character '/' is not permitted in 'http-errors' name 'bad/name'.
                [ALERT]    (1) : config : parsing [t.cfg:10] : missing name for http-errors section.
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }

    /** The oracle's order: per proxy in declaration order, its defaults' lines first. */
    @Test
    void errorfilesNeedTheirSection() {
        assertThat(LoadedConfig.load(dir, """
                http-errors foo
                    errorfile 403 $DIR/ok.http
                defaults
                    errorfiles foo 403 404
                backend fe
                    errorfiles bar
                    errorfiles foo 500
                backend be
                    errorfiles baz 503
                """).messages()).isEqualTo("""
                [WARNING]  (1) : config : config: proxy 'fe' : status '404' not declared in http-errors section 'foo' (at t.cfg:4).
                [ALERT]    (1) : config : proxy 'fe': unknown http-errors section 'bar' (at t.cfg:6).
                [WARNING]  (1) : config : config: proxy 'fe' : status '500' not declared in http-errors section 'foo' (at t.cfg:7).
                [WARNING]  (1) : config : config: proxy 'be' : status '404' not declared in http-errors section 'foo' (at t.cfg:4).
                [ALERT]    (1) : config : proxy 'be': unknown http-errors section 'baz' (at t.cfg:9).
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }

    /** HAProxy takes these lines in any proxy, whatever its mode, without a word. */
    @Test
    void acceptedInTcpProxiesAndEveryKindOfSection() {
        LoadedConfig c = LoadedConfig.load(dir, """
                http-errors site
                    errorfile 404 $DIR/ok.http
                defaults
                    mode tcp
                    errorfile 403 $DIR/ok.http
                    errorloc 503 /x
                frontend fe
                    errorfile 503 $DIR/ok.http
                    errorfiles site
                backend be
                    errorloc303 503 /x
                listen li
                    errorloc302 504 /y
                """);
        assertThat(c.output()).doesNotContain("error", "http-errors", "ALERT");
    }
}
