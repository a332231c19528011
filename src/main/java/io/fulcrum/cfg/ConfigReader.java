package io.fulcrum.cfg;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Reads configuration files into logical lines: tokenizes each line ({@link Lexer}), drops comments and
 * blank lines, and carries out the conditional-block and message directives ({@code .if}, {@code .elif},
 * {@code .else}, {@code .endif}, {@code .diag}, {@code .notice}, {@code .warning}, {@code .alert}).
 * Errors are reported as HAProxy 2.6 reports them. A bad line is skipped so that one run reports them
 * all, except where HAProxy gives up: some errors end the reading of the file, and the gravest ones
 * (a broken conditional block, {@code .alert}) abort the whole load, see {@link #aborted()}.
 */
public final class ConfigReader {
    /** HAProxy refuses the 100th nested {@code .if} and says "max is 100". */
    private static final int MAX_NESTING = 100;
    private static final int MAX_FATAL_LINES = 50;

    private final Environment env;
    private final Diagnostics diag;
    /** Where relative file names of the next line are found ({@code default-path}), null for the working directory. */
    private final Supplier<Path> dir;
    private String section = "";
    private boolean aborted;

    public ConfigReader(Environment env, Diagnostics diag) {
        this(env, diag, () -> null);
    }

    public ConfigReader(Environment env, Diagnostics diag, Supplier<Path> dir) {
        this.env = env;
        this.diag = diag;
        this.dir = dir;
    }

    /**
     * Tells the reader a section starts, for the {@code .SECTION} pseudo-variable: {@code name} is the
     * section's name, or its keyword when it has none ("global"). Call it when a section keyword line is
     * handed over; that line itself still sees the previous section, as in HAProxy.
     */
    public void enterSection(String name) {
        section = name;
    }

    /**
     * True once an error was reported after which HAProxy stops loading the configuration at once: no
     * further file is read and the final checks are not run (so no "Fatal errors found" line either).
     */
    public boolean aborted() {
        return aborted;
    }

    /**
     * Reads {@code path}, shown to the user as {@code name}, and hands each active line to {@code sink}.
     * The file is read as bytes (ISO-8859-1), so any content is accepted and reported readably.
     */
    public void read(Path path, String name, Consumer<ConfigLine> sink) throws IOException {
        String text = new String(Files.readAllBytes(path), StandardCharsets.ISO_8859_1);
        new Pass(name, sink).run(text);
    }

    /** How reading goes on after a line. */
    private enum Next {
        /** With the next line. */
        CONTINUE,
        /** Stop reading this file; an unterminated block is then reported and aborts the load. */
        STOP,
        /** Stop and abort the load after the unterminated-block check. */
        ABORT,
        /** Abort the load at once. */
        HALT
    }

    /** The state of one {@code .if} level. */
    private static final class Block {
        /** Lines are kept in the current branch. */
        boolean active;
        /** A branch of this block was (or, in a dropped block, counts as) taken: later ones are not. */
        boolean taken;
        boolean sawElse;

        Block(boolean active, boolean taken) {
            this.active = active;
            this.taken = taken;
        }
    }

    /** Reading one file. */
    private final class Pass {
        private final String file;
        private final Consumer<ConfigLine> sink;
        private final Deque<Block> blocks = new ArrayDeque<>();
        private int lineNo;
        private int fatalLines;

        Pass(String file, Consumer<ConfigLine> sink) {
            this.file = file;
            this.sink = sink;
        }

        void run(String text) {
            Next next = Next.CONTINUE;
            int start = 0;
            while (next == Next.CONTINUE && start < text.length()) {
                int lf = text.indexOf('\n', start);
                int end = lf < 0 ? text.length() : lf;
                String raw = text.substring(start, end);
                start = end + 1;
                lineNo++;
                if (fatalLines >= MAX_FATAL_LINES) {
                    // As HAProxy: past 50 lines in error, the rest would mostly repeat the same mistake.
                    alert("too many fatal errors (" + fatalLines + "), stopping now.");
                    next = Next.STOP;
                    break;
                }
                int nul = raw.indexOf('\0');
                int alertsBefore = diag.alerts();
                next = line(nul < 0 ? raw : raw.substring(0, nul));
                if (diag.alerts() > alertsBefore) {
                    fatalLines++;
                }
                if (next == Next.CONTINUE && nul >= 0) {
                    alert("Stray NUL character at position " + (nul + 1) + ".");
                    next = Next.STOP;
                } else if (next == Next.CONTINUE && lf < 0) {
                    alert("Missing LF on last line, file might have been truncated at position " + (raw.length() + 1) + ".");
                    next = Next.STOP;
                }
            }
            if (next != Next.HALT && !blocks.isEmpty()) {
                alert("non-terminated '.if' block.");
                next = Next.ABORT;
            }
            aborted |= next == Next.ABORT || next == Next.HALT;
        }

        private Next line(String raw) {
            Lexer.Words words;
            try {
                words = Lexer.split(raw, Lexer.indent(raw), Lexer.variables(env, file, lineNo, section));
            } catch (Lexer.LexException e) {
                if (e.problem() == Lexer.Problem.TOO_MANY_WORDS) {
                    alert(e.getMessage());
                } else {
                    diag.parseAlert(source(), e.shown(), e.column(), e.getMessage());
                }
                return Next.CONTINUE;
            }
            List<Token> tokens = words.tokens();
            if (tokens.isEmpty() || tokens.get(0).text().isEmpty()) {
                return Next.CONTINUE;
            }
            String keyword = tokens.get(0).text();
            Next next = switch (keyword) {
                case ".if" -> conditionIf(words);
                case ".elif" -> conditionElif(words);
                case ".else" -> conditionElse(words);
                case ".endif" -> conditionEndif(words);
                default -> null;
            };
            if (next != null) {
                return next;
            }
            if (!active()) {
                return Next.CONTINUE;
            }
            tokens = upToEmptyWord(tokens);
            if (keyword.startsWith(".")) {
                return directive(keyword, tokens);
            }
            sink.accept(new ConfigLine(source(), raw, tokens, diag));
            return Next.CONTINUE;
        }

        /**
         * The words before the first empty one (a quoted {@code ""} or {@code ''}, or a variable expanding to
         * nothing): HAProxy's keyword parsers all stop at an empty argument, so what follows it is never read.
         * Dropping words silently hides mistakes, so a warning names them.
         */
        private List<Token> upToEmptyWord(List<Token> tokens) {
            for (int i = 1; i < tokens.size(); i++) {
                if (tokens.get(i).text().isEmpty()) {
                    List<Token> after = tokens.subList(i + 1, tokens.size());
                    if (after.stream().anyMatch(t -> !t.text().isEmpty())) {
                        String ignored = after.stream().map(Token::text).collect(Collectors.joining(" "));
                        diag.parseWarning(source(), "'" + ignored + "' ignored: HAProxy reads a line no further"
                                + " than its first empty argument (argument " + i + ").");
                    }
                    return tokens.subList(0, i);
                }
            }
            return tokens;
        }

        private boolean active() {
            return blocks.isEmpty() || blocks.peek().active;
        }

        private Next conditionIf(Lexer.Words words) {
            if (blocks.size() >= MAX_NESTING - 1) {
                alert("too many nested '.if', max is " + MAX_NESTING + ".");
                return Next.HALT;
            }
            if (!active()) {
                // Nothing in a dropped block is kept, whatever its conditions say.
                blocks.push(new Block(false, true));
                return Next.CONTINUE;
            }
            Boolean value = condition(words);
            if (value == null) {
                return Next.HALT;
            }
            blocks.push(new Block(value, value));
            return Next.CONTINUE;
        }

        private Next conditionElif(Lexer.Words words) {
            Block block = blocks.peek();
            if (block == null) {
                alert("lone '.elif' with no matching '.if'.");
                return Next.HALT;
            }
            if (block.sawElse) {
                alert("'.elif' after '.else' is not permitted.");
                return Next.HALT;
            }
            if (block.taken) {
                block.active = false;
                return Next.CONTINUE;
            }
            Boolean value = condition(words);
            if (value == null) {
                return Next.HALT;
            }
            block.active = value;
            block.taken = value;
            return Next.CONTINUE;
        }

        private Next conditionElse(Lexer.Words words) {
            if (unexpectedArgument(words.tokens(), 1)) {
                return Next.ABORT;
            }
            Block block = blocks.peek();
            if (block == null) {
                alert("lone '.else' with no matching '.if'.");
                return Next.HALT;
            }
            if (block.sawElse) {
                alert("'.else' after '.else' is not permitted.");
                return Next.HALT;
            }
            block.sawElse = true;
            block.active = !block.taken;
            block.taken = true;
            return Next.CONTINUE;
        }

        private Next conditionEndif(Lexer.Words words) {
            if (unexpectedArgument(words.tokens(), 1)) {
                return Next.ABORT;
            }
            if (blocks.isEmpty()) {
                alert("lone '.endif' with no matching '.if'.");
                return Next.HALT;
            }
            blocks.pop();
            return Next.CONTINUE;
        }

        /** Like HAProxy, only a non-empty word counts as an argument. */
        private boolean unexpectedArgument(List<Token> tokens, int index) {
            if (index >= tokens.size() || tokens.get(index).text().isEmpty()) {
                return false;
            }
            alert("Unexpected argument '" + tokens.get(index).text() + "' for '" + tokens.get(0).text() + "'.");
            return true;
        }

        /**
         * The value of the directive's condition, or null after reporting why it has none. The error
         * shows the directive and its expression as HAProxy rebuilt them, with a caret; the position
         * counts within the expression.
         */
        private Boolean condition(Lexer.Words words) {
            String directive = words.tokens().get(0).text();
            String expression = words.join(1);
            try {
                return Condition.evaluate(expression, env);
            } catch (ConfigException e) {
                List<String> excerpt = LinePrinter.excerpt(directive + " ", expression, e.column());
                alert(e.getMessage() + " in '" + directive + "' at position " + (e.column() + 1) + ":\n  "
                        + excerpt.get(0) + "\n  " + excerpt.get(1));
                return null;
            }
        }

        private Next directive(String keyword, List<Token> tokens) {
            Diagnostics.Level level = switch (keyword) {
                case ".diag" -> Diagnostics.Level.DIAG;
                case ".notice" -> Diagnostics.Level.NOTICE;
                case ".warning" -> Diagnostics.Level.WARNING;
                case ".alert" -> Diagnostics.Level.ALERT;
                default -> null;
            };
            if (level == null) {
                alert("unknown directive '" + keyword + "'.");
                return Next.STOP;
            }
            if (tokens.size() > 2 && !tokens.get(2).text().isEmpty()) {
                alert("Unexpected argument '" + tokens.get(2).text() + "' for '" + keyword
                        + "'. Use quotes if the message should contain spaces.");
                return Next.CONTINUE;
            }
            String message = tokens.size() > 1 ? tokens.get(1).text() : "";
            diag.print(level, "config : parsing [" + source() + "]: '" + message + "'.");
            return level == Diagnostics.Level.ALERT ? Next.HALT : Next.CONTINUE;
        }

        private Source source() {
            return new Source(file, lineNo, dir.get());
        }

        /** The reader's own messages: "parsing [FILE:LINE]: ..." (no space before the colon). */
        private void alert(String message) {
            diag.print(Diagnostics.Level.ALERT, "config : parsing [" + source() + "]: " + message);
        }
    }
}
