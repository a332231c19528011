package io.fulcrum.cfg;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Splits one configuration line into words exactly as HAProxy 2.6 does (configuration.txt 2.2 and 2.3).
 * <ul>
 *   <li>Space, tab, vertical tab and form feed separate words; '#' starts a comment; CR ends the line,
 *       even inside quotes.</li>
 *   <li>Single quotes keep everything literally. Double quotes keep blanks and '#', and expand
 *       {@code $NAME}, {@code ${NAME}}, {@code ${NAME-default}} and {@code ${NAME[*]}} (the value split
 *       into several words). Variables are never expanded outside double quotes.</li>
 *   <li>Outside single quotes a backslash escapes space, '\', quotes and '#', and gives {@code \r},
 *       {@code \n}, {@code \t} and {@code \xNN}; {@code \$} only inside double quotes. Before any other
 *       character (tab included) the backslash stays.</li>
 * </ul>
 * A line holds at most {@link #MAX_WORDS} words.
 */
public final class Lexer {
    private Lexer() {
    }

    /** HAProxy's MAX_LINE_ARGS. */
    public static final int MAX_WORDS = 64;

    /** What went wrong; {@code haproxy -cc} words some of these differently from the configuration reader. */
    public enum Problem {
        QUOTE, BRACE, VAR_NAME, HEX, EXPANSION, TOO_MANY_WORDS
    }

    /** A tokenizer error. Except for too many words, it points at a column and is shown with a caret. */
    public static final class LexException extends ConfigException {
        private static final long serialVersionUID = 1L;
        private final Problem problem;
        private final String shown;

        LexException(Problem problem, String message, int column, String shown) {
            super(message, column);
            this.problem = problem;
            this.shown = shown;
        }

        public Problem problem() {
            return problem;
        }

        /**
         * The line to print under the error. HAProxy cuts it after an unknown pseudo-variable's name
         * (it leaves a NUL there while looking the name up), so this may be shorter than the raw line.
         */
        public String shown() {
            return shown;
        }
    }

    /**
     * The words of a line.
     *
     * @param tokens        the words; an empty one only where quotes or an expansion made it
     * @param trailingBlank blanks followed the last word: HAProxy then holds one more, empty, word, which
     *                      shows as a final space in {@code .if} expressions
     */
    public record Words(List<Token> tokens, boolean trailingBlank) {
        public Words {
            tokens = List.copyOf(tokens);
        }

        /** The words from index {@code from} joined by single spaces, as HAProxy builds a condition. */
        public String join(int from) {
            StringBuilder sb = new StringBuilder();
            for (int i = from; i < tokens.size(); i++) {
                sb.append(i > from ? " " : "").append(tokens.get(i).text());
            }
            // HAProxy's extra empty word after trailing blanks is joined like the others.
            return trailingBlank && tokens.size() > from ? sb.append(' ').toString() : sb.toString();
        }
    }

    /** Tokenizes a configuration line; pseudo-variables have the values they have outside any file. */
    public static List<Token> tokenize(String raw, Environment env) throws ConfigException {
        return split(raw, indent(raw), variables(env, "", 0, "")).tokens();
    }

    /**
     * Tokenizes {@code line} from index {@code from}. The configuration reader starts after the
     * indentation; {@code -cc} starts at 0, where leading blanks give an empty first word as in HAProxy.
     *
     * @param vars the value of a variable, or null when it is undefined (for a name starting with '.',
     *             null means it is not a pseudo-variable, which is an error)
     */
    public static Words split(String line, int from, Function<String, String> vars) throws LexException {
        return new Scan(line, vars).run(from);
    }

    /** The variables a line sees: the environment, plus the pseudo-variables .FILE, .LINE and .SECTION. */
    public static Function<String, String> variables(Environment env, String file, int line, String section) {
        return name -> switch (name) {
            case ".FILE" -> file;
            case ".LINE" -> Integer.toString(line);
            case ".SECTION" -> section;
            default -> name.startsWith(".") ? null : env.get(name);
        };
    }

    /** The length of the line's indentation: HAProxy skips every C isspace() character there. */
    public static int indent(String raw) {
        int i = 0;
        while (i < raw.length() && isSpace(raw.charAt(i))) {
            i++;
        }
        return i;
    }

    /** C's isspace() in the "C" locale. */
    static boolean isSpace(char c) {
        return c == ' ' || c >= '\t' && c <= '\r';
    }

    /** Word separators; CR and LF are not among them as they end the line. */
    private static boolean isBlank(char c) {
        return c == ' ' || c == '\t' || c == '\u000b' || c == '\f';
    }

    private static boolean endsLine(char c) {
        return c == '\r' || c == '\n' || c == '\0';
    }

    /** The value of an ASCII hex digit, or -1. */
    static int hexDigit(char c) {
        return c < 0x80 ? Character.digit(c, 16) : -1;
    }

    /** Characters of variable and predicate names. */
    static boolean isNameChar(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_';
    }

    /** One pass over a line; words are kept untruncated until the end, NULs included. */
    private static final class Scan {
        private final String line;
        private final Function<String, String> vars;
        private final List<String> texts = new ArrayList<>();
        private final List<Integer> columns = new ArrayList<>();
        private final StringBuilder word = new StringBuilder();
        private int wordColumn;
        /** Whether anything (a character, quotes, an expansion) went into the current word. */
        private boolean touched;
        private int pos;

        Scan(String line, Function<String, String> vars) {
            this.line = line;
            this.vars = vars;
        }

        Words run(int from) throws LexException {
            pos = from;
            wordColumn = from;
            char quote = 0;
            int quoteColumn = -1;
            while (pos < line.length()) {
                char c = line.charAt(pos);
                if (endsLine(c) || quote == 0 && c == '#') {
                    break;
                }
                if (quote == '\'') {
                    if (c == '\'') {
                        quote = 0;
                    } else {
                        word.append(c);
                    }
                    pos++;
                } else if (quote == 0 && isBlank(c)) {
                    while (pos < line.length() && isBlank(line.charAt(pos))) {
                        pos++;
                    }
                    nextWord();
                } else if (c == '"' || quote == 0 && c == '\'') {
                    quote = quote == 0 ? c : 0;
                    quoteColumn = pos++;
                    touched = true;
                } else if (c == '\\') {
                    escape(quote == '"');
                } else if (c == '$' && quote == '"') {
                    variable();
                } else {
                    word.append(c);
                    touched = true;
                    pos++;
                }
            }
            if (quote != 0) {
                throw new LexException(Problem.QUOTE, "unmatched quote", quoteColumn, line);
            }
            boolean trailingBlank = !touched && !texts.isEmpty();
            if (touched) {
                endWord();
            }
            List<Token> tokens = new ArrayList<>(texts.size());
            for (int i = 0; i < texts.size(); i++) {
                tokens.add(new Token(cString(texts.get(i)), columns.get(i)));
            }
            return new Words(tokens, trailingBlank);
        }

        /**
         * Ends the current word at a separator (kept even when empty) and starts the next one at the
         * current position. A 65th word is refused, even when only blanks would have formed it.
         */
        private void nextWord() throws LexException {
            endWord();
            if (texts.size() == MAX_WORDS) {
                throw tooMany();
            }
            wordColumn = pos;
        }

        private void endWord() {
            texts.add(word.toString());
            columns.add(wordColumn);
            word.setLength(0);
            touched = false;
        }

        /** HAProxy reports the last word kept and its offset in its output buffer of NUL-ended words. */
        private LexException tooMany() {
            int offset = 1;
            for (int i = 0; i < MAX_WORDS - 1; i++) {
                offset += texts.get(i).length() + 1;
            }
            String message = "too many words, truncating after word " + MAX_WORDS + ", position " + offset
                    + ": <" + cString(texts.get(MAX_WORDS - 1)) + ">.";
            return new LexException(Problem.TOO_MANY_WORDS, message, -1, line);
        }

        /** Reads the backslash at {@link #pos} and what it escapes. */
        private void escape(boolean inDoubleQuotes) throws LexException {
            touched = true;
            char next = pos + 1 < line.length() ? line.charAt(pos + 1) : 0;
            int length = 2;
            int value = switch (next) {
                case ' ', '\\', '\'', '"', '#' -> next;
                case 'r' -> '\r';
                case 'n' -> '\n';
                case 't' -> '\t';
                case '$' -> inDoubleQuotes ? '$' : -1;
                case 'x' -> {
                    length = 4;
                    yield hexByte();
                }
                default -> -1;
            };
            if (value < 0) {
                // Not an escape: the backslash stays and what follows is read normally.
                word.append('\\');
                pos++;
            } else {
                word.append((char) value);
                pos += length;
            }
        }

        /** The two hex digits after the "\\x" at {@link #pos}. */
        private int hexByte() throws LexException {
            int hi = pos + 2 < line.length() ? hexDigit(line.charAt(pos + 2)) : -1;
            int lo = pos + 3 < line.length() ? hexDigit(line.charAt(pos + 3)) : -1;
            if (hi < 0 || lo < 0) {
                throw new LexException(Problem.HEX, "truncated or invalid hexadecimal sequence", pos, line);
            }
            return hi << 4 | lo;
        }

        /** Expands the variable whose '$' is at {@code pos}, inside double quotes. */
        private void variable() throws LexException {
            int dollar = pos;
            int p = dollar + 1;
            boolean braced = p < line.length() && line.charAt(p) == '{';
            if (braced) {
                p++;
            }
            int nameStart = p;
            char first = p < line.length() ? line.charAt(p) : 0;
            if (first != '.' && (!isNameChar(first) || first >= '0' && first <= '9')) {
                throw new LexException(Problem.VAR_NAME, "forbidden first char in environment variable name", p, line);
            }
            p++;
            while (p < line.length() && isNameChar(line.charAt(p))) {
                p++;
            }
            String name = line.substring(nameStart, p);
            String value = vars.apply(name);
            if (first == '.' && value == null) {
                throw new LexException(Problem.VAR_NAME, "forbidden first char in environment variable name",
                        nameStart, line.substring(0, p));
            }
            boolean spread = false;
            if (braced) {
                if (p < line.length() && line.charAt(p) == '[') {
                    if (!line.startsWith("*]", p + 1)) {
                        throw new LexException(Problem.EXPANSION, "truncated or invalid word expansion sequence", p, line);
                    }
                    spread = true;
                    p += 3;
                }
                if (p < line.length() && line.charAt(p) == '-') {
                    // The default runs to the first '}', whatever it holds (quotes, '#', backslashes).
                    int close = line.indexOf('}', p + 1);
                    if (close < 0) {
                        throw unmatchedBrace(dollar + 1);
                    }
                    if (value == null) {
                        value = line.substring(p + 1, close);
                    }
                    p = close;
                }
                if (p >= line.length() || line.charAt(p) != '}') {
                    throw unmatchedBrace(dollar + 1);
                }
                p++;
            }
            pos = p;
            touched = true;
            append(value == null ? "" : value, spread, dollar);
        }

        private LexException unmatchedBrace(int column) {
            return new LexException(Problem.BRACE, "unmatched brace in environment variable name", column, line);
        }

        /** Appends an expanded value; with {@code [*]} each run of spaces in it starts a new word. */
        private void append(String value, boolean spread, int column) throws LexException {
            if (!spread) {
                word.append(value);
                return;
            }
            int i = 0;
            while (i < value.length()) {
                if (isSpace(value.charAt(i))) {
                    while (i < value.length() && isSpace(value.charAt(i))) {
                        i++;
                    }
                    nextWord();
                    wordColumn = column;
                    touched = true;
                } else {
                    word.append(value.charAt(i++));
                }
            }
        }

        /** Words are C strings in HAProxy: a NUL made by \x00 ends the word. */
        private static String cString(String s) {
            int nul = s.indexOf('\0');
            return nul < 0 ? s : s.substring(0, nul);
        }
    }
}
