package io.fulcrum.cfg;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.CharRange;
import net.jqwik.api.constraints.Chars;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Expected words and errors are those HAProxy 2.6.12 gives for the same lines (checked with haproxy -c). */
class LexerTest {
    private static final Environment ENV = new Environment(Map.of(
            "FOO", "foo", "FOO1", "one", "EMPTY", "", "LIST", "a b  c", "SP", "  ", "LEAD", " a", "TABS", "a\tb\nc"));

    private static List<String> words(String raw) throws ConfigException {
        return Lexer.tokenize(raw, ENV).stream().map(Token::text).toList();
    }

    private static Lexer.LexException error(String raw) {
        try {
            Lexer.tokenize(raw, ENV);
        } catch (Lexer.LexException e) {
            return e;
        } catch (ConfigException e) {
            throw new AssertionError("not a tokenizer error", e);
        }
        throw new AssertionError("no error for " + raw);
    }

    @Test
    void splitsOnBlanksAndDropsIndentationAndComments() throws ConfigException {
        assertThat(words("  bind :80   # the front")).containsExactly("bind", ":80");
        assertThat(words("a\tb\u000bc\fd")).containsExactly("a", "b", "c", "d");
        assertThat(words("a#b")).containsExactly("a");
        assertThat(words("   ")).isEmpty();
        assertThat(words("# only a comment")).isEmpty();
        assertThat(words("")).isEmpty();
    }

    @Test
    void carriageReturnEndsTheLineEvenInsideQuotes() throws ConfigException {
        assertThat(words("x\ry")).containsExactly("x");
        assertThat(words("\r.notice z")).containsExactly(".notice", "z");
        assertThat(error(".notice \"\ra\" ").getMessage()).isEqualTo("unmatched quote");
    }

    @Test
    void quotesJoinAndProtect() throws ConfigException {
        assertThat(words("a\"b c\"d")).containsExactly("ab cd");
        assertThat(words("a'b'\"c\"\\'")).containsExactly("abc'");
        assertThat(words("\"a#b\" 'c#d'")).containsExactly("a#b", "c#d");
        assertThat(words("\"'\" '\"'")).containsExactly("'", "\"");
        assertThat(words("'\\x41'\"\\x41\"")).containsExactly("\\x41A");
        assertThat(words("'${FOO}' '\\n'")).containsExactly("${FOO}", "\\n");
    }

    @Test
    void emptyQuotesMakeAnEmptyWord() throws ConfigException {
        assertThat(words("a \"\" b ''")).containsExactly("a", "", "b", "");
        assertThat(words("\"\"")).containsExactly("");
    }

    @Test
    void backslashEscapes() throws ConfigException {
        assertThat(words("a\\ b\\#c\\\\d\\'e\\\"f")).containsExactly("a b#c\\d'e\"f");
        assertThat(words("\\t\\r\\n\\x41\\x7e\\xFF")).containsExactly("\t\r\nA~\u00ff");
        assertThat(words("\"a\\ b\\$c\\#d\\te\\x41\"")).containsExactly("a b$c#d\teA");
    }

    @Test
    void aBackslashBeforeAnythingElseStays() throws ConfigException {
        assertThat(words("\\a\\b \"\\a\\z\"")).containsExactly("\\a\\b", "\\a\\z");
        assertThat(words("\\$x")).containsExactly("\\$x");
        assertThat(words("x\\")).containsExactly("x\\");
        assertThat(words("\\X41")).containsExactly("\\X41");
        // Contrary to the documentation's table, backslash-tab is not an escape.
        assertThat(words("a\\\tb")).containsExactly("a\\", "b");
        assertThat(words("\"a\\\tb\"")).containsExactly("a\\\tb");
    }

    @Test
    void aNulMadeByAnEscapeEndsTheWord() throws ConfigException {
        assertThat(words("a\\x00b c")).containsExactly("a", "c");
    }

    @Test
    void variablesAreExpandedOnlyInsideDoubleQuotes() throws ConfigException {
        assertThat(words("a${FOO}b $FOO 'x$FOO'")).containsExactly("a${FOO}b", "$FOO", "x$FOO");
        assertThat(words("\"a${FOO}b\" \"a$FOO-b\" \"$FOO.bar$FOO1$FOO_\"")).containsExactly("afoob", "afoo-b", "foo.barone");
    }

