package io.fulcrum.cfg;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.CharRange;
import net.jqwik.api.constraints.Chars;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

/** Expected values and messages are those of HAProxy 2.6.12 (haproxy -cc, .if in haproxy -c). */
class ConditionTest {
    private static final Map<String, String> VARS = Map.of("FOO", "foo", "EMPTY", "", "SSL", "yes");
    private static final Environment ENV = new Environment(VARS);

    private static boolean eval(String expression) throws ConfigException {
        return Condition.evaluate(expression, ENV);
    }

    private static ConfigException error(String expression) {
        try {
            Condition.evaluate(expression, ENV);
        } catch (ConfigException e) {
            return e;
        }
        throw new AssertionError("no error for " + expression);
    }

    @Test
    void integers() throws ConfigException {
        assertThat(eval("")).isFalse();
        assertThat(eval("0")).isFalse();
        assertThat(eval("00")).isFalse();
        assertThat(eval("-0")).isFalse();
        assertThat(eval("0x0")).isFalse();
        assertThat(eval("1")).isTrue();
        assertThat(eval("-1")).isTrue();
        assertThat(eval("+1")).isTrue();
        assertThat(eval("0x10")).isTrue();
        assertThat(eval("010")).isTrue();
        assertThat(eval("9999999999999999999999")).isTrue();
        assertThat(eval(" 1 ")).isTrue();
    }

    @Test
    void operators() throws ConfigException {
        assertThat(eval("!0")).isTrue();
        assertThat(eval("! 1")).isFalse();
        assertThat(eval("!!1")).isTrue();
        assertThat(eval("! !1")).isTrue();
        assertThat(eval("( 1 )")).isTrue();
        assertThat(eval("!(0)")).isTrue();
        assertThat(eval("1&&0")).isFalse();
        assertThat(eval("0||1")).isTrue();
        assertThat(eval("1\t&&\t1")).isTrue();
        // && binds tighter than ||.
        assertThat(eval("1 || 0 && 0")).isTrue();
        assertThat(eval("0 && 1 || 1")).isTrue();
        assertThat(eval("0 || 1 && 0")).isFalse();
        assertThat(eval("(0 || 1) && 0")).isFalse();
    }

    @Test
    void predicates() throws ConfigException {
        assertThat(eval("defined(FOO) && defined(EMPTY) && !defined(NOPE)")).isTrue();
        assertThat(eval("defined()")).isFalse();
        assertThat(eval("defined")).isFalse();
        assertThat(eval("defined( FOO )")).isFalse();
        assertThat(eval("feature(EPOLL) && !feature(KQUEUE) && !feature(epoll) && !feature(EPOL)")).isTrue();
        // TLS is built in, as in the usual haproxy packages (configuration.txt's ".if !feature(OPENSSL)" example).
        assertThat(eval("feature(OPENSSL) && feature(PROMEX)")).isTrue();
        // HAProxy 2.6 finds an empty feature name.
        assertThat(eval("feature()")).isTrue();
        assertThat(eval("feature")).isTrue();
        assertThat(eval("streq(a,a) && !streq(a,b) && strneq(a,b) && !strneq(a,a)")).isTrue();
        assertThat(eval("streq(,)")).isTrue();
        assertThat(eval("streq(a,)")).isFalse();
        assertThat(eval("streq( a , a )")).isTrue();
        assertThat(eval("streq(a ,a)")).isFalse();
        assertThat(eval("streq(a(b,a(b)")).isTrue();
    }

    @Test
    void predicateArgumentsHaveTheirOwnQuotingLevel() throws ConfigException {
        assertThat(eval("streq(\"a,b\",'a,b')")).isTrue();
        assertThat(eval("streq(\"a)\",\"a)\")")).isTrue();
        assertThat(eval("streq(a\"b\"c,abc)")).isTrue();
        assertThat(eval("streq(\"a\\\"b\",a\\\"b)")).isTrue();
        assertThat(eval("streq(a\\ b,a b)")).isTrue();
        assertThat(eval("streq(a\\tb,\"a\tb\")")).isTrue();
        assertThat(eval("streq(a\\\\b,a\\b)")).isTrue();
        // \#, \$ and \xNN are not escapes at this level.
        assertThat(eval("streq(a\\#b,a#b)")).isFalse();
        assertThat(eval("streq(a\\$b,a$b)")).isFalse();
        assertThat(eval("streq(\\x41,A)")).isFalse();
    }

