package io.fulcrum.rules;

import io.fulcrum.http.LoadedConfig;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code errorfile} and {@code errorfiles} arguments of deny, return and tarpit (configuration.txt "http-request
 * return"): every message is the one HAProxy 2.6.12 printed for the same lines (its "erorrfile" typo included).
 */
class ReplyErrorfileConfigTest {
    @TempDir
    Path dir;

    private String head;

    @BeforeEach
    void files() throws Exception {
        Files.writeString(dir.resolve("403.http"), "HTTP/1.1 403 Forbidden\r\ncontent-length: 5\r\n\r\nnope\n");
        Files.writeString(dir.resolve("bad.http"), "garbage\r\n\r\n");
        head = """
                defaults
                    mode http
                    timeout client 1s
                    timeout server 1s
                    timeout connect 1s
                frontend f
                    bind :18001
                """;
    }

    private String section() {
        return "http-errors site\n    errorfile 403 " + dir.resolve("403.http") + "\n";
    }

    @Test
    void everyFormIsAccepted() {
        String f = dir.resolve("403.http").toString();
        assertThat(LoadedConfig.load(dir, head + """
                    http-request return errorfile %1$s if TRUE
                    http-request return status 299 errorfile %1$s if TRUE
                    http-request return status 403 errorfiles site if TRUE
                    http-request deny errorfile %1$s if TRUE
                    http-request deny errorfiles site if TRUE
                    http-request tarpit status 403 errorfiles site if TRUE
                    http-response return status 403 errorfile %1$s if TRUE
                    http-response deny status 403 errorfiles site if TRUE
                """.formatted(f) + section()).messages()).isBlank();
    }

    @Test
    void errors() {
        String f = dir.resolve("403.http").toString();
        assertThat(LoadedConfig.load(dir, head + """
                    http-request return errorfile %1$s/missing
                    http-request return errorfile
                    http-request return errorfiles
                    http-request return status 299 errorfiles site
                    http-request return status 299 default-errorfiles
                    http-request return status 403 errorfiles site string x
                    http-request return status 403 errorfile %3$s errorfiles site
                    http-request return content-type text/plain string x file %3$s
                    http-request return errorfile %2$s
                """.formatted(dir, dir.resolve("bad.http"), dir.resolve("403.http")) + section()).messages()).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:8] : error detected in frontend 'f' while parsing 'http-request return' rule : error opening file '$DIR/missing'..
                [ALERT]    (1) : config : parsing [t.cfg:9] : error detected in frontend 'f' while parsing 'http-request return' rule : 'errorfile' expects <fmt> as argument.
                [ALERT]    (1) : config : parsing [t.cfg:10] : error detected in frontend 'f' while parsing 'http-request return' rule : 'errorfiles' expects <name> as argument.
                [ALERT]    (1) : config : parsing [t.cfg:11] : error detected in frontend 'f' while parsing 'http-request return' rule : status code '299' not handled by default with 'errorfiles' argument..
                [ALERT]    (1) : config : parsing [t.cfg:12] : error detected in frontend 'f' while parsing 'http-request return' rule : status code '299' not handled by default with 'default-errorfiles' argument..
                [ALERT]    (1) : config : parsing [t.cfg:13] : error detected in frontend 'f' while parsing 'http-request return' rule : unexpected 'string' argument, 'errorfiles' already defined.
                [ALERT]    (1) : config : parsing [t.cfg:14] : error detected in frontend 'f' while parsing 'http-request return' rule : unexpected 'errorfiles' argument, 'errorfile' already defined.
                [ALERT]    (1) : config : parsing [t.cfg:15] : error detected in frontend 'f' while parsing 'http-request return' rule : unexpected 'file' argument, 'string' already defined.
                [ALERT]    (1) : config : parsing [t.cfg:16] : error detected in frontend 'f' while parsing 'http-request return' rule : '$DIR/bad.http': unable to parse headers (error offset: 0).
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }

    @Test
    void unknownSectionsAndStatusesAreFoundOnceAllSectionsAreRead() {
        assertThat(LoadedConfig.load(dir, head + """
                    http-request return status 404 errorfiles site if TRUE
                    http-response deny errorfiles site
                    http-request deny errorfiles nosuch
                """ + section()).messages()).isEqualTo("""
                [WARNING]  (1) : config : Proxy 'f': status '404' referenced by an http reply not declared in http-errors section 'site'.
                [WARNING]  (1) : config : Proxy 'f': status '502' referenced by an http reply not declared in http-errors section 'site'.
                [ALERT]    (1) : config : Proxy 'f': unknown http-errors section 'nosuch' referenced by an http reply .
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }

    @Test
    void contentTypeAndHeadersAreIgnoredWithAnErrorfile() {
        assertThat(LoadedConfig.load(dir, head + """
                    http-request return errorfile /dev/null hdr a b content-type x/y
                    http-request return status 403 default-errorfiles hdr a b
                """).messages()).isEqualTo("""
                [WARNING]  (1) : config : parsing [t.cfg:8] : content-type 'x/y' ignored by the http reply when used with an erorrfile.
                [WARNING]  (1) : config : parsing [t.cfg:8] : hdr parameters ignored by the http reply when used with an erorrfile.
                [WARNING]  (1) : config : parsing [t.cfg:9]: previous 'http-request' action is final and has no condition attached, further entries are NOOP.
                [WARNING]  (1) : config : parsing [t.cfg:9] : hdr parameters ignored by the http reply when used with an erorrfile.
                """);
    }

    /** As HAProxy's http reply parser: the framing fields of hdr ignored, no body for 204 or 304, hdr takes any word. */
    @Test
    void replyHeadersAndBodies() {
        assertThat(LoadedConfig.load(dir, head + """
                    http-request return status 200 content-type text/plain string x hdr Content-Length 9 hdr transfer-encoding x hdr X-A 1 if { path /a }
                    http-request return status 200 content-type text/plain file /dev/null if { path /b }
                    http-request return status 204 content-type text/plain string x if { path /c }
                    http-request return status 304 content-type text/plain lf-string x if { path /d }
                    http-request return status 200 hdr X-A if { path /e }
                """).messages()).isEqualTo("""
                [WARNING]  (1) : config : parsing [t.cfg:8] : header 'Content-Length' always ignored by the http reply.
                [WARNING]  (1) : config : parsing [t.cfg:8] : header 'transfer-encoding' always ignored by the http reply.
                [WARNING]  (1) : config : parsing [t.cfg:9] : content-type 'text/plain' ignored by the http reply when used with an empty payload.
                [ALERT]    (1) : config : parsing [t.cfg:10] : error detected in frontend 'f' while parsing 'http-request return' rule : No body expected for 204 responses.
                [ALERT]    (1) : config : parsing [t.cfg:11] : error detected in frontend 'f' while parsing 'http-request return' rule : No body expected for 304 responses.
                [ALERT]    (1) : config : parsing [t.cfg:12]: 'http-request return' expects either 'if' or 'unless' followed by a condition but found '{'.
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }
}