    @Test
    void defaultsReplaceOnlyUndefinedVariables() throws ConfigException {
        assertThat(words("\"<${NOPE}>\" \"<${NOPE-def}>\" \"<${EMPTY-def}>\" \"<${NOPE-}>\""))
                .containsExactly("<>", "<def>", "<>", "<>");
        // The default runs to the first '}' and is taken as it is.
        assertThat(words("\"${NOPE-a}b}\" \"${NOPE-${FOO}}\" \"${NOPE-a\"b}\" \"${NOPE-a b}\" \"${NOPE-a\\}b}\""))
                .containsExactly("ab}", "${FOO}", "a\"b", "a b", "a\\b}");
    }

    @Test
    void starSuffixSpreadsAValueOverWords() throws ConfigException {
        assertThat(words("\"${LIST[*]}\"")).containsExactly("a", "b", "c");
        assertThat(words("\"x${LIST[*]}y\" z")).containsExactly("xa", "b", "cy", "z");
        assertThat(words("\"${TABS[*]}\"")).containsExactly("a", "b", "c");
        assertThat(words("\"${LEAD[*]}\" x")).containsExactly("", "a", "x");
        assertThat(words("\"${SP[*]}\" x")).containsExactly("", "", "x");
        assertThat(words("\"${NOPE[*]}\" x")).containsExactly("", "x");
        assertThat(words("\"${NOPE[*]-x  y}\" \"${NOPE-x  y[*]}\"")).containsExactly("x", "y", "x  y[*]");
        assertThat(words("\"$FOO[*]\"")).containsExactly("foo[*]");
    }

    @Test
    void pseudoVariables() throws ConfigException {
        var vars = Lexer.variables(ENV, "haproxy.cfg", 12, "front");
        List<String> words = Lexer.split("\"${.FILE}:$.LINE:${.SECTION}\" \"$.LINE.x\" \"${.LINE-0}\"", 0, vars)
                .tokens().stream().map(Token::text).toList();
        assertThat(words).containsExactly("haproxy.cfg:12:front", "12.x", "12");
    }

    @Test
    void wordsKnowTheirColumn() throws ConfigException {
        assertThat(Lexer.tokenize("  bind  \":80\" x", ENV))
                .containsExactly(new Token("bind", 2), new Token(":80", 8), new Token("x", 14));
    }

    @Test
    void trailingBlanksShowInTheJoinedConditionLikeHaproxysExtraEmptyWord() throws ConfigException {
        Lexer.Words trailing = Lexer.split(".if 1 junk  # c", 0, name -> null);
        assertThat(trailing.tokens()).extracting(Token::text).containsExactly(".if", "1", "junk");
        assertThat(trailing.join(1)).isEqualTo("1 junk ");
        assertThat(Lexer.split(".if 1 junk#c", 0, name -> null).join(1)).isEqualTo("1 junk");
        assertThat(Lexer.split(".if   ", 0, name -> null).join(1)).isEmpty();
        assertThat(Lexer.split(".if \"\" \"\"", 0, name -> null).join(1)).isEqualTo(" ");
        // From column 0 (as -cc does), leading blanks make an empty first word.
        assertThat(Lexer.split(" ", 0, name -> null).join(0)).isEqualTo(" ");
        assertThat(Lexer.split(" 1", 0, name -> null).join(0)).isEqualTo(" 1");
    }

    @Test
    void unmatchedQuotePointsAtTheOpeningQuote() {
        Lexer.LexException e = error("  .notice \"a\"  \"x");
        assertThat(e.problem()).isEqualTo(Lexer.Problem.QUOTE);
        assertThat(e.getMessage()).isEqualTo("unmatched quote");
        assertThat(e.column()).isEqualTo(15);
        assertThat(error(".notice x'").column()).isEqualTo(9);
        assertThat(error(".notice \"x\\").column()).isEqualTo(8);
    }

    @Test
    void badHexEscapePointsAtTheBackslash() {
        for (String raw : List.of(".notice \\x4", ".notice \\xZZ", ".notice \\x", ".notice \\x4g")) {
            Lexer.LexException e = error(raw);
            assertThat(e.getMessage()).isEqualTo("truncated or invalid hexadecimal sequence");
            assertThat(e.column()).isEqualTo(8);
        }
        assertThat(error(".notice \"\\x4\"").column()).isEqualTo(9);
    }