    @Test
    void versionsCompareWithTheLanguageLevel() throws ConfigException {
        assertThat(io.fulcrum.Version.HAPROXY).isEqualTo("2.6.12");
        assertThat(eval("version_atleast(2.6) && version_atleast(2.6.12) && version_atleast(2.6.12.0)")).isTrue();
        assertThat(eval("version_atleast(2.6.13) || version_atleast(2.6.12.1) || version_atleast(3)")).isFalse();
        assertThat(eval("version_before(2.7) && version_before(2.6.13) && !version_before(2.6.12)")).isTrue();
        assertThat(eval("version_atleast(2.4-dev19) && version_atleast(2.6.12-dev1) && version_atleast(2.6.12-rc1)")).isTrue();
        assertThat(eval("version_atleast(3.) || version_atleast(2.-6)")).isFalse();
        // A last numeric part counts commits after the release.
        assertThat(eval("version_atleast(2.6.12-1) || version_atleast(2.6.12-abc-1)")).isFalse();
        assertThat(eval("version_atleast(2.6.12-1x) && version_atleast(2.6.12-dev1-5)")).isTrue();
        // Numbers are 32 bits.
        assertThat(eval("version_atleast(2.6.4294967308)")).isTrue();
        // Unparsable: at least, never before.
        for (String bad : List.of("abc", "", "2.6.13 ", "2.6.13x", "2.6.13.0.0", "2.6.13-dev1x", "2.6.13-1-", "2..6", "0x3")) {
            assertThat(eval("version_atleast(" + bad + ")")).as(bad).isTrue();
            assertThat(eval("version_before(" + bad + ")")).as(bad).isFalse();
        }
    }

    @Test
    void expressionErrorsPointIntoTheExpression() {
        assertError("1 junk", "unexpected character 'j' at the end of conditional expression '1 junk'", 2);
        assertError("08", "unexpected character '8' at the end of conditional expression '08'", 1);
        assertError("0x", "unexpected character 'x' at the end of conditional expression '0x'", 1);
        assertError("defined (FOO)", "unexpected character '(' at the end of conditional expression 'defined (FOO)'", 8);
        assertError("a", "unparsable conditional expression 'a'", 0);
        assertError("1 || bad", "unparsable conditional expression 'bad'", 5);
        assertError("1 &&   bad", "unparsable conditional expression 'bad'", 7);
        assertError("1 && ", "unparsable conditional expression '&& '", 2);
        assertError("&& 1", "unparsable conditional expression '&& 1'", 0);
        assertError(" !foo", "unparsable conditional expression ' !foo'", 0);
        assertError("!", "unparsable conditional expression '!'", 0);
        assertError("-", "unparsable conditional expression '-'", 0);
        assertError("DEFINED(FOO)", "unparsable conditional expression 'DEFINED(FOO)'", 0);
        assertError("( )", "unparsable conditional expression ')'", 2);
        assertError("1 || (", "unparsable conditional expression '('", 5);
        assertError("!(", "unparsable conditional expression '!('", 0);
        assertError("(1 x", "expected ')' after conditional expression '(1 x'", 0);
        assertError("1 && (1 || 0", "expected ')' after conditional expression '(1 || 0'", 5);
        assertError("  ", "unparsable conditional sub-expression '  '", 0);
    }

    @Test
    void predicateArgumentErrors() {
        String in = " in argument 1 of predicate '%s' used in conditional expression";
        assertError("streq(a)", "missing arguments (got 1/2), type 'string' expected" + in.formatted("streq"), 7);
        assertError("streq()", "missing arguments (got 1/2), type 'string' expected" + in.formatted("streq"), 6);
        assertError("streq(a", "missing arguments (got 1/2), type 'string' expected" + in.formatted("streq"), 7);
        assertError("streq || 1", "missing arguments (got 1/2), type 'string' expected" + in.formatted("streq"), 5);
        assertError("streq(a,b,c)", "expected ')' before ',c)'" + in.formatted("streq"), 9);
        assertError("defined(FOO,x)", "expected ')' before ',x)'" + in.formatted("defined"), 11);
        assertError("streq(a,b", "expected ')'" + in.formatted("streq"), 9);
        assertError("defined(", "expected ')'" + in.formatted("defined"), 8);
        assertError("streq(a\\)b,a\\)b)", "missing arguments (got 1/2), type 'string' expected" + in.formatted("streq"), 8);
    }

    @Test
    void deepNestingIsRefusedNotOverflowed() throws ConfigException {
        assertThat(eval("(".repeat(340) + "1" + ")".repeat(340))).isTrue();
        assertError("(".repeat(341) + "1" + ")".repeat(341),
                "unparsable conditional sub-expression '1" + ")".repeat(341) + "'", 341);
        assertThat(error("(".repeat(100_000)).getMessage()).startsWith("unparsable conditional sub-expression '(((");
        assertThat(eval("!".repeat(100_001) + "0")).isTrue();
    }

