package io.fulcrum.log;

import io.fulcrum.http.LoadedConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ring} sections and the targets naming them. The messages are those HAProxy 2.6.12 printed for the same
 * lines, unless said otherwise.
 */
class RingConfigTest {
    @TempDir
    Path dir;

    @Test
    void ringErrors() {
        assertThat(LoadedConfig.load(dir, """
                ring r
                    foo 1
                    format bad
                    size x
                    maxlen 0
                    timeout connect
                    description
                    server s 127.0.0.1:1 log-proto x
                    server s
                    size 100
                    backing-file /nonexistent/dir/r
                    server t 127.0.0.1:1 check
                ring r
                ring
                ring buf0
                """).messages()).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:2] : unknown statement 'foo'.
                [ALERT]    (1) : config : parsing [t.cfg:3] : unknown format 'bad'.
                [ALERT]    (1) : config : parsing [t.cfg:4] : invalid size 'x' for new sink buffer.
                [ALERT]    (1) : config : parsing [t.cfg:5] : invalid size '0' for new sink buffer.
                [ALERT]    (1) : config : parsing [t.cfg:6] : 'timeout connect' expects <time> as argument.
                [ALERT]    (1) : config : parsing [t.cfg:7] : missing ring description text.
                [ALERT]    (1) : config : parsing [t.cfg:8] : 'server r/s' : 'log-proto' expects one of 'legacy' or 'octet-count' but got 'x'.
                [ALERT]    (1) : config : parsing [t.cfg:9] : 'server' expects <name> and <addr>[:<port>] as arguments.
                [ALERT]    (1) : config : parsing [t.cfg:10] : ignoring new size '100' that is smaller than current size '16384' for ring 'r'.
                [ALERT]    (1) : config : parsing [t.cfg:11] : cannot open backing-file '/nonexistent/dir/r' for ring 'r': No such file or directory.
                [ALERT]    (1) : config : parsing [t.cfg:12] : 'server r/t' : 'check' is not supported in ring sections by Fulcrum yet (it supports 'log-proto').
                [ALERT]    (1) : config : parsing [t.cfg:13] : sink named 'r' already exists.
                [ALERT]    (1) : config : parsing [t.cfg:14] : missing ring name.
                [ALERT]    (1) : config : parsing [t.cfg:15] : sink named 'buf0' already exists.
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }

    /** HAProxy finds the sink when it parses the line, so a ring declared later is not one yet (it stops there, Fulcrum goes on). */
    @Test
    void debugNamesARingDeclaredBefore() {
        assertThat(LoadedConfig.load(dir, "ring early\n" + LoadedConfig.HTTP_DEFAULTS + """
                frontend f
                    bind :18011
                    http-request set-var(txn.y) path,debug(p,early),debug(q,buf0),debug(r,stderr)
                    http-request set-var(txn.z) path,debug(p,late)
                    http-request return status 200
                ring late
                """).messages()).startsWith("""
                [ALERT]    (1) : config : parsing [t.cfg:10] : error detected in frontend 'f' while parsing 'http-request set-var(txn.z)' rule : invalid args in converter 'debug' : No such sink 'late'.
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                """);
    }

    @Test
    void targetsNameExistingRingsAndMessagesFitTheRing() {
        assertThat(LoadedConfig.load(dir, """
                global
                    log ring@nope local0
                    log ring@r local0
                ring r
                    maxlen 20000
                defaults
                    log ring@nope2 local0
                    timeout client 1s
                frontend f
                    bind 127.0.0.1:9999
                    log ring@nope3 local0
                """).messages()).isEqualTo("""
                [ALERT]    (1) : config : global log server declared in file 't.cfg' at line 2 uses unknown ring named 'nope'.
                [ALERT]    (1) : config : log server declared in proxy section 'f' in file 't.cfg' at line 7 uses unknown ring named 'nope2'.
                [ALERT]    (1) : config : log server declared in proxy section 'f' in file 't.cfg' at line 11 uses unknown ring named 'nope3'.
                [WARNING]  (1) : config : ring 'r' event max length '20000' exceeds size, forced to size '16384'.
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }

    @Test
    void aRingSectionKeepsItsSettings() {
        LoadedConfig c = LoadedConfig.load(dir, """
                ring r
                    description "My ring"
                    format rfc3164
                    maxlen 1200
                    size 32764
                    timeout connect 5s
                    timeout server 10s
                    server s 127.0.0.1:6514 log-proto octet-count
                    server t 127.0.0.1:6515
                """);
        assertThat(c.messages()).isBlank();
        RingSpec r = RingSpec.of(c.model()).get("r");
        assertThat(r.description).isEqualTo("My ring");
        assertThat(r.format).isEqualTo(SyslogFormat.RFC3164);
        assertThat(r.maxlen).isEqualTo(1200);
        assertThat(r.size).isEqualTo(32764);
        assertThat(r.timeoutConnect).isEqualTo(5000);
        assertThat(r.timeoutServer).isEqualTo(10000);
        assertThat(r.servers).extracting(RingSpec.Server::octetCount).containsExactly(true, false);
        assertThat(((java.net.InetSocketAddress) r.servers.get(0).address()).getPort()).isEqualTo(6514);
    }

    /**
     * backing-file: an existing non-empty file is kept as .bak, a new one of the ring's size is made (mode 0600),
     * whose header the ring's storage loses; 'size' cannot follow it.
     */
    @Test
    void aBackingFileIsMadeAndTakesItsHeaderFromTheStorage() throws Exception {
        Path file = dir.resolve("ring.bin");
        java.nio.file.Files.writeString(file, "old");
        assertThat(LoadedConfig.load(dir, """
                ring r
                    size 32768
                    backing-file %s
                    size 65536
                """.formatted(file)).messages()).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:4] : cannot resize an already mapped file, please specify 'size' before 'backing-file'.
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
        assertThat(java.nio.file.Files.readString(dir.resolve("ring.bin.bak"))).isEqualTo("old");
        assertThat(java.nio.file.Files.size(file)).isEqualTo(32768);
        assertThat(java.nio.file.Files.getPosixFilePermissions(file)).hasToString("[OWNER_READ, OWNER_WRITE]");
        assertThat(LoadedConfig.load(dir, """
                ring r
                    backing-file %s
                """.formatted(file)).messages()).isEqualTo("""
                [WARNING]  (1) : config : ring 'r' event max length '16384' exceeds size, forced to size '16312'.
                """);
    }
}
