package io.fulcrum.cfg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

class HaproxyKeywordsTest {

    @Test
    void globalKeywords() {
        assertThat(HaproxyKeywords.all("global")).contains("maxconn", "nbthread", "daemon", "pidfile",
                "hard-stop-after", "stats", "log", "tune.bufsize", "zero-warning", "quiet", "master-worker",
                "setenv", "localpeer", "ssl-default-bind-ciphers", "tune.ssl.capture-cipherlist-size");
    }

    @Test
    void proxyKeywordsAreFirstWords() {
        assertThat(HaproxyKeywords.all("proxy")).contains("bind", "server", "default-server",
                "default_backend", "use_backend", "balance", "mode", "timeout", "option", "retries", "stats",
                "tcp-request", "http-request", "capture", "no", "maxconn", "dynamic-cookie-key");
        assertThat(HaproxyKeywords.all("proxy")).allSatisfy(k -> assertThat(k).doesNotContain(" "));
        assertThat(HaproxyKeywords.knows("proxy", "tcp-resposne")).as("typo in HAProxy's documentation").isFalse();
    }

    @Test
    void multiWordProxyKeywords() {
        assertThat(HaproxyKeywords.all("option")).contains("tcpka", "splice-auto", "httplog", "redispatch",
                "clitcpka", "srvtcpka", "nolinger", "http-server-close", "forwardfor");
        assertThat(HaproxyKeywords.all("timeout")).contains("connect", "client", "server", "tunnel",
                "client-fin", "server-fin", "queue", "http-request", "check");
        assertThat(HaproxyKeywords.all("stats")).contains("enable", "uri", "auth", "realm", "show-modules");
    }

    @Test
    void bindAndServerOptions() {
        assertThat(HaproxyKeywords.all("bind")).contains("accept-proxy", "defer-accept", "tfo", "v4v6",
                "v6only", "ssl", "crt", "name", "backlog", "interface", "expose-fd", "uid", "gid");
        assertThat(HaproxyKeywords.all("server")).contains("check", "send-proxy", "send-proxy-v2", "weight",
                "backup", "init-addr", "disabled", "inter", "no-check");
        assertThat(HaproxyKeywords.knows("bind", "weight")).isFalse();
        assertThat(HaproxyKeywords.knows("server", "accept-proxy")).isFalse();
    }

    @Test
    void commandLineFlags() {
        assertThat(HaproxyKeywords.all("flag")).contains("-f", "-c", "-D", "-d", "-db", "-sf", "-st", "-cc",
                "-v", "-vv", "-V", "-q", "-p", "-N", "-L", "-C", "-dM", "-W", "-Ws", "--");
        assertThat(HaproxyKeywords.knows("flag", "-z")).isFalse();
    }

    @Test
    void sectionsAndTheirKeywords() {
        assertThat(HaproxyKeywords.all("section")).containsExactlyInAnyOrder("global", "defaults", "frontend",
                "backend", "listen", "userlist", "peers", "mailers", "program", "http-errors", "ring",
                "log-forward", "resolvers", "cache", "fcgi-app");
        assertThat(HaproxyKeywords.all("userlist")).containsExactly("group", "user");
        assertThat(HaproxyKeywords.all("peers")).contains("peer", "bind", "server", "table");
        assertThat(HaproxyKeywords.all("resolvers")).contains("nameserver", "parse-resolv-conf", "timeout");
        assertThat(HaproxyKeywords.all("mailers")).containsExactly("mailer", "timeout");
        assertThat(HaproxyKeywords.all("cache")).contains("total-max-size", "max-age");
        assertThat(HaproxyKeywords.all("http-errors")).containsExactly("errorfile");
        assertThat(HaproxyKeywords.all("ring")).contains("size", "format", "server");
        assertThat(HaproxyKeywords.all("program")).contains("command");
        assertThat(HaproxyKeywords.all("log-forward")).contains("dgram-bind", "bind");
        assertThat(HaproxyKeywords.all("fcgi-app")).contains("docroot", "set-param");
        // The map converters are documented as templates; these are the 29 names haproxy 2.6 knows.
        assertThat(HaproxyKeywords.all("converter")).contains("lower", "set-var", "regsub", "map", "map_regm", "map_beg_ip",
                "map_ip_int").filteredOn(k -> k.startsWith("map")).hasSize(29);
    }

    @Test
    void fabricatedNamesAreUnknown() {
        for (String context : HaproxyKeywords.contexts()) {
            assertThat(HaproxyKeywords.knows(context, "frobnicate")).isFalse();
            assertThat(HaproxyKeywords.knows(context, "")).isFalse();
        }
        assertThat(HaproxyKeywords.knows("global", "maxconns")).isFalse();
        assertThat(HaproxyKeywords.knows("global", "bind")).isFalse();
        assertThat(HaproxyKeywords.knows("proxy", "tcpka")).isFalse();
        assertThat(HaproxyKeywords.knows("option", "option")).isFalse();
        assertThat(HaproxyKeywords.knows("Global", "maxconn")).as("contexts are case-sensitive").isFalse();
        assertThat(HaproxyKeywords.knows("no-such-context", "maxconn")).isFalse();
        assertThat(HaproxyKeywords.all("no-such-context")).isEmpty();
    }

    @Test
    void listsAreSortedAndImmutable() {
        assertThat(HaproxyKeywords.contexts()).isSorted().contains("global", "proxy", "option", "timeout",
                "stats", "bind", "server", "flag", "section");
        for (String context : HaproxyKeywords.contexts()) {
            List<String> all = HaproxyKeywords.all(context);
            assertThat(all).as(context).isNotEmpty().isSorted().doesNotHaveDuplicates();
            assertThat(all).allSatisfy(k -> assertThat(HaproxyKeywords.knows(context, k)).isTrue());
        }
        assertThatThrownBy(() -> HaproxyKeywords.all("global").add("x"))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void resourceIsSortedAndWellFormed() throws IOException {
        String text;
        try (InputStream in = HaproxyKeywords.class.getResourceAsStream(HaproxyKeywords.RESOURCE)) {
            assertThat(in).isNotNull();
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        List<String> lines = text.lines().filter(l -> !l.startsWith("#")).toList();
        assertThat(lines).isNotEmpty().doesNotHaveDuplicates()
                .allSatisfy(l -> assertThat(l).matches("[a-z-]+ \\S+"));
        assertThat(lines).isSortedAccordingTo((a, b) -> {
            String[] x = a.split(" ");
            String[] y = b.split(" ");
            int c = x[0].compareTo(y[0]);
            return c != 0 ? c : x[1].compareTo(y[1]);
        });
    }
}
