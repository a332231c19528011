package io.fulcrum.rules;

import io.fulcrum.http.LoadedConfig;
import io.fulcrum.proxy.ProxyTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Rules in defaults sections (HAProxy 2.5+): refused in an anonymous one, kept in a named one and inherited by the
 * proxies using it under HAProxy's conditions. Each message is the one haproxy 2.6.12 printed for the same line alone
 * (haproxy stops at the first inheritance error; Fulcrum goes on and reports each).
 */
class DefaultsRulesConfigTest {
    @TempDir
    Path dir;

    @Test
    void anonymousDefaultsTakeNoRules() {
        assertThat(LoadedConfig.load(dir, """
                defaults
                    acl x always_true
                    http-request deny
                    http-response deny
                    http-after-response set-header a b
                    tcp-request inspect-delay 1s
                    tcp-request connection accept
                    tcp-request content accept
                    tcp-response content accept
                    tcp-response inspect-delay 1s
                    tcp-request foo
                    tcp-request
                """).messages()).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:2] : 'acl' not allowed in anonymous 'defaults' section.
                [ALERT]    (1) : config : parsing [t.cfg:3] : 'http-request' not allowed in anonymous 'defaults' section.
                [ALERT]    (1) : config : parsing [t.cfg:4] : 'http-response' not allowed in anonymous 'defaults' section.
                [ALERT]    (1) : config : parsing [t.cfg:5] : 'http-after-response' not allowed in anonymous 'defaults' section.
                [ALERT]    (1) : config : parsing [t.cfg:6] : tcp-request inspect-delay is not allowed in anonymous 'defaults' sections
                [ALERT]    (1) : config : parsing [t.cfg:7] : tcp-request connection is not allowed in anonymous 'defaults' sections
                [ALERT]    (1) : config : parsing [t.cfg:8] : tcp-request content is not allowed in anonymous 'defaults' sections
                [ALERT]    (1) : config : parsing [t.cfg:9] : tcp-response content is only allowed in 'backend' sections or 'defaults' section with a name
                [ALERT]    (1) : config : parsing [t.cfg:10] : tcp-response inspect-delay is only allowed in 'backend' sections or 'defaults' section with a name
                [ALERT]    (1) : config : parsing [t.cfg:11] : 'tcp-request' expects 'inspect-delay', 'connection', or 'content' in defaults section (got 'foo')
                [ALERT]    (1) : config : parsing [t.cfg:12] : missing argument for 'tcp-request' in defaults section
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }

    @Test
    void namedDefaultsRulesAreInheritedByFrontendsOnlyOrBackendsOnly() {
        assertThat(LoadedConfig.load(dir, """
                defaults fe_rules
                    mode http
                    timeout client 1s
                    timeout server 1s
                    timeout connect 1s
                    acl local src 127.0.0.1
                    http-request set-header x-d 1 if local
                defaults be_l4
                    tcp-request connection accept
                    tcp-request content accept
                defaults be_res
                    mode tcp
                    tcp-response content accept
                    tcp-response inspect-delay 1s
                frontend f1 from fe_rules
                    bind :18001
                backend b1 from fe_rules
                listen l1 from fe_rules
                defaults sub from fe_rules
                backend b2 from be_l4
                frontend f2 from be_res
                    bind :18002
                """).messages()).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:17]: frontends and backends cannot inherit from the same defaults section if it defines TCP/HTTP rules (defaults section at t.cfg:1).
                [ALERT]    (1) : config : parsing [t.cfg:18]: a listen section cannot inherit from a defaults section defining TCP/HTTP rules.
                [ALERT]    (1) : config : parsing [t.cfg:19]: a defaults section cannot inherit from a defaults section defining TCP/HTTP rules (defaults section at t.cfg:1).
                [ALERT]    (1) : config : parsing [t.cfg:20]: a backend section cannot inherit from a defaults section defining 'tcp-request connection' or 'tcp-request session' rules (defaults section at t.cfg:8).
                [ALERT]    (1) : config : parsing [t.cfg:21]: a frontend section cannot inherit from a defaults section defining 'tcp-response content' rules (defaults section at t.cfg:11).
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }

    /** ACLs and an inspect delay are no rules: a listen section may use their defaults; the ACLs stay in the defaults. */
    @Test
    void aclsAndDelaysAreNoRules() {
        LoadedConfig c = LoadedConfig.load(dir, """
                defaults d
                    mode tcp
                    timeout client 1s
                    timeout server 1s
                    timeout connect 1s
                    acl x always_true
                    tcp-request inspect-delay 2s
                listen l from d
                    bind :18001
                    server s 127.0.0.1:1
                    tcp-request content reject if x
                """);
        assertThat(c.messages()).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:11] : 'tcp-request content reject' : error detected in proxy 'l' while parsing 'if' condition : no such ACL : 'x'
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
        assertThat(TcpRules.of(ProxyTable.of(c.model()).find("l")).inspectDelay()).isEqualTo(2000);
    }

    /** Rules of the defaults section may use its ACLs; several frontends (or several backends) may share them. */
    @Test
    void sharedByProxiesOfOneSide() {
        LoadedConfig c = LoadedConfig.load(dir, """
                defaults d
                    mode http
                    timeout client 1s
                    timeout server 1s
                    timeout connect 1s
                    acl local src 127.0.0.1
                    http-request set-header x-d 1 if local
                    http-response set-header x-r 1
                    tcp-request content accept
                frontend f1 from d
                    bind :18001
                    http-request set-header x-f 1
                frontend f2 from d
                    bind :18002
                defaults
                    mode http
                """);
        // (haproxy 2.6.12 warns so for these lines too)
        assertThat(c.messages()).isEqualTo("[WARNING]  (1) : config : parsing [t.cfg:9] : a 'tcp-request' rule placed after an "
                + "'http-request' rule will still be processed before.\n");
        ProxyTable t = ProxyTable.of(c.model());
        assertThat(HttpRules.of(t.find("f1")).request()).hasSize(2);
        assertThat(HttpRules.of(t.find("f2")).request()).hasSize(1);
        assertThat(HttpRules.of(t.find("f2")).response()).hasSize(1);
        assertThat(TcpRules.of(t.find("f2")).content).hasSize(1);
    }

    /**
     * Capture rules in a named defaults section give their slots to the frontends using it, first; a backend may not
     * use it (haproxy's message, its typo included).
     */
    @Test
    void capturesInDefaultsAreForFrontends() {
        LoadedConfig ok = LoadedConfig.load(dir, """
                defaults d
                    mode http
                    timeout client 1s
                    http-request capture src len 3
                    tcp-request content capture src len 4
                frontend f from d
                    bind :18003
                    http-request capture src len 5
                """);
        assertThat(ok.messages()).doesNotContain("ALERT");
        assertThat(ok.model().part(ProxyTable.class, ProxyTable::new).find("f")).isNotNull();
        assertThat(LoadedConfig.load(dir, """
                defaults d
                    mode http
                    http-request capture src len 3
                backend b from d
                """).messages()).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:4]: backend or defaults sections cannot inherit from a defaults section defining capptures (defaults section at t.cfg:1).
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }
}
