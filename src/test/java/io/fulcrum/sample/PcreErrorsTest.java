package io.fulcrum.sample;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.regex.PatternSyntaxException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** PCRE2's reasons and offsets for invalid regexes, as haproxy 2.6 reports them ("regex '...' is invalid (error=...)"). */
class PcreErrorsTest {

    /** Each regex and what haproxy 2.6.12 (PCRE2 10.42) says of it, from its own messages. */
    @Test
    void invalidRegexesHavePcre2sReasonAndOffset() {
        String[][] cases = {
                {"(foo", "missing closing parenthesis, erroffset=4"},
                {"[a-", "missing terminating ] for character class, erroffset=3"},
                {"[", "missing terminating ] for character class, erroffset=1"},
                {"*a", "quantifier does not follow a repeatable item, erroffset=0"},
                {"a**", "quantifier does not follow a repeatable item, erroffset=2"},
                {"^*", "quantifier does not follow a repeatable item, erroffset=1"},
                {"\\b+", "quantifier does not follow a repeatable item, erroffset=2"},
                {"\\", "\\ at end of pattern, erroffset=1"},
                {"x\\", "\\ at end of pattern, erroffset=2"},
                {"a{3,1}", "numbers out of order in {} quantifier, erroffset=5"},
                {"a{99999}", "number too big in {} quantifier, erroffset=7"},
                {"(?<n", "syntax error in subpattern name (missing terminator?), erroffset=4"},
                {"(?P<x", "syntax error in subpattern name (missing terminator?), erroffset=5"},
                {"(?<1a>x)", "subpattern name must start with a non-digit, erroffset=3"},
                {"[z-a]", "range out of order in character class, erroffset=3"},
                {"[a-\\d]", "invalid range in character class, erroffset=5"},
                {"a)", "unmatched closing parenthesis, erroffset=1"},
                {"\\8", "reference to non-existent subpattern, erroffset=1"},
                {"(a)\\2", "reference to non-existent subpattern, erroffset=4"},
                {"ab\\8", "reference to non-existent subpattern, erroffset=3"},
                {"(?z)", "unrecognized character after (? or (?-, erroffset=2"},
                {"[[:foo:]]", "unknown POSIX class name, erroffset=3"},
        };
        for (String[] c : cases) {
            assertThat(PcreErrors.of(c[0])).as(c[0]).hasToString("error=" + c[1]);
            assertThatThrownBy(() -> PcreRegex.compile(c[0], false)).as(c[0]).isInstanceOf(PatternSyntaxException.class)
                    .satisfies(e -> assertThat(PcreRegex.reason((PatternSyntaxException) e)).isEqualTo(" (error=" + c[1] + ")"));
        }
    }

    /** Regexes haproxy accepts: the scan finds nothing in them, and Java's engine compiles them (but for PCRE2's own forms). */
    @Test
    void validRegexesAreLeftToTheEngine() {
        List<String> valid = List.of("^/api/v[0-9]+/", "a{2", "x{,3}", "{x}", "a{2}b{1,}c{1,3}?d*+", "\\p{L}+\\x{41}", "[]a]", "[^]a]",
                "[a-]", "[\\w-a]", "[[]x", "[a&&b]", "^[[:digit:]]+$", "[[:^alpha:]]", "(?i)abc", "(?i:a)|(?-s:b)", "(?<name>x)\\k<name>",
                "(?=a)b(?!c)(?<=d)(?<!e)", "(?:a|b)+", "(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)\\10", "\\Q(*\\E+",
                "\\d+\\.\\d+", "a|b|", "(a)\\1", "\\(\\)", "\\cA");
        for (String re : valid) {
            assertThat(PcreErrors.of(re)).as(re).isNull();
            assertThat(PcreRegex.compile(re, false)).as(re).isNotNull();
        }
        for (String pcreOnly : List.of("(?P<n>a)(?P=n)", "(?'q'a)", "(?|(a)|(b))", "(?R)?", "a(*SKIP)b")) {
            assertThat(PcreErrors.of(pcreOnly)).as(pcreOnly).isNull();
            assertThatThrownBy(() -> PcreRegex.compile(pcreOnly, false)).as(pcreOnly).isInstanceOf(PatternSyntaxException.class);
        }
        assertThat(PcreRegex.compile("a{2", false).matcher("xa{2").find()).isTrue(); // a literal '{', as in PCRE2
        assertThat(PcreRegex.compile("\\p{L}+", false).matcher("é").find()).isTrue();
    }

    /** What the scan lets through and Java's engine refuses is reported with Java's reason, in PCRE2's form. */
    @Test
    void javasOwnErrorsKeepTheForm() {
        assertThatThrownBy(() -> PcreRegex.compile("\\p{Nope}", false)).isInstanceOf(PatternSyntaxException.class)
                .satisfies(e -> assertThat(PcreRegex.reason((PatternSyntaxException) e)).matches(" \\(error=.+, erroffset=\\d+\\)"));
    }
}
