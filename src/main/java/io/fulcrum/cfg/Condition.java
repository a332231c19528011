package io.fulcrum.cfg;

import io.fulcrum.Features;
import io.fulcrum.Version;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The conditions of {@code .if}/{@code .elif} and of the {@code -cc} command-line flag
 * (configuration.txt 2.4): integers (non-zero is true), the predicates {@code defined}, {@code feature},
 * {@code streq}, {@code strneq}, {@code version_atleast} and {@code version_before}, parentheses, '!',
 * '&&' and '||' ('&&' binding tighter). An empty condition is false. The whole expression is parsed
 * before it is evaluated, so a malformed branch is an error even when it would not be evaluated.
 */
public final class Condition {
    private Condition() {
    }

    /**
     * Evaluates an expression: for {@code .if}, the words after the directive joined by single spaces
     * ({@link Lexer.Words#join(int)}). Errors carry the 0-based index in {@code expression} they point at.
     */
    public static boolean evaluate(String expression, Environment env) throws ConfigException {
        if (expression.isEmpty()) {
            return false;
        }
        Parser parser = new Parser(expression, env);
        Boolean result = parser.or(MAX_DEPTH);
        if (result == null) {
            throw new ConfigException("unparsable conditional sub-expression '" + expression + "'", 0);
        }
        parser.skipSpaces();
        if (parser.pos < expression.length()) {
            throw new ConfigException("unexpected character '" + expression.charAt(parser.pos)
                    + "' at the end of conditional expression '" + expression + "'", parser.pos);
        }
        return result;
    }

    /**
     * Evaluates the argument of {@code haproxy -cc}: tokenized like a configuration line (quotes,
     * escapes, variables; .FILE and .SECTION are empty, .LINE is 0), then evaluated. The exception's
     * message is what HAProxy prints after "config : "; the caller exits with status 2.
     */
    public static boolean commandLine(String text, Environment env) throws ConfigException {
        Lexer.Words words;
        try {
            words = Lexer.split(text, 0, Lexer.variables(env, "", 0, ""));
        } catch (Lexer.LexException e) {
            throw new ConfigException(switch (e.problem()) {
                case QUOTE -> "Syntax Error in condition: Unmatched quote.";
                case HEX -> "Syntax Error in condition: Truncated or invalid hexadecimal sequence.";
                case TOO_MANY_WORDS -> "Error in condition: Too many words.";
                // HAProxy 2.6 has no message of its own for the variable errors.
                default -> "Unhandled error in condition, please report this to the developers.";
            });
        }
        try {
            return evaluate(words.join(0), env);
        } catch (ConfigException e) {
            throw new ConfigException("Failed to evaluate condition: " + e.getMessage());
        }
    }

    /**
     * Nesting budget: each level of parentheses costs 3 (expression, conjunction, term), so at most 340
     * levels, as in HAProxy, and no stack overflow from hostile input.
     */
    private static final int MAX_DEPTH = 1024;

    private enum Predicate {
        DEFINED("defined", 1), FEATURE("feature", 1), STREQ("streq", 2), STRNEQ("strneq", 2),
        VERSION_ATLEAST("version_atleast", 1), VERSION_BEFORE("version_before", 1);

        final String keyword;
        final int arity;

        Predicate(String keyword, int arity) {
            this.keyword = keyword;
            this.arity = arity;
        }

        static Predicate named(String name) {
            for (Predicate p : values()) {
                if (p.keyword.equals(name)) {
                    return p;
                }
            }
            return null;
        }

        boolean test(List<String> args, Environment env) {
            String a = args.get(0);
            return switch (this) {
                case DEFINED -> env.defined(a);
                // HAProxy 2.6 finds the empty name in any feature list.
                case FEATURE -> a.isEmpty() || Features.has(a);
                case STREQ -> a.equals(args.get(1));
                case STRNEQ -> !a.equals(args.get(1));
                // An unparsable version counts as older than the running one.
                case VERSION_ATLEAST -> Versions.compareToCurrent(a) >= 0;
                case VERSION_BEFORE -> Versions.compareToCurrent(a) < 0;
            };
        }
    }

    /**
     * A recursive-descent parser that evaluates as it goes. Each level returns null when it found
     * nothing at all, which its caller turns into the right message.
     */
    private static final class Parser {
        private final String text;
        private final Environment env;
        private int pos;

        Parser(String text, Environment env) {
            this.text = text;
            this.env = env;
        }

        Boolean or(int depth) throws ConfigException {
            checkDepth(depth);
            Boolean left = and(depth - 1);
            if (left == null) {
                return null;
            }
            while (operator("||")) {
                left |= operand(depth);
            }
            return left;
        }

        private Boolean and(int depth) throws ConfigException {
            checkDepth(depth);
            Boolean left = term(depth - 1);
            if (left == null) {
                return null;
            }
            while (operator("&&")) {
                left &= operand(depth);
            }
            return left;
        }

