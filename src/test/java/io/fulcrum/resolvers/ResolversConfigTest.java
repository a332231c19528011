package io.fulcrum.resolvers;

import io.fulcrum.http.LoadedConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Configuration of resolvers sections and of the servers' DNS options: each message is the one HAProxy 2.6.12 printed
 * for the same line, but where a comment says otherwise.
 */
class ResolversConfigTest {
    @TempDir
    Path dir;

    private String messages(String text) {
        return LoadedConfig.load(dir, LoadedConfig.HTTP_DEFAULTS + text).messages();
    }

    @Test
    void validSection() {
        assertThat(messages("""
                resolvers dns
                    nameserver ns1 127.0.0.1:53
                    nameserver ns2 udp@[::1]:5353
                    accepted_payload_size 8192
                    resolve_retries 0
                    timeout resolve 2s
                    timeout retry 0
                    hold valid 10s
                    hold nx 1s
                    hold refused 1s
                    hold timeout 1m
                    hold other 1
                    hold obsolete 0
                backend b
                    default-server resolvers dns init-addr none resolve-prefer ipv4 resolve-opts allow-dup-ip,prevent-dup-ip
                    server s1 app.test:80 resolve-net 10.0.0.0/8,fd00::/8
                    server s2 127.0.0.1:80 resolve-prefer ipv6
                """)).isEqualTo("\n");
    }

