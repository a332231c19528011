package io.fulcrum.persist;

import io.fulcrum.http.LoadedConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Configuration errors and warnings of {@code cookie}, {@code dynamic-cookie-key}, {@code force-persist},
 * {@code ignore-persist} and {@code option persist}: each message is the one HAProxy 2.6.12 printed for the same line.
 */
class PersistConfigTest {
    @TempDir
    Path dir;

    private static final String HEAD = """
            defaults
                mode http
                timeout client 1s
                timeout server 1s
                timeout connect 1s
            frontend f
                bind :18001
                default_backend be
            backend be
                server s1 127.0.0.1:1 cookie a
            """;

    @Test
    void cookieErrors() {
        assertThat(LoadedConfig.load(dir, HEAD + """
                    cookie
                    cookie S foo
                    cookie S rewrite indirect
                    cookie S insert prefix
                    cookie S preserve
                    cookie S insert maxidle
                    cookie S insert maxidle 10x
                    cookie S insert maxlife 3000000000
                    cookie S insert domain
                    cookie S insert domain a,b.com
                    cookie S insert attr
                    cookie S insert attr a;b
                    dynamic-cookie-key
                    force-persist
                    ignore-persist foo
                    option persist foo
                """).messages()).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:11] : 'cookie' expects <cookie_name> as argument.
                [ALERT]    (1) : config : parsing [t.cfg:12] : 'cookie' supports 'rewrite', 'insert', 'prefix', 'indirect', 'nocache', 'postonly', 'domain', 'maxidle', 'dynamic', 'maxlife' and 'attr' options.
                [ALERT]    (1) : config : parsing [t.cfg:13] : cookie 'rewrite' and 'indirect' modes are incompatible.
                [ALERT]    (1) : config : parsing [t.cfg:14] : cookie 'rewrite', 'insert' and 'prefix' modes are incompatible.
                [ALERT]    (1) : config : parsing [t.cfg:15] : cookie 'preserve' requires at least 'insert' or 'indirect'.
                [ALERT]    (1) : config : parsing [t.cfg:16]: 'maxidle' expects <idletime> in seconds as argument.
                [ALERT]    (1) : config : parsing [t.cfg:17]: unexpected character 'x' in argument to <maxidle>.
                [ALERT]    (1) : config : parsing [t.cfg:18]: timer overflow in argument <3000000000> to <maxlife>, maximum value is 2147483647 s (~68 years).
                [ALERT]    (1) : config : parsing [t.cfg:19]: 'domain' expects <domain> as argument.
                [ALERT]    (1) : config : parsing [t.cfg:20]: character ',' is not permitted in domain name 'a,b.com'.
                [ALERT]    (1) : config : parsing [t.cfg:21]: 'attr' expects <value> as argument.
                [ALERT]    (1) : config : parsing [t.cfg:22]: character '%x3B' is not permitted in attribute value.
                [ALERT]    (1) : config : parsing [t.cfg:23] : 'dynamic-cookie-key' expects <secret_key> as argument.
                [ALERT]    (1) : config : parsing [t.cfg:24] : 'force-persist' requires either 'if' or 'unless' followed by a condition.
                [ALERT]    (1) : config : parsing [t.cfg:25] : 'ignore-persist' requires either 'if' or 'unless' followed by a condition.
                [ALERT]    (1) : config : parsing [t.cfg:26] : 'option persist' cannot handle unexpected argument 'foo'.
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }

    @Test
    void rdpCookieAndHashErrors() {
        assertThat(LoadedConfig.load(dir, HEAD + """
                    persist
                    persist foo
                    persist rdp-cookie(
                    persist rdp-cookie()
                    balance rdp-cookie(
                    balance rdp-cookiex
                    balance hash
                    balance hash req.cook(x) foo
                    persist rdp-cookie(x)
                    balance rdp-cookie(y) ignored
                    balance hash req.cook(x)
                """).messages()).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:11] : missing persist method.
                [ALERT]    (1) : config : parsing [t.cfg:12] : unknown persist method.
                [ALERT]    (1) : config : parsing [t.cfg:13] : persist rdp-cookie(name)' requires an rdp cookie name.
                [ALERT]    (1) : config : parsing [t.cfg:14] : persist rdp-cookie(name)' requires an rdp cookie name.
                [ALERT]    (1) : config : parsing [t.cfg:15] : balance rdp-cookie : missing cookie name.
                [ALERT]    (1) : config : parsing [t.cfg:16] : balance rdp-cookie : missing cookie name.
                [ALERT]    (1) : config : parsing [t.cfg:17] : balance hash requires a sample expression.
                [ALERT]    (1) : config : parsing [t.cfg:18] : balance hash takes no other argument (got 'foo').
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }

    @Test
    void misplacedKeywords() {
        assertThat(LoadedConfig.load(dir, """
                defaults
                    mode http
                    force-persist if TRUE
                """).messages()).contains("[ALERT]    (1) : config : parsing [t.cfg:3] : 'force-persist' not allowed in 'defaults' section.");
        assertThat(LoadedConfig.load(dir, """
                defaults
                    mode tcp
                    timeout client 1s
                    timeout server 1s
                    timeout connect 1s
                listen l
                    bind :18001
                    cookie S insert
                    server s1 127.0.0.1:1 cookie a
                """).messages()).isEqualTo("""
                [WARNING]  (1) : config : cookie will be ignored for proxy 'l' (needs 'mode http').
                [WARNING]  (1) : config : proxy 'l' : ignoring cookie for server 's1' as HTTP mode is disabled.
                """);
    }
}