        /** Skips spaces and tells whether {@code op} follows, leaving {@link #pos} on it. */
        private boolean operator(String op) {
            skipSpaces();
            return text.startsWith(op, pos);
        }

        /** The right side of the operator at {@link #pos}; missing, the error points at the operator. */
        private boolean operand(int depth) throws ConfigException {
            int op = pos;
            pos += 2;
            skipSpaces();
            Boolean right = text.charAt(op) == '|' ? and(depth - 1) : term(depth - 1);
            if (right == null) {
                throw unparsable(op);
            }
            return right;
        }

        /** A term; errors show it from where it was looked for, spaces before it included. */
        private Boolean term(int depth) throws ConfigException {
            checkDepth(depth);
            int start = pos;
            skipSpaces();
            if (pos == text.length()) {
                return null;
            }
            boolean negate = false;
            while (pos < text.length() && text.charAt(pos) == '!') {
                negate = !negate;
                pos++;
                skipSpaces();
            }
            if (pos == text.length()) {
                throw unparsable(start);
            }
            boolean value;
            if (text.charAt(pos) == '(') {
                pos++;
                skipSpaces();
                Boolean inner = or(depth - 1);
                if (inner == null) {
                    throw unparsable(start);
                }
                skipSpaces();
                if (pos == text.length() || text.charAt(pos) != ')') {
                    throw new ConfigException("expected ')' after conditional expression '"
                            + text.substring(start) + "'", start);
                }
                pos++;
                value = inner;
            } else {
                Boolean number = number();
                value = number != null ? number : predicate(start);
            }
            return value != negate;
        }

        /** An integer as C's strtol() reads it (base 0); null when there is none. Only zero is false. */
        private Boolean number() {
            int p = pos;
            if (p < text.length() && (text.charAt(p) == '+' || text.charAt(p) == '-')) {
                p++;
            }
            int base = 10;
            if (text.startsWith("0", p)) {
                boolean hex = p + 2 < text.length() && (text.charAt(p + 1) | 0x20) == 'x'
                        && Lexer.hexDigit(text.charAt(p + 2)) >= 0;
                base = hex ? 16 : 8;
                p += hex ? 2 : 0;
            }
            int digits = p;
            boolean nonZero = false;
            while (p < text.length() && Lexer.hexDigit(text.charAt(p)) >= 0 && Lexer.hexDigit(text.charAt(p)) < base) {
                nonZero |= text.charAt(p) != '0';
                p++;
            }
            if (p == digits) {
                return null;
            }
            pos = p;
            return nonZero;
        }

        private boolean predicate(int start) throws ConfigException {
            int nameStart = pos;
            while (pos < text.length() && Lexer.isNameChar(text.charAt(pos))) {
                pos++;
            }
            Predicate predicate = Predicate.named(text.substring(nameStart, pos));
            if (predicate == null) {
                throw unparsable(start);
            }
            List<String> args;
            if (pos < text.length() && text.charAt(pos) == '(') {
                args = arguments(predicate);
            } else {
                // No parentheses: one empty argument, as HAProxy has it.
                args = List.of("");
                if (predicate.arity > 1) {
                    throw argumentError(predicate, "missing arguments (got 1/" + predicate.arity
                            + "), type 'string' expected", pos);
                }
            }
            return predicate.test(args, env);
        }

        /**
         * The arguments between the parentheses at {@link #pos}, split on ',' up to ')'. Quotes protect
         * those; a backslash escapes quotes, itself and space, and gives \t, \n, \r; other characters,
         * spaces included, are kept as they are.
         */
        private List<String> arguments(Predicate predicate) throws ConfigException {
            List<String> args = new ArrayList<>();
            pos++;
            while (true) {
                args.add(argument());
                boolean missing = args.size() < predicate.arity;
                if (pos == text.length()) {
                    throw argumentError(predicate, missing ? missingMessage(args, predicate) : "expected ')'", pos);
                }
                if (text.charAt(pos) == ')') {
                    if (missing) {
                        throw argumentError(predicate, missingMessage(args, predicate), pos);
                    }
                    pos++;
                    return args;
                }
                if (!missing) {
                    throw argumentError(predicate, "expected ')' before '" + text.substring(pos) + "'", pos);
                }
                pos++;
            }
        }

        private static String missingMessage(List<String> args, Predicate predicate) {
            return "missing arguments (got " + args.size() + "/" + predicate.arity + "), type 'string' expected";
        }

        /** One argument, leaving {@link #pos} on the ',' or ')' that ends it, or at the end. */
        private String argument() {
            StringBuilder sb = new StringBuilder();
            char quote = 0;
            while (pos < text.length()) {
                char c = text.charAt(pos);
                if (quote == 0 && (c == ',' || c == ')')) {
                    break;
                }
                pos++;
                if (quote != '\'' && c == '\\' && pos < text.length()) {
                    char next = text.charAt(pos);
                    switch (next) {
                        case '\\', '"', '\'', ' ' -> sb.append(next);
                        case 't' -> sb.append('\t');
                        case 'n' -> sb.append('\n');
                        case 'r' -> sb.append('\r');
                        default -> {
                            sb.append(c);
                            continue;
                        }
                    }
                    pos++;
                } else if (c == '"' && quote != '\'' || c == '\'' && quote != '"') {
                    quote = quote == 0 ? c : 0;
                } else {
                    sb.append(c);
                }
            }
            return sb.toString();
        }

