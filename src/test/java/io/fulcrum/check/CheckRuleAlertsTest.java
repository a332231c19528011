package io.fulcrum.check;

import io.fulcrum.http.LoadedConfig;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each tcp-check and http-check rule of {@code check-rule-alerts.txt} (missing and bad arguments, words in any order,
 * forms haproxy accepts) alone in a backend: refused with the alert haproxy 2.6.12's {@code -c} printed for it, at its
 * line, or accepted as by haproxy. The table was made by running {@code haproxy -c} on each rule.
 */
class CheckRuleAlertsTest {
    @TempDir
    Path dir;

    @TestFactory
    Stream<DynamicTest> rulesAsHaproxyReadsThem() throws IOException {
        String table;
        try (InputStream in = CheckRuleAlertsTest.class.getResourceAsStream("check-rule-alerts.txt")) {
            table = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        return table.lines().filter(l -> !l.startsWith("#") && !l.isBlank()).map(l -> {
            String rule = l.substring(0, l.indexOf('\t'));
            String alert = l.substring(l.indexOf('\t') + 1).replace("\\n", "\n");
            return DynamicTest.dynamicTest(rule, () -> {
                boolean tcp = rule.startsWith("tcp-check");
                String messages = LoadedConfig.load(dir, LoadedConfig.HTTP_DEFAULTS + """
                        backend b
                            mode %s
                            option %s
                            %s
                        """.formatted(tcp ? "tcp" : "http", tcp ? "tcp-check" : "httpchk", rule)).messages();
                if (alert.equals("-")) {
                    assertThat(messages).as(rule).doesNotContain("[ALERT]");
                } else {
                    assertThat(messages).as(rule).contains("parsing [t.cfg:9] : " + alert + "\n");
                }
            });
        });
    }
}
