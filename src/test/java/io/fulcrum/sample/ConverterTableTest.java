package io.fulcrum.sample;

import io.fulcrum.Modules;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.Registry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Table-driven converter tests: a subclass gives a table of results and one of errors. Each line of a table
 * is {@code expression => expected}, evaluated without a
 * stream (only proc variables exist). Results read {@code type:value}: booleans as 0 or 1, binary in upper-case hex, strings with
 * bytes outside printable ASCII, a backslash and a final space as {@code \xHH}, "none" when there is no
 * sample. Error tables give the message of the configuration error instead.
 */
abstract class ConverterTableTest {
    static final ExprParser PARSER = new ExprParser(SampleCatalog.of(Registry.of(Modules.ALL)));

    /** Lines {@code expression => type:value}. */
    abstract String results();

    /** Lines {@code expression => configuration error message}, or {@code expression => OK} when it is accepted. */
    abstract String errors();

    @TestFactory
    Stream<DynamicTest> evaluates() {
        return results(results());
    }

    @TestFactory
    Stream<DynamicTest> refuses() {
        return errors(errors());
    }

    /** The proc variables the tables refer to, as the haproxy runs that gave the expected values had them. */
    @BeforeAll
    static void setProcVars() throws ConfigException {
        String[][] vars = {
            {"i5", "int(5)"}, {"s12", "str(12)"}, {"sabc", "str(abc)"}, {"b", "bool(1)"}, {"ip", "ipv4(1.2.3.4)"},
            {"ip6", "ipv6(::1)"}, {"empty", "str()"}, {"abd", "str(abd)"},
            {"key", "str(my secret)"}, {"b64key", "str(bXkgc2VjcmV0)"},
        };
        for (String[] v : vars) {
            Sample s = new Sample();
            assertThat(PARSER.parse(v[1]).eval(null, s)).isTrue();
            Vars.PROC.set(v[0], s);
        }
        Sample bin = new Sample();
        bin.setBin(HexFormat.of().parseHex("86F7E437FAA5A7FCE15D1DDCB9EAEAEA377667B8")); // str(a),sha1
        Vars.PROC.set("bin", bin);
    }

    static String eval(String expr) throws ConfigException {
        Sample s = new Sample();
        return PARSER.parse(bytes(expr)).eval(null, s) ? show(s) : "none";
    }

    /** The text as the configuration reader gives it: one char per byte of its UTF-8 form. */
    private static String bytes(String text) {
        return new String(text.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
    }

    static String show(Sample s) {
        return switch (s.type()) {
            case BIN -> "bin:" + HexFormat.of().withUpperCase().formatHex(s.toByteArray());
            case STR, METH -> s.type() + ":" + escape(s.toByteArray());
            case IPV6 -> "ipv6:" + IpText.format6(s.bytes(), s.offset());
            case IPV4 -> "ipv4:" + IpText.format4(s.num());
            case BOOL -> "bool:" + (s.bool() ? 1 : 0);
            default -> s.type() + ":" + s.num();
        };
    }

    private static String escape(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < b.length; i++) {
            int c = b[i] & 0xff;
            boolean plain = c >= 0x20 && c < 0x7f && c != '\\' && !(c == ' ' && i == b.length - 1);
            sb.append(plain ? String.valueOf((char) c) : String.format("\\x%02X", c));
        }
        return sb.toString();
    }

    /** One test per line of {@code table}: the expression gives the expected result. */
    static Stream<DynamicTest> results(String table) {
        return lines(table).map(l -> {
            String[] p = l.split(" => ", 2);
            return DynamicTest.dynamicTest(p[0], () -> assertThat(eval(p[0])).as(p[0]).isEqualTo(p[1]));
        });
    }

    /** One test per line of {@code table}: the expression is refused with the expected message, or "OK" accepted. */
    static Stream<DynamicTest> errors(String table) {
        return lines(table).map(l -> {
            String[] p = l.split(" => ", 2);
            if (p[1].equals("OK")) {
                return DynamicTest.dynamicTest(p[0], () -> PARSER.parse(bytes(p[0])));
            }
            return DynamicTest.dynamicTest(p[0], () -> assertThatThrownBy(() -> PARSER.parse(bytes(p[0]))).as(p[0])
                    .isInstanceOf(ConfigException.class).hasMessage(bytes(p[1])));
        });
    }

    private static Stream<String> lines(String table) {
        return Arrays.stream(table.split("\n")).filter(l -> !l.isBlank() && !l.startsWith("#"));
    }
}
