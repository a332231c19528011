package io.fulcrum.stick;

import io.fulcrum.http.LoadedConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** Configuration errors of stick tables and their actions: each message is the one HAProxy 2.6.12 printed for the same line. */
class StickConfigTest {
    private static final String HEAD = """
            defaults
                mode http
                timeout client 1s
                timeout server 1s
                timeout connect 1s
            frontend f
                bind :18001
            """;

    @TempDir
    Path dir;

    @Test
    void tableErrors() {
        assertThat(LoadedConfig.load(dir, HEAD + """
                    stick-table type foo size 1
                    stick-table type ip
                    stick-table type ip size x
                    stick-table type ip size 10 store foo
                    stick-table type ip size 10 store conn_rate
                    stick-table type ip size 10 store conn_cnt(3)
                    stick-table type ip size 10 expire x
                    stick-table type ip size 10 bogus
                    stick-table type ip size 10 srvkey foo
                    stick-table type ip size 10 store gpc(200)
                    stick-table type ip size 10 store gpc
                    stick-table type ip size 10 store gpt(2),gpt0
                    stick-table type ip size 10 store gpc0,gpc(2)
                    stick-table type ip size 1k store gpc_rate(2)
                    stick-table type ip size 1k store gpc_rate(2,10s),gpc(2),conn_rate(1m)
                    stick-table type ip size 1k
                """).messages()).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:8] : stick-table: unknown type 'foo'.
                [ALERT]    (1) : config : parsing [t.cfg:9] : stick-table: missing size.
                [ALERT]    (1) : config : parsing [t.cfg:10] : stick-table: unexpected character 'x' in argument of 'size'.
                [ALERT]    (1) : config : parsing [t.cfg:11] : stick-table: unknown store option 'foo'.
                [ALERT]    (1) : config : parsing [t.cfg:12] : stick-table: missing argument to store option 'conn_rate'.
                [ALERT]    (1) : config : parsing [t.cfg:13] : stick-table: unexpected argument to store option 'conn_cnt'.
                [ALERT]    (1) : config : parsing [t.cfg:14] : stick-table: unexpected character 'x' in argument of 'expire'.
                [ALERT]    (1) : config : parsing [t.cfg:15] : stick-table: unknown argument 'bogus'.
                [ALERT]    (1) : config : parsing [t.cfg:16] : stick-table : unknown server key type 'foo'.
                [ALERT]    (1) : config : parsing [t.cfg:17] : stick-table: array size is out of allowed range (1-100) for store option 'gpc'.
                [ALERT]    (1) : config : parsing [t.cfg:18] : stick-table: missing argument to store option 'gpc'.
                [ALERT]    (1) : config : parsing [t.cfg:19] : stick-table: simultaneous usage of 'gpt' and 'gpt0' in a same table is not permitted as 'gpt' overrides 'gpt0'.
                [ALERT]    (1) : config : parsing [t.cfg:20] : stick-table: simultaneous usage of 'gpc' and 'gpc[0/1]' in a same table is not permitted as 'gpc' overrides 'gpc[0/1]'.
                [ALERT]    (1) : config : parsing [t.cfg:21] : stick-table: missing argument to store option 'gpc_rate'.
                [ALERT]    (1) : config : parsing [t.cfg:23] : stick-table name 'f' conflicts with table declared in frontend 'f' at t.cfg:22.
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }

    @Test
    void actionErrors() {
        assertThat(LoadedConfig.load(dir, HEAD + """
                    http-request sc-inc-gpc0(4)
                    http-request sc-inc-gpc0(x)
                    http-request sc-inc-gpc(a,0)
                    http-request sc-set-gpt(0) 1
                    http-request sc-set-gpt0(x) 1
                    http-request track-sc0 src table
                    http-request track-sc0 src foo
                    tcp-request content track-sc0
                    tcp-request content sc-inc-gpc0(4)
                    tcp-request content track-sc0 src foo
                """).messages()).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:8] : error detected in frontend 'f' while parsing 'http-request sc-inc-gpc0(4)' rule : invalid stick table track ID. The max allowed ID is 2.
                [ALERT]    (1) : config : parsing [t.cfg:9] : error detected in frontend 'f' while parsing 'http-request sc-inc-gpc0(x)' rule : invalid stick table track ID. Expects sc-inc-gpc0(x)(<Track ID>).
                [ALERT]    (1) : config : parsing [t.cfg:10] : error detected in frontend 'f' while parsing 'http-request sc-inc-gpc(a,0)' rule : Missing gpc ID 'sc-inc-gpc(a,0)'. Expects sc-inc-gpc(<GPC ID>,<Track ID>).
                [ALERT]    (1) : config : parsing [t.cfg:11] : error detected in frontend 'f' while parsing 'http-request sc-set-gpt(0)' rule : Missing gpt ID 'sc-set-gpt(0)'. Expects sc-set-gpt(<GPT ID>,<Track ID>).
                [ALERT]    (1) : config : parsing [t.cfg:12] : error detected in frontend 'f' while parsing 'http-request sc-set-gpt0(x)' rule : invalid stick table track ID 'sc-set-gpt0(x)'. Expects sc-set-gpt0(<Track ID>).
                [ALERT]    (1) : config : parsing [t.cfg:13] : error detected in frontend 'f' while parsing 'http-request track-sc0' rule : missing table name.
                [ALERT]    (1) : config : parsing [t.cfg:14]: 'http-request track-sc0' expects either 'if' or 'unless' followed by a condition but found 'foo'.
                [ALERT]    (1) : config : parsing [t.cfg:15] : 'tcp-request content track-sc0' : missing fetch method
                [ALERT]    (1) : config : parsing [t.cfg:16] : invalid stick table track ID. The max allowed ID is 2
                [ALERT]    (1) : config : parsing [t.cfg:17] : 'tcp-request content track-sc0' only accepts 'if' or 'unless', in frontend 'f' (got 'foo')
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }

    /** Tables are found once every proxy is known; the expressions' errors are grouped under one alert, as HAProxy's (2.6.12's output). */
    @Test
    void missingTables() {
        assertThat(LoadedConfig.load(dir, HEAD + """
                    http-request track-sc2 src table nope
                    http-request deny if { sc_conn_cnt(0,nope) gt 1 }
                    http-request deny if { src_conn_cnt gt 1 }
                    http-request set-var(txn.x) src,table_conn_cnt(nope2)
                    http-request track-sc1 src table b
                    default_backend b
                backend b
                    stick-table type ip size 10 store gpc0
                    http-request set-var(txn.x) src_get_gpc0,add(1)
                    http-request set-var(txn.y) src,in_table(b)
                """).messages()).isEqualTo("""
                [ALERT]    (1) : config : Proxy 'f': unable to find table 'nope' referenced by track-sc2.
                [ALERT]    (1) : config : multiple argument resolution errors:
                        parsing [t.cfg:9]: unable to find table 'nope' referenced in arg 2 of ACL keyword 'sc_conn_cnt' in proxy 'f'.
                        parsing [t.cfg:10]: unable to find table 'f' referenced in arg 1 of ACL keyword 'src_conn_cnt' in proxy 'f'.
                        parsing [t.cfg:11]: unable to find table 'nope2' referenced in arg 1 of conversion keyword 'table_conn_cnt' for sample fetch keyword 'src' in http-request expression in proxy 'f'.
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }

    @Test
    void stickRuleErrors() {
        assertThat(LoadedConfig.load(dir, HEAD + """
                    stick on src
                backend b
                    stick-table type ip size 10
                    stick on
                    stick foo src
                    stick on src foo
                    stick on src table nope
                    stick store-response src
                """).messages()).isEqualTo("""
                [WARNING]  (1) : config : parsing [t.cfg:8] : 'stick' ignored because frontend 'f' has no backend capability.
                [ALERT]    (1) : config : parsing [t.cfg:11] : 'stick' expects a fetch method.
                [ALERT]    (1) : config : parsing [t.cfg:12] : 'stick' expects 'on', 'match', or 'store'.
                [ALERT]    (1) : config : parsing [t.cfg:13] : 'stick': unknown keyword 'foo'.
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
        assertThat(LoadedConfig.load(dir, HEAD + """
                    default_backend b
                backend b
                    stick on src table nope
                """).messages()).isEqualTo("""
                [ALERT]    (1) : config : Proxy 'b': unable to find stick-table 'nope'.
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }
}