    @Test
    void badVariableNames() {
        Lexer.LexException dollar = error("  .notice \"$\"");
        assertThat(dollar.getMessage()).isEqualTo("forbidden first char in environment variable name");
        assertThat(dollar.column()).isEqualTo(12);
        assertThat(error(".notice \"<${}>\"").column()).isEqualTo(12);
        assertThat(error(".notice \"<${1}>\"").column()).isEqualTo(12);
        assertThat(error(".notice \"<${-x}>\"").column()).isEqualTo(12);
        assertThat(error(".notice \"abc$").column()).isEqualTo(13);
        assertThat(error(".notice \"<$\u00e9>\"").column()).isEqualTo(11);
    }

    @Test
    void anUnknownPseudoVariableCutsTheShownLineAfterItsName() {
        Lexer.LexException e = error(".notice \"<${.NOPE}>\"");
        assertThat(e.getMessage()).isEqualTo("forbidden first char in environment variable name");
        assertThat(e.column()).isEqualTo(12);
        assertThat(e.shown()).isEqualTo(".notice \"<${.NOPE");
        assertThat(error(".notice \"$.LINEx\" z").shown()).isEqualTo(".notice \"$.LINEx");
    }

    @Test
    void badBraces() {
        for (String raw : List.of(".notice \"<${FOO bar}>\"", ".notice \"<${FOO:-x}>\"", ".notice \"<${FOO[*]x}>\"",
                ".notice \"<${NOPE-abc\"")) {
            Lexer.LexException e = error(raw);
            assertThat(e.getMessage()).isEqualTo("unmatched brace in environment variable name");
            assertThat(e.column()).as(raw).isEqualTo(11);
        }
        for (String raw : List.of(".notice \"<${FOO[x]}>\"", ".notice \"<${FOO[\"", ".notice \"<${FOO[*\"")) {
            Lexer.LexException e = error(raw);
            assertThat(e.getMessage()).isEqualTo("truncated or invalid word expansion sequence");
            assertThat(e.column()).isEqualTo(15);
        }
    }

    @Test
    void atMost64WordsAndNotEvenBlanksAfterTheLast() throws ConfigException {
        StringBuilder line = new StringBuilder(".notice");
        for (int i = 1; i <= 63; i++) {
            line.append(" w").append(i);
        }
        assertThat(words(line.toString())).hasSize(64);
        for (String tail : List.of(" w64", "   ", " #x")) {
            Lexer.LexException e = error(line + tail);
            assertThat(e.problem()).isEqualTo(Lexer.Problem.TOO_MANY_WORDS);
            assertThat(e.getMessage()).isEqualTo("too many words, truncating after word 64, position 248: <w63>.");
        }
    }

    @Test
    void tooManyWordsCountsPositionsInTheExpandedWords() {
        // HAProxy's position is an offset in its buffer of expanded words, not in the line.
        StringBuilder line = new StringBuilder(".notice   \"w1\"    w2");
        for (int i = 3; i <= 64; i++) {
            line.append(" w").append(i);
        }
        assertThat(error(line.toString()).getMessage())
                .isEqualTo("too many words, truncating after word 64, position 248: <w63>.");
        StringBuilder spread = new StringBuilder(".notice \"${LIST[*]}\"");
        for (int i = 1; i <= 61; i++) {
            spread.append(" w").append(i);
        }
        assertThat(error(spread.toString()).getMessage())
                .isEqualTo("too many words, truncating after word 64, position 242: <w60>.");
    }

    @Test
    void indentIsEveryLeadingCSpace() {
        assertThat(Lexer.indent(" \t\u000b\f\r.x ")).isEqualTo(5);
        assertThat(Lexer.indent("")).isZero();
    }

    /** Any other exception escapes and fails the property. */
    @Property
    void tokenizeThrowsNothingButConfigException(@ForAll @StringLength(max = 200) String raw) {
        try {
            Lexer.tokenize(raw, ENV);
        } catch (ConfigException e) {
            assertThat(e.getMessage()).isNotBlank();
        }
    }

    /** The same on lines made of the characters the tokenizer cares about, where the corner cases are. */
    @Property
    void tokenizeThrowsNothingButConfigExceptionOnSyntax(@ForAll @StringLength(max = 120)
            @Chars({' ', '\t', '"', '\'', '\\', '$', '{', '}', '[', ']', '*', '-', '#', '.', '_', '\r', '\0'})
            @CharRange(from = 'A', to = 'F') String raw) {
        tokenizeThrowsNothingButConfigException(raw);
    }
}
