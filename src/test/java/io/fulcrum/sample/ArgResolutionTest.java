package io.fulcrum.sample;

import io.fulcrum.http.LoadedConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Proxy and server names and regexes in expressions resolved after parsing; each message is the one HAProxy 2.6.12 printed
 * for the same configuration (its use_backend errors come after the rules': the only difference, in order).
 */
class ArgResolutionTest {
    @TempDir
    Path dir;

    @Test
    void eachProxysErrorsAreReportedTogetherWithWhereTheExpressionIs() {
        assertThat(LoadedConfig.load(dir, LoadedConfig.HTTP_DEFAULTS + """
                frontend f
                    bind :18001
                    tcp-request connection set-var(sess.a) nbsrv(n1)
                    http-request set-var(txn.a) nbsrv(n2)
                    http-request deny if { nbsrv(n3),add(1) gt 0 }
                    acl x srv_is_up(b/zz)
                    http-request deny if x
                    http-after-response set-var(txn.a) nbsrv(n4)
                    log-format "%[nbsrv(n5)]"
                    default_backend b
                backend b
                    http-request set-header x %[srv_is_up(zz)]
                    http-request set-header x %[srv_is_up(/zz)]
                    http-request set-header x %[fe_conn]
                    server s 127.0.0.1:1
                """).messages()).isEqualTo("""
                [WARNING]  (1) : config : log format ignored for frontend 'f' since it has no log address.
                [ALERT]    (1) : config : multiple argument resolution errors:
                        parsing [t.cfg:8]: unable to find backend 'n1' referenced in arg 1 of sample fetch keyword 'nbsrv' in tcp-request connection expression in proxy 'f'.
                        parsing [t.cfg:9]: unable to find backend 'n2' referenced in arg 1 of sample fetch keyword 'nbsrv' in http-request expression in proxy 'f'.
                        parsing [t.cfg:10]: unable to find backend 'n3' referenced in arg 1 of ACL keyword 'nbsrv' in proxy 'f'.
                        parsing [t.cfg:11]: unable to find server 'zz' in proxy 'b', referenced in arg 1 of ACL keyword 'srv_is_up' in proxy 'f'.
                        parsing [t.cfg:13]: unable to find backend 'n4' referenced in arg 1 of sample fetch keyword 'nbsrv' in http-response response in proxy 'f'.
                        parsing [t.cfg:14]: unable to find backend 'n5' referenced in arg 1 of sample fetch keyword 'nbsrv' in log-format string in proxy 'f'.
                [ALERT]    (1) : config : multiple argument resolution errors:
                        parsing [t.cfg:17]: unable to find server 'zz' in proxy 'b', referenced in arg 1 of sample fetch keyword 'srv_is_up' in http-request expression in proxy 'b'.
                        parsing [t.cfg:18]: unable to find proxy '' referenced in arg 1 of sample fetch keyword 'srv_is_up' in http-request expression in proxy 'b'.
                        parsing [t.cfg:19]: proxy 'b', referenced in arg 1 of sample fetch keyword 'fe_conn' in http-request expression in proxy 'b', has not frontend capability.
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }

    @Test
    void oneErrorIsReportedAlone() {
        assertThat(LoadedConfig.load(dir, LoadedConfig.HTTP_DEFAULTS + """
                frontend f
                    bind :18001
                    use_backend %[nbsrv(n1)]
                    default_backend b
                backend b
                    server s 127.0.0.1:1
                """).messages()).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:8]: unable to find backend 'n1' referenced in arg 1 of sample fetch keyword 'nbsrv' in use_backend expression in proxy 'f'.
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }

    @Test
    void namesThatResolveLoad() {
        assertThat(LoadedConfig.load(dir, LoadedConfig.HTTP_DEFAULTS + """
                frontend f
                    bind :18001
                    http-request deny if { nbsrv(b) lt 1 } || { srv_is_up(b/s) -m bool } || { fe_conn gt 100 }
                    http-request set-header x %[be_conn(b)]%[fe_conn(f)]
                    default_backend b
                backend b
                    http-request set-header x %[srv_conn(s)]%[nbsrv]
                    server s 127.0.0.1:1
                """).messages()).isBlank();
    }

    @Test
    void regexArgumentsAreCompiledAmongTheResolutionErrors() {
        assertThat(LoadedConfig.load(dir, LoadedConfig.HTTP_DEFAULTS + """
                frontend f
                    bind :18001
                    log stdout format raw local0
                    http-request set-var(txn.a) path,regsub((a,b)
                    acl x path,regsub([z,b,i) -m found
                    http-request deny if x || { path,lower,regsub(,b) -m found }
                    log-format "%[str(a),regsub(*b,c)]"
                    default_backend b
                backend b
                    server s 127.0.0.1:1 ssl verify none sni str(a),regsub(a**,b)
                """).messages()).isEqualTo("""
                [ALERT]    (1) : config : multiple argument resolution errors:
                        parsing [t.cfg:9]: error in regex '(a' in arg 1 of conversion keyword 'regsub' for sample fetch keyword 'path' in http-request expression in proxy 'f' : regex '(a' is invalid (error=missing closing parenthesis, erroffset=2).
                        parsing [t.cfg:10]: error in regex '[z' in arg 1 of conversion keyword 'regsub' for ACL keyword 'path' in proxy 'f' : regex '[z' is invalid (error=missing terminating ] for character class, erroffset=2).
                        parsing [t.cfg:11]: missing regex in arg 1 of conversion keyword 'regsub' for ACL keyword 'path' in proxy 'f'.
                        parsing [t.cfg:12]: error in regex '*b' in arg 1 of conversion keyword 'regsub' for sample fetch keyword 'str' in log-format string in proxy 'f' : regex '*b' is invalid (error=quantifier does not follow a repeatable item, erroffset=0).
                [ALERT]    (1) : config : parsing [t.cfg:15]: error in regex 'a**' in arg 1 of conversion keyword 'regsub' for sample fetch keyword 'str' in server directive in proxy 'b' : regex 'a**' is invalid (error=quantifier does not follow a repeatable item, erroffset=2).
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }

    @Test
    void aDefaultsSectionsRulesAreResolvedOnceInItsNameBeforeItsFirstUser() {
        assertThat(LoadedConfig.load(dir, """
                defaults d1
                    mode http
                    timeout client 1s
                    timeout server 1s
                    timeout connect 1s
                    http-request set-var(txn.x) path,regsub((a,b)
                frontend f from d1
                    bind :18001
                    http-request set-var(txn.x) nbsrv(n1),add(1),regsub((c,b)
                frontend g from d1
                    bind :18002
                    http-request set-var(txn.x) path,regsub((e,b)
                defaults unused
                    mode http
                    timeout client 1s
                    timeout server 1s
                    timeout connect 1s
                    http-request set-var(txn.x) path,regsub((u,b)
                defaults d2
                    mode http
                    timeout client 1s
                    timeout server 1s
                    timeout connect 1s
                    http-request set-var(txn.x) nbsrv(n2)
                backend b
                    http-request set-var(txn.x) path,regsub(**f,b)
                """).messages()).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:6]: error in regex '(a' in arg 1 of conversion keyword 'regsub' for sample fetch keyword 'path' in http-request expression in proxy 'd1' : regex '(a' is invalid (error=missing closing parenthesis, erroffset=2).
                [ALERT]    (1) : config : multiple argument resolution errors:
                        parsing [t.cfg:9]: unable to find backend 'n1' referenced in arg 1 of sample fetch keyword 'nbsrv' in http-request expression in proxy 'f'.
                        parsing [t.cfg:9]: error in regex '(c' in arg 1 of conversion keyword 'regsub' for sample fetch keyword 'nbsrv' in http-request expression in proxy 'f' : regex '(c' is invalid (error=missing closing parenthesis, erroffset=2).
                [ALERT]    (1) : config : parsing [t.cfg:12]: error in regex '(e' in arg 1 of conversion keyword 'regsub' for sample fetch keyword 'path' in http-request expression in proxy 'g' : regex '(e' is invalid (error=missing closing parenthesis, erroffset=2).
                [ALERT]    (1) : config : parsing [t.cfg:24]: unable to find backend 'n2' referenced in arg 1 of sample fetch keyword 'nbsrv' in http-request expression in proxy 'd2'.
                [ALERT]    (1) : config : parsing [t.cfg:26]: error in regex '**f' in arg 1 of conversion keyword 'regsub' for sample fetch keyword 'path' in http-request expression in proxy 'b' : regex '**f' is invalid (error=quantifier does not follow a repeatable item, erroffset=0).
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }

    @Test
    void aDefaultsSectionNoProxyTakesRulesFromIsNotResolved() {
        assertThat(LoadedConfig.load(dir, """
                defaults d
                    mode http
                    timeout client 1s
                    timeout server 1s
                    timeout connect 1s
                    http-request set-var(txn.x) path,regsub((a,b)
                    http-request set-var(txn.y) nbsrv(nosuch)
                    log-format "%[str(a),regsub(*b,c)]"
                """ + LoadedConfig.HTTP_DEFAULTS + """
                frontend f
                    bind :18001
                    default_backend b
                backend b
                    server s 127.0.0.1:1
                """).messages()).isBlank();
    }

    @Test
    void theGlobalSectionsExpressionsAreResolvedAtOnceInProxyCfg() {
        assertThat(LoadedConfig.load(dir, """
                global
                    set-var-fmt proc.x "%[str(a),regsub((a,b)]"
                """).messages()).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:2] : parsing [t.cfg:2]: error in regex '(a' in arg 1 of conversion keyword 'regsub' for sample fetch keyword 'str' in configuration expression in proxy 'CFG' : regex '(a' is invalid (error=missing closing parenthesis, erroffset=2).
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }

    @Test
    void tablesAndUserlistsAreResolvedWithTheOthers() {
        assertThat(LoadedConfig.load(dir, LoadedConfig.HTTP_DEFAULTS + """
                frontend f
                    bind 127.0.0.1:18001
                    http-request set-var(txn.x) src,table_gpc0(nosuch)
                    http-request set-var(txn.y) src,table_gpc0()
                    acl u http_auth(nouser)
                    http-request deny if u
                    default_backend b
                backend b
                    server s 127.0.0.1:18002
                """).messages()).isEqualTo("""
                [ALERT]    (1) : config : multiple argument resolution errors:
                        parsing [t.cfg:8]: unable to find table 'nosuch' referenced in arg 1 of conversion keyword 'table_gpc0' for sample fetch keyword 'src' in http-request expression in proxy 'f'.
                        parsing [t.cfg:9]: unable to find table 'f' referenced in arg 1 of conversion keyword 'table_gpc0' for sample fetch keyword 'src' in http-request expression in proxy 'f'.
                        parsing [t.cfg:10]: unable to find userlist 'nouser' referenced in arg 1 of ACL keyword 'http_auth' in proxy 'f'.
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }
}