    @Test
    void sectionErrors() {
        assertThat(messages("""
                resolvers dns
                    nameserver
                    nameserver ns1
                    nameserver ns1 foo
                    nameserver ns1 127.0.0.1
                    nameserver ns1 127.0.0.1:53
                    nameserver ns1 127.0.0.1:54
                    accepted_payload_size
                    accepted_payload_size 70000
                    accepted_payload_size x
                    resolve_retries
                    timeout
                    timeout resolve
                    timeout foo 1s
                    timeout resolve x
                    hold
                    hold foo 1s
                    hold nx x
                    frob
                resolvers dns
                """)).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:7] : 'nameserver' expects <name> and <addr>[:<port>] as arguments.
                [ALERT]    (1) : config : parsing [t.cfg:8] : 'nameserver' expects <name> and <addr>[:<port>] as arguments.
                [ALERT]    (1) : config : parsing [t.cfg:9] : 'nameserver ns1' : missing port specification in 'foo'
                [ALERT]    (1) : config : parsing [t.cfg:10] : 'nameserver ns1' : missing port specification in '127.0.0.1'
                [ALERT]    (1) : config : parsing [t.cfg:12] : nameserver 'ns1' has same name as another nameserver (declared at t.cfg:11).
                [ALERT]    (1) : config : parsing [t.cfg:13] : 'accepted_payload_size' expects <nb> as argument.
                [ALERT]    (1) : config : parsing [t.cfg:14] : 'accepted_payload_size' must be between 12 and 65535 inclusive (was 70000).
                [ALERT]    (1) : config : parsing [t.cfg:15] : 'accepted_payload_size' must be between 12 and 65535 inclusive (was x).
                [ALERT]    (1) : config : parsing [t.cfg:16] : 'resolve_retries' expects <nb> as argument.
                [ALERT]    (1) : config : parsing [t.cfg:17] : 'timeout' expects 'retry' or 'resolve' and <time> as arguments.
                [ALERT]    (1) : config : parsing [t.cfg:18] : 'timeout resolve' expects <time> as argument.
                [ALERT]    (1) : config : parsing [t.cfg:19] : 'timeout' expects 'retry' or 'resolve' and <time> as arguments got 'foo'.
                [ALERT]    (1) : config : parsing [t.cfg:20]: unexpected character 'x' in argument to <timeout resolve>.
                [ALERT]    (1) : config : parsing [t.cfg:21] : 'hold' expects an <event> and a <time> as arguments.
                <event> can be either 'valid', 'nx', 'refused', 'timeout', or 'other'
                [ALERT]    (1) : config : parsing [t.cfg:22] : 'hold' unknown <event>: 'foo', expects either 'nx', 'timeout', 'valid', 'obsolete' or 'other'.
                [ALERT]    (1) : config : parsing [t.cfg:23]: unexpected character 'x' in argument to <hold>.
                [ALERT]    (1) : config : parsing [t.cfg:24] : unknown keyword 'frob' in 'resolvers' section
                [ALERT]    (1) : config : parsing [t.cfg:25] : resolvers 'dns' has same name as another resolvers (declared at t.cfg:6).
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }

    @Test
    void streamNameserversTakeServerParameters() {
        assertThat(messages("""
                resolvers dns
                    nameserver ns1 tcp@127.0.0.1:53 maxconn 2
                    nameserver ns2 tcp4@127.0.0.1:54
                    nameserver ns3 tcp@127.0.0.1:55 foo
                    nameserver ns4 tcp@127.0.0.1:56 ssl
                    nameserver ns5 tcp@127.0.0.1
                    nameserver ns6 127.0.0.1:57 maxconn 2
                """)).isEqualTo("""
                [ALERT]    (1) : config : [t.cfg:9] : 'server dns/ns3' : unknown keyword 'foo'; did you mean 'tfo' maybe ?
                [ALERT]    (1) : config : parsing [t.cfg:10] : 'nameserver ns4' : server parameter 'ssl' is not supported on nameservers by Fulcrum yet (only 'maxconn' is).
                [ALERT]    (1) : config : parsing [t.cfg:11] : 'nameserver ns5' : missing port specification in 'tcp@127.0.0.1'
                [WARNING]  (1) : config : parsing [t.cfg:12] : 'nameserver ns6' : server parameters apply to stream (tcp@) nameservers only: 'maxconn' and what follows are ignored.
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }

    @Test
    void srvRecordsFillServers() {
        // No init-addr for an SRV name (HAProxy does not resolve it at start either); ignore-weight keeps weight 7.
        assertThat(messages("""
                resolvers dns
                    nameserver ns1 127.0.0.1:53
                    hold obsolete 5s
                backend b
                    server-template srv 2 _http._tcp.app.test resolvers dns resolve-opts ignore-weight weight 7
                    server s3 _imap._tcp.app.test:143 resolvers dns
                """)).isEqualTo("\n");
    }

    @Test
    void doResolveErrors() {
        assertThat(messages("""
                resolvers dns
                    nameserver ns1 127.0.0.1:53
                frontend f
                    bind 127.0.0.1:8080
                    http-request do-resolve(txn.ip,dns,ipv5) hdr(host)
                    http-request do-resolve(txn.ip) hdr(host)
                    http-request do-resolve(txn.ip,dns)
                """)).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:10] : error detected in frontend 'f' while parsing 'http-request do-resolve(txn.ip,dns,ipv5)' rule : Can't parse 'do-resolve(txn.ip,dns,ipv5)'. Expects 'do-resolve(<varname>,<resolvers>[,<options>]) <expr>'. Available options are 'ipv4' and 'ipv6'.
                [ALERT]    (1) : config : parsing [t.cfg:11] : error detected in frontend 'f' while parsing 'http-request do-resolve(txn.ip)' rule : Can't parse 'do-resolve(txn.ip)'. Expects 'do-resolve(<varname>,<resolvers>[,<options>]) <expr>'. Available options are 'ipv4' and 'ipv6'.
                [ALERT]    (1) : config : parsing [t.cfg:12] : error detected in frontend 'f' while parsing 'http-request do-resolve(txn.ip,dns)' rule : Can't parse ''. Expects 'do-resolve(<varname>,<resolvers>[,<options>]) <expr>'. Available options are 'ipv4' and 'ipv6'.
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
        assertThat(messages("""
                frontend f
                    bind 127.0.0.1:8080
                    http-request do-resolve(txn.ip,nope) hdr(host)
                """)).isEqualTo("""
                [ALERT]    (1) : config : Proxy 'f': Can't find resolvers section 'nope' for do-resolve action.
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }

    @Test
    void tcpContentDoResolveErrors() {
        // HAProxy 2.6.12 answers line 10 with its list of the tcp-request connection actions (docs/differences.md).
        assertThat(messages("""
                resolvers dns
                    nameserver ns1 127.0.0.1:53
                frontend f
                    bind 127.0.0.1:8080
                    tcp-request content do-resolve(sess.ip,dns,ipv5) src
                    tcp-request content do-resolve(sess.ip,dns)
                    tcp-request connection do-resolve(sess.ip,dns) src
                    tcp-request content do-resolve(sess.ip,dns,ipv6) src
                """)).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:10] : Can't parse 'do-resolve(sess.ip,dns,ipv5)'. Expects 'do-resolve(<varname>,<resolvers>[,<options>]) <expr>'. Available options are 'ipv4' and 'ipv6'
                [ALERT]    (1) : config : parsing [t.cfg:11] : Can't parse ''. Expects 'do-resolve(<varname>,<resolvers>[,<options>]) <expr>'. Available options are 'ipv4' and 'ipv6'
                [ALERT]    (1) : config : parsing [t.cfg:12] : 'do-resolve' is only allowed in 'tcp-request content' rules
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }

    /** HAProxy warns when the methods before "none" failed, and keeps the server in resolution maintenance. */
    @Test
    void anUnresolvedNameWithInitAddrNoneIsDisabled() {
        assertThat(messages("""
                backend b
                    server s1 nonexistent.invalid:80 init-addr libc,none
                    server s2 nonexistent.invalid:80 init-addr none
                """)).isEqualTo("""
                [WARNING]  (1) : config : [t.cfg:7] : 'server b/s1' : could not resolve address 'nonexistent.invalid', disabling server.
                """);
    }

    @Test
    void serverErrors() {
        assertThat(messages("""
                resolvers dns
                    nameserver ns1 127.0.0.1:53
                resolvers empty
                backend b
                    server s1 app.test:80 resolvers nope init-addr none
                    server s2 app.test:80 resolvers dns resolve-prefer ipv5 init-addr none
                    server s3 app.test:80 resolvers dns resolve-net 1.2.3.4/99 init-addr none
                    server s4 app.test:80 resolvers dns resolve-opts foo init-addr none
                """)).isEqualTo("""
                [ALERT]    (1) : config : [t.cfg:11] : 'server b/s2' : 'resolve-prefer' expects either ipv4 or ipv6 as argument..
                [ALERT]    (1) : config : [t.cfg:12] : 'server b/s3' : 'resolve-net' invalid network '1.2.3.4/99'..
                [ALERT]    (1) : config : [t.cfg:13] : 'server b/s4' : 'resolve-opts' : unknown resolve-opts option 'foo', supported methods are 'allow-dup-ip', 'ignore-weight', and 'prevent-dup-ip'..
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
        assertThat(messages("""
                resolvers dns
                    nameserver ns1 127.0.0.1:53
                resolvers empty
                backend b
                    server s1 app.test:80 resolvers nope init-addr none
                """)).isEqualTo("""
                [WARNING]  (1) : config : resolvers 'empty' [t.cfg:8] has no nameservers configured!
                [ALERT]    (1) : config : backend 'b', server 's1': unable to find required resolvers 'nope'
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }
}
