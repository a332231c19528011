package io.fulcrum.peers;

import io.fulcrum.cfg.Environment;
import io.fulcrum.http.LoadedConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Configuration of peers sections and shared tables: each message is the one HAProxy 2.6.12 printed for the same lines. */
class PeersConfigTest {
    private static final String HEAD = """
            global
                localpeer me
            defaults
                mode http
                timeout client 1s
                timeout server 1s
                timeout connect 1s
            """;

    @TempDir
    Path dir;

    private String messages(String text) {
        return LoadedConfig.load(dir, HEAD + text).messages();
    }

    @Test
    void validSections() {
        assertThat(messages("""
                peers p
                    peer me 127.0.0.1:23010
                    peer other 127.0.0.1:23011
                    table t type string len 16 size 10 expire 1m store gpc(2),gpc_rate(2,10s),http_req_rate(10s)
                peers q
                    bind 127.0.0.1:23012
                    default-server
                    server me
                    server other 127.0.0.1:23013
                backend b
                    stick-table type ip size 10 peers p store conn_cnt
                backend c
                    stick-table type ip size 10 peers q
                    tcp-request content track-sc0 src table p/t
                """)).isEqualTo("\n");
    }

    @Test
    void sectionErrors() {
        assertThat(messages("""
                peers
                    peer me 127.0.0.1:23010
                peers p x
                peers p
                    frob x
                    peer me 127.0.0.1:23010
                    bind 127.0.0.1:23010
                    peer me 127.0.0.1:23011
                peers p
                peers q
                    bind 127.0.0.1:23014
                    peer other 127.0.0.1:23015
                    server me 127.0.0.1:23016
                """)).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:8] : missing name for peers section.
                [ALERT]    (1) : config : parsing [t.cfg:10] : 'peers' cannot handle unexpected argument 'x'.
                [ALERT]    (1) : config : parsing [t.cfg:12] : unknown keyword 'frob' in 'peers' section
                [ALERT]    (1) : config : parsing [t.cfg:14] : mixing "peer" and "bind" line is forbidden
                [ALERT]    (1) : config : parsing [t.cfg:15] : 'peer me' : local peer name already referenced at t.cfg:13. me
                [ALERT]    (1) : config : parsing [t.cfg:16] : peers section 'p' has the same name as another peers section declared at t.cfg:11.
                [ALERT]    (1) : config : parsing [t.cfg:19] : mixing "peer" and "bind" line is forbidden
                [ALERT]    (1) : config : parsing [t.cfg:20] : 'server me/me' : unknown keyword '127.0.0.1:23016'. Hint: no address was expected for this server.
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }

    @Test
    void tableErrors() {
        assertThat(messages("""
                peers p
                    peer me 127.0.0.1:23010
                    table t type ip
                    table
                    table t type ip size 10 peers p
                backend b
                    stick-table type ip size 10 peers
                """)).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:10] : table: missing size.
                [ALERT]    (1) : config : parsing [t.cfg:11] : table: missing size.
                [ALERT]    (1) : config : parsing [t.cfg:12] : table: unknown argument 'peers'.
                [ALERT]    (1) : config : parsing [t.cfg:14] : stick-table: missing argument after 'peers'.
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }

    @Test
    void maxUpdatesAtOnce() {
        assertThat(messages("""
                global
                    tune.peers.max-updates-at-once 0
                    tune.peers.max-updates-at-once 7x
                    tune.peers.max-updates-at-once 5 6
                    tune.peers.max-updates-at-once
                    tune.peers.max-updates-at-once 300
                """)).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:9] : 'tune.peers.max-updates-at-once' expects an integer argument greater than 0.
                [ALERT]    (1) : config : parsing [t.cfg:10] : 'tune.peers.max-updates-at-once' expects an integer argument greater than 0.
                [ALERT]    (1) : config : parsing [t.cfg:11] : 'tune.peers.max-updates-at-once' cannot handle unexpected argument '6'.
                [ALERT]    (1) : config : parsing [t.cfg:12] : 'tune.peers.max-updates-at-once' expects an integer argument greater than 0.
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }

    @Test
    void tableOfAnUnknownSection() {
        assertThat(messages("""
                backend c
                    stick-table type ip size 10 peers nope
                """)).isEqualTo("""
                [ALERT]    (1) : config : Proxy 'c': unable to find sync peers 'nope'.
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }

    @Test
    void sectionWithoutTheLocalPeerIsRemoved() {
        assertThat(messages("""
                peers p
                    peer other 127.0.0.1:23011
                backend b
                    stick-table type ip size 10 peers p
                """)).isEqualTo("""
                [WARNING]  (1) : config : Removing incomplete section 'peers p' (no peer named 'me').
                """);
    }

    @Test
    void localPeerAfterAPeersSectionIsIgnored() {
        assertThat(LoadedConfig.load(dir, """
                global
                    localpeer me
                peers p
                    peer me 127.0.0.1:23010
                global
                    localpeer other
                """).messages()).isEqualTo("""
                [WARNING]  (1) : config : parsing [t.cfg:6] : 'localpeer' ignored since it is used after 'peers' section.
                """);
    }

    @Test
    void localPeerGivenByTheCommandLineWins() throws Exception {
        Environment env = new Environment(Map.of());
        env.setFixed("HAPROXY_LOCALPEER", "me"); // -L me
        Loaded l = Loaded.load(dir, """
                global
                    localpeer other
                peers p
                    peer me 127.0.0.1:23010
                """, env);
        assertThat(l.output()).contains("[WARNING]  (1) : config : parsing [t.cfg:2] : 'localpeer' ignored since it is already "
                + "set by using the '-L' command line argument.").doesNotContain("Removing incomplete section");
        assertThat(env.get("HAPROXY_LOCALPEER")).isEqualTo("me");
    }

    @Test
    void optionsOtherThanTlsAreRefused() {
        assertThat(messages("""
                peers p
                    peer me 127.0.0.1:23010 ssl crt x.pem maxconn 10
                    default-server ssl verify none check
                    default-bind ssl backlog 5
                    peer other 127.0.0.1:23011 ssl verify nope
                    log stdout bogus
                """)).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:9] : 'server (null)/me' : 'maxconn' is not supported in peers sections by Fulcrum (only the TLS options are).
                [ALERT]    (1) : config : parsing [t.cfg:10] : 'default-server' : 'check' is not supported in peers sections by Fulcrum (only the TLS options are).
                [ALERT]    (1) : config : parsing [t.cfg:11] : 'default-bind' : 'backlog' is not supported in peers sections by Fulcrum (only the TLS options are).
                [ALERT]    (1) : config : [t.cfg:12] : 'server (null)/other' : 'verify' : unknown verify method 'nope', only 'none' and 'required' are supported.
                [ALERT]    (1) : config : parsing [t.cfg:13] : log : unknown log facility 'bogus'
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }

    /** As in haproxy 2.6: {@code log} and {@code no log} are accepted in a peers section, checked as a proxy's. */
    @Test
    void logLinesAreCheckedAsAProxys() {
        assertThat(messages("""
                peers p
                    log global
                    log 127.0.0.1:514 local0 info
                    no log
                    peer me 127.0.0.1:23010
                """)).isBlank();
        assertThat(messages("""
                peers p
                    log 127.0.0.1:514
                    peer me 127.0.0.1:23010
                """)).startsWith("""
                [ALERT]    (1) : config : parsing [t.cfg:9] : log : expects <address> and <facility> or global as arguments
                """);
    }

    @Test
    void tlsOptionsAreReadAsHaproxyReadsThem() {
        assertThat(messages("""
                peers p
                    bind 127.0.0.1:23010 ssl
                    server me
                    server other 127.0.0.1:23011 ssl
                """)).isEqualTo("""
                [ALERT]    (1) : config : Proxy 'me': no SSL certificate specified for bind '127.0.0.1:23010' at [t.cfg:9] (use 'crt').
                [ALERT]    (1) : config : [t.cfg:11] : 'server me/other' : verify is enabled by default but no CA file specified. If you're running on a LAN where you're certain to trust the server's certificate, please set an explicit 'verify none' statement on the 'server' line, or use 'ssl-server-verify none' in the global section to disable server-side verifications by default.
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }
}