    private static void assertError(String expression, String message, int column) {
        ConfigException e = error(expression);
        assertThat(e.getMessage()).isEqualTo(message);
        assertThat(e.column()).as("column of the error in '%s'", expression).isEqualTo(column);
    }

    @Test
    void commandLineTokenizesFirst() throws ConfigException {
        assertThat(Condition.commandLine("\"1\"", ENV)).isTrue();
        assertThat(Condition.commandLine("streq(\"$FOO\",foo) && streq(\"${.LINE}\",0)", ENV)).isTrue();
        assertThat(Condition.commandLine("", ENV)).isFalse();
        assertThat(Condition.commandLine(" 1", ENV)).isTrue();
        // Top-level quotes go first: this reaches the predicate as streq(a,b,a,b).
        assertThatThrownBy(() -> Condition.commandLine("streq(\"a,b\",\"a,b\")", ENV))
                .hasMessage("Failed to evaluate condition: expected ')' before ',a,b)' in argument 1 of predicate 'streq'"
                        + " used in conditional expression");
    }

    @Test
    void commandLineErrors() {
        assertCommandLineError(" ", "Failed to evaluate condition: unparsable conditional sub-expression ' '");
        assertCommandLineError("1a", "Failed to evaluate condition: unexpected character 'a' at the end of conditional expression '1a'");
        assertCommandLineError("streq(a\\\"b,a\"b)", "Syntax Error in condition: Unmatched quote.");
        assertCommandLineError("\"\\x4\"", "Syntax Error in condition: Truncated or invalid hexadecimal sequence.");
        assertCommandLineError("\"$\"", "Unhandled error in condition, please report this to the developers.");
        assertCommandLineError("1" + " || 1".repeat(40), "Error in condition: Too many words.");
    }

    private static void assertCommandLineError(String text, String message) {
        assertThatThrownBy(() -> Condition.commandLine(text, ENV)).isInstanceOf(ConfigException.class).hasMessage(message);
    }

    /** The same expressions through {@code haproxy -cc}: same status, same message. */
    @Test
    void commandLineAgreesWithHaproxy() throws Exception {
        assumeThat(HaproxyOracle.available()).as("haproxy installed").isTrue();
        List<String> expressions = new ArrayList<>(List.of("", "0", "1", "08", "0x", " ", "1 junk", "!", "(1", "1 && ",
                "&& 1", "( )", "!(", "a", "defined(FOO)", "defined(NOPE)", "defined(FOO,x)", "feature(EPOLL)",
                "feature(KQUEUE)", "feature()", "streq(a)", "streq(a,b,c)", "streq(a,b", "streq || 1", "streq(\"$FOO\",foo)",
                "'streq(\"a,b\",\"a,b\")'", "'streq(a\\ b,a\\\\ b)'", "'streq(a\\#b,a#b)'", "streq(a\\\"b,a\"b)", "\"$\"",
                "\"\\x4\"", "version_atleast(2.6.12-1)", "version_atleast(2.6.13-foo)", "version_atleast(2.6.13.0.0)",
                "version_before(2.-6)", "version_atleast(3.)", "(".repeat(341) + "1" + ")".repeat(341)));
        for (String expression : expressions) {
            int status;
            String output;
            try {
                status = Condition.commandLine(expression, ENV) ? 0 : 1;
                output = "";
            } catch (ConfigException e) {
                status = 2;
                output = "[ALERT]    (PID) : config : " + e.getMessage() + "\n";
            }
            HaproxyOracle.Result oracle = HaproxyOracle.run(VARS, "-cc", expression);
            assertThat(status).as("status of -cc '%s'", expression).isEqualTo(oracle.status());
            assertThat(output).as("output of -cc '%s'", expression).isEqualTo(oracle.output());
        }
    }

    /** Any other exception escapes and fails the property. */
    @Property
    void evaluateThrowsNothingButConfigException(@ForAll @StringLength(max = 80)
            @Chars({' ', '!', '(', ')', '&', '|', ',', '"', '\'', '\\', '0', '1', '-', '.', 'x'})
            @CharRange(from = 'a', to = 'z') String expression) {
        for (String e : List.of(expression, "streq(" + expression, "version_before(" + expression + ")")) {
            try {
                Condition.evaluate(e, ENV);
                Condition.commandLine(e, ENV);
            } catch (ConfigException ex) {
                assertThat(ex.getMessage()).isNotBlank();
            }
        }
    }
}