        /** HAProxy numbers every argument error "argument 1". */
        private static ConfigException argumentError(Predicate predicate, String message, int at) {
            return new ConfigException(message + " in argument 1 of predicate '" + predicate.keyword
                    + "' used in conditional expression", at);
        }

        private ConfigException unparsable(int at) {
            return new ConfigException("unparsable conditional expression '" + text.substring(at) + "'", at);
        }

        private void checkDepth(int depth) throws ConfigException {
            if (depth <= 0) {
                throw new ConfigException("unparsable conditional sub-expression '" + text.substring(pos) + "'", pos);
            }
        }

        void skipSpaces() {
            while (pos < text.length() && Lexer.isSpace(text.charAt(pos))) {
                pos++;
            }
        }
    }

    /**
     * A version as {@code haproxy -v} shows it: up to four numbers ("2.6.12"), then optionally
     * "-devN", "-preN" or "-rcN" (before the release) and "-..." parts whose last one, when numeric,
     * counts commits after it (so "2.6.12-1" is newer than "2.6.12"). Numbers are read as C's strtoul()
     * into 32 bits, as HAProxy does.
     */
    private static final class Versions {
        /** The pre-release types, oldest first; a release ranks after them. */
        private static final List<String> TYPES = List.of("dev", "pre", "rc");
        private static final BigInteger ULONG_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

        /** The sign of (running version - {@code version}); 1 when {@code version} does not parse. */
        static int compareToCurrent(String version) {
            long[] current = parse(Version.HAPROXY);
            long[] other = parse(version);
            if (current == null || other == null) {
                return 1;
            }
            return Arrays.compareUnsigned(current, other);
        }

        /** Major, minor, patch, build, type, type number, commits; null when malformed. */
        private static long[] parse(String s) {
            long[] v = new long[7];
            v[4] = TYPES.size();
            int p = 0;
            for (int i = 0; ; i++) {
                int end = strtol(s, p);
                if (end == p) {
                    // A number may be missing after a dot at the end: "3." is 3.0.
                    if (i > 0 && (p == s.length() || s.charAt(p) == '-')) {
                        break;
                    }
                    return null;
                }
                v[i] = value(s, p, end);
                p = end;
                if (p == s.length() || s.charAt(p) == '-') {
                    break;
                }
                if (s.charAt(p) != '.' || i == 3) {
                    return null;
                }
                p++;
            }
            if (p == s.length()) {
                return v;
            }
            String rest = s.substring(p);
            for (int t = 0; t < TYPES.size(); t++) {
                if (s.startsWith(TYPES.get(t), p + 1)) {
                    v[4] = t;
                    int q = p + 1 + TYPES.get(t).length();
                    int end = strtol(s, q);
                    v[5] = end > q ? value(s, q, end) : 0;
                    if (end < s.length() && s.charAt(end) != '-') {
                        return null;
                    }
                    rest = s.substring(end);
                    break;
                }
            }
            // What follows is "-" parts (a Debian revision, a commit hash...); only the last one counts.
            if (rest.isEmpty() || rest.equals("-")) {
                return v;
            }
            String last = rest.substring(rest.lastIndexOf('-') + 1);
            if (last.isEmpty()) {
                return null;
            }
            int end = strtol(last, 0);
            v[6] = end > 0 && end == last.length() ? value(last, 0, end) : 0;
            return v;
        }

        /** The end of the number strtol() would read at {@code from}, or {@code from} when none. */
        private static int strtol(String s, int from) {
            int p = from;
            while (p < s.length() && Lexer.isSpace(s.charAt(p))) {
                p++;
            }
            if (p < s.length() && (s.charAt(p) == '+' || s.charAt(p) == '-')) {
                p++;
            }
            int digits = p;
            while (p < s.length() && s.charAt(p) >= '0' && s.charAt(p) <= '9') {
                p++;
            }
            return p == digits ? from : p;
        }

        /** The number in s[from, end) as strtoul() returns it (saturated, negatives wrapped), cut to 32 bits. */
        private static long value(String s, int from, int end) {
            String n = s.substring(from, end).strip();
            boolean negative = n.startsWith("-");
            BigInteger v = new BigInteger(n.replaceFirst("^[+-]", ""));
            v = v.compareTo(ULONG_MAX) > 0 ? ULONG_MAX : negative ? v.negate().and(ULONG_MAX) : v;
            return v.longValue() & 0xFFFFFFFFL;
        }
    }
}
