package io.fulcrum.http;

import io.fulcrum.http.ErrorMessage.Connection;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static io.fulcrum.http.HaproxyCaptures.bytes;
import static io.fulcrum.http.HaproxyCaptures.get;
import static io.fulcrum.http.HaproxyCaptures.show;
import static org.assertj.core.api.Assertions.assertThat;

/** Which response a proxy sends for a status, and how HAProxy 2.6 writes custom responses. */
class ErrorSetTest {
    @TempDir
    Path dir;

    @BeforeEach
    void files() throws IOException {
        for (String name : List.of("a", "b", "c", "d")) {
            Files.writeString(dir.resolve(name + ".http"), "HTTP/1.1 403 " + name + "\r\nContent-Length: 0\r\n\r\n");
        }
    }

    @Test
    void proxiesInheritTheirDefaultsLinesThenAddTheirOwn() {
        LoadedConfig c = LoadedConfig.load(dir, """
                backend fresh
                defaults
                    errorfile 403 $DIR/a.http
                    errorloc 503 http://example.com/sorry?a=1
                backend inherits
                backend overrides
                    errorfile 403 $DIR/b.http
                    errorfile 500 $DIR/c.http
                """);
        assertThat(c.output()).doesNotContain("ALERT");
        assertThat(reason(c.errors("inherits"), 403)).isEqualTo("a");
        assertThat(show(bytes(c.errors("inherits").message(503).wire(Connection.NONE))))
                .isEqualTo(show(get("errorloc302-503-http11")));
        assertThat(reason(c.errors("overrides"), 403)).isEqualTo("b");
        assertThat(reason(c.errors("overrides"), 404)).isEqualTo("Not Found");
        assertThat(reason(c.errors("fresh"), 403)).isEqualTo("Forbidden");
        assertThat(reason(c.errors("fresh"), 503)).isEqualTo("Service Unavailable");
    }

    /** HAProxy answers a status it has no page for with its 500 page, custom or not. */
    @Test
    void unknownStatusesGetThe500Response() {
        LoadedConfig c = LoadedConfig.load(dir, """
                backend custom
                    errorfile 500 $DIR/c.http
                backend plain
                """);
        assertThat(reason(c.errors("custom"), 418)).isEqualTo("c");
        assertThat(reason(c.errors("plain"), 418)).isEqualTo("Internal Server Error");
        assertThat(reason(c.errors("plain"), 200)).isEqualTo("OK");
    }

    @Test
    void laterLinesOverrideEarlierOnesImportsIncluded() {
        LoadedConfig c = LoadedConfig.load(dir, """
                backend own-then-import
                    errorfile 403 $DIR/a.http
                    errorfiles site
                backend import-then-own
                    errorfiles site
                    errorfile 403 $DIR/c.http
                backend partial
                    errorfiles site 404
                http-errors site
                    errorfile 403 $DIR/b.http
                    errorfile 404 $DIR/d.http
                """);
        assertThat(c.output()).doesNotContain("ALERT", "WARNING");
        assertThat(reason(c.errors("own-then-import"), 403)).isEqualTo("b");
        assertThat(reason(c.errors("own-then-import"), 404)).isEqualTo("d");
        assertThat(reason(c.errors("import-then-own"), 403)).isEqualTo("c");
        assertThat(reason(c.errors("partial"), 403)).isEqualTo("Forbidden");
        assertThat(reason(c.errors("partial"), 404)).isEqualTo("d");
    }

    @Test
    void anEmptyFileSendsNothing() {
        LoadedConfig c = LoadedConfig.load(dir, """
                backend b
                    errorfile 408 /dev/null
                """);
        ErrorMessage m = c.errors("b").message(408);
        assertThat(m.isEmpty()).isTrue();
        assertThat(m.wire(Connection.CLOSE).readableBytes()).isZero();
    }

    /** Custom files as HAProxy rewrote them on the way out (haproxy-2.6-error-responses.txt). */
    @Test
    void customFilesAreWrittenAsHaproxyWritesThem() throws IOException {
        for (String name : List.of("no-reason", "lenient", "connection-tokens", "http10-length", "no-length", "list-length")) {
            Files.write(dir.resolve(name + ".http"), get("file-" + name));
            ErrorMessage m = LoadedConfig.load(dir, "backend b\n    errorfile 403 $DIR/" + name + ".http\n")
                    .errors("b").message(403);
            for (String client : List.of("http11", "http10", "http10-keep-alive")) {
                assertThat(show(bytes(m.wire(ErrorPagesTest.connection(m, client)))))
                        .as("%s, %s client", name, client)
                        .isEqualTo(show(get("errorfile-" + name + "-" + client)));
            }
        }
    }

    @Test
    void redirectsAreWrittenAsHaproxyWritesThem() {
        LoadedConfig c = LoadedConfig.load(dir, """
                backend b
                    errorloc302 503 http://example.com/sorry?a=1
                    errorloc303 504 /oops
                """);
        assertThat(show(bytes(c.errors("b").message(503).wire(Connection.NONE)))).isEqualTo(show(get("errorloc302-503-http11")));
        assertThat(show(bytes(c.errors("b").message(504).wire(Connection.NONE)))).isEqualTo(show(get("errorloc303-504-http11")));
    }

    /** The reason phrase of the response sent for {@code status}, to tell messages apart. */
    private static String reason(ErrorSet set, int status) {
        String text = new String(bytes(set.message(status).wire(Connection.NONE)), java.nio.charset.StandardCharsets.ISO_8859_1);
        String line = text.substring(0, text.indexOf("\r\n"));
        return line.substring(line.indexOf(' ', line.indexOf(' ') + 1) + 1);
    }
}
