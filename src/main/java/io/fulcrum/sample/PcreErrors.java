package io.fulcrum.sample;

import java.util.Set;

/**
 * The syntax errors PCRE2 reports for a regex, found by a scan of its syntax, so that an invalid regex is reported
 * as HAProxy reports it ("error=missing closing parenthesis, erroffset=4"): PCRE2's message and the offset where it
 * stopped. Only errors PCRE2 certainly reports are looked for (unbalanced parentheses and brackets, quantifiers of
 * nothing, {} quantifiers out of order, bad names, escapes at the end, unknown POSIX classes, references to missing
 * groups); what this scan lets through is compiled by Java's engine, whose own error is then given.
 */
public final class PcreErrors {
    private static final Set<String> POSIX = Set.of("alnum", "alpha", "ascii", "blank", "cntrl", "digit", "graph", "lower",
            "print", "punct", "space", "upper", "word", "xdigit");
    private static final int MAX_REPEAT = 65535;

    /** PCRE2's message and offset. */
    public record Error(String message, int offset) {
        /** As HAProxy writes it after "regex '...' is invalid". */
        @Override
        public String toString() {
            return "error=" + message + ", erroffset=" + offset;
        }
    }

    private final String re;
    private int i;
    private int groups;
    private int depth;
    /** The highest back-reference number and where its digits start. */
    private int maxRef;
    private int maxRefAt;

    private PcreErrors(String re) {
        this.re = re;
    }

    /** The first error PCRE2 reports for {@code re}, or null when this scan finds none. */
    public static Error of(String re) {
        return new PcreErrors(re).scan();
    }

    private Error scan() {
        boolean repeatable = false;
        int n = re.length();
        while (i < n) {
            char c = re.charAt(i);
            Error e;
            switch (c) {
                case '\\' -> {
                    // The assertions \b \B \A \z \Z \G and \K are not repeatable.
                    repeatable = i + 1 >= n || "bBAzZGK".indexOf(re.charAt(i + 1)) < 0;
                    e = escape();
                    if (e != null) {
                        return e;
                    }
                }
                case '[' -> {
                    e = bracket();
                    if (e != null) {
                        return e;
                    }
                    repeatable = true;
                }
                case '(' -> {
                    e = open();
                    if (e != null) {
                        return e;
                    }
                    repeatable = false;
                }
                case ')' -> {
                    if (depth == 0) {
                        return new Error("unmatched closing parenthesis", i);
                    }
                    depth--;
                    i++;
                    repeatable = true;
                }
                case '*', '+', '?' -> {
                    if (!repeatable) {
                        return new Error("quantifier does not follow a repeatable item", i);
                    }
                    i++;
                    lazyOrPossessive();
                    repeatable = false;
                }
                case '{' -> {
                    int end = quantifierEnd(re, i);
                    if (end < 0) {
                        i++; // a literal '{', as PCRE2 reads one that starts no quantifier
                        repeatable = true;
                    } else {
                        if (!repeatable) {
                            return new Error("quantifier does not follow a repeatable item", i);
                        }
                        e = bounds(end);
                        if (e != null) {
                            return e;
                        }
                        i = end + 1;
                        lazyOrPossessive();
                        repeatable = false;
                    }
                }
                case '|', '^', '$' -> {
                    i++;
                    repeatable = false;
                }
                default -> {
                    i++;
                    repeatable = true;
                }
            }
        }
        if (depth > 0) {
            return new Error("missing closing parenthesis", n);
        }
        if (maxRef > groups) {
            return new Error("reference to non-existent subpattern", maxRefAt);
        }
        return null;
    }

    /** True for an escape at {@code i} whose braces are no quantifier: \x{...}, \g{...}, \p{...}... */
    static boolean bracedEscape(String re, int i) {
        return i + 2 < re.length() && re.charAt(i + 2) == '{' && "xogkpPN".indexOf(re.charAt(i + 1)) >= 0;
    }

    private void lazyOrPossessive() {
        if (i < re.length() && (re.charAt(i) == '?' || re.charAt(i) == '+')) {
            i++;
        }
    }

    /** An escape outside brackets; {@code i} goes past it. */
    private Error escape() {
        int n = re.length();
        if (i + 1 >= n) {
            return new Error("\\ at end of pattern", n);
        }
        char k = re.charAt(i + 1);
        if (k == 'Q') {
            int end = re.indexOf("\\E", i + 2);
            i = end < 0 ? n : end + 2;
        } else if (k == 'c') {
            if (i + 2 >= n) {
                return new Error("\\c at end of pattern", n);
            }
            i += 3;
        } else if (k >= '1' && k <= '9') {
            int at = i + 1;
            int j = at;
            long ref = 0;
            while (j < n && Character.isDigit(re.charAt(j)) && ref < 100000) {
                ref = ref * 10 + re.charAt(j++) - '0';
            }
            // \1 to \9 are always references; a larger number is one only when there are that many groups so far.
            if ((ref < 10 || ref <= groups) && ref > maxRef) {
                maxRef = (int) ref;
                maxRefAt = at;
            }
            i = j; // else an octal escape
        } else if (bracedEscape(re, i)) {
            int end = re.indexOf('}', i + 3);
            i = end < 0 ? n : end + 1;
        } else {
            i += 2;
        }
        return null;
    }

    /** A bracket expression; {@code i} goes past its ']'. */
    private Error bracket() {
        int n = re.length();
        int j = i + 1;
        if (j < n && re.charAt(j) == '^') {
            j++;
        }
        boolean first = true;
        int previous = -1; // the last single character, which may start a range
        while (true) {
            if (j >= n) {
                return new Error("missing terminating ] for character class", n);
            }
            char c = re.charAt(j);
            if (c == ']' && !first) {
                i = j + 1;
                return null;
            }
            first = false;
            if (c == '[' && j + 1 < n && (re.charAt(j + 1) == ':' || re.charAt(j + 1) == '.' || re.charAt(j + 1) == '=')) {
                char kind = re.charAt(j + 1);
                int end = re.indexOf(kind + "]", j + 2);
                if (end > 0) {
                    String name = re.substring(j + 2, end);
                    if (kind == ':' && !POSIX.contains(name.startsWith("^") ? name.substring(1) : name)) {
                        return new Error("unknown POSIX class name", j + 2);
                    }
                    j = end + 2;
                    previous = -1;
                    continue;
                }
            }
            int single;
            int next;
            if (c == '\\') {
                if (j + 1 >= n) {
                    return new Error("\\ at end of pattern", n);
                }
                char k = re.charAt(j + 1);
                single = Character.isLetterOrDigit(k) ? -1 : k; // \d, \w, \x.. : not a plain character (\\ \] \- are)
                next = j + 2;
            } else {
                single = c;
                next = j + 1;
            }
            if (previous >= 0 && c == '-' && next < n && re.charAt(next) != ']') {
                // previous '-' next: a range
                int to;
                int after;
                if (re.charAt(next) == '\\') {
                    if (next + 1 >= n) {
                        return new Error("\\ at end of pattern", n);
                    }
                    char k = re.charAt(next + 1);
                    if ("dDsSwWhHvVpPN".indexOf(k) >= 0) {
                        return new Error("invalid range in character class", next + 2);
                    }
                    to = Character.isLetterOrDigit(k) ? -1 : k;
                    after = next + 2;
                } else {
                    to = re.charAt(next);
                    after = next + 1;
                }
                if (to >= 0 && to < previous) {
                    return new Error("range out of order in character class", after - 1);
                }
                previous = -1;
                j = after;
                continue;
            }
            previous = single;
            j = next;
        }
    }

    /** A group's opening; {@code i} goes past what opens it. */
    private Error open() {
        int n = re.length();
        depth++;
        if (i + 1 < n && re.charAt(i + 1) == '*') { // (*VERB) or (*positive_lookahead:...)
            i += 2;
            return null;
        }
        if (i + 1 >= n || re.charAt(i + 1) != '?') {
            groups++;
            i++;
            return null;
        }
        int j = i + 2;
        if (j >= n) {
            return new Error("missing closing parenthesis", n); // "(?" at the end
        }
        char k = re.charAt(j);
        if (k == '<' && j + 1 < n && (re.charAt(j + 1) == '=' || re.charAt(j + 1) == '!')) {
            i = j + 2;
            return null;
        }
        if (k == '<' || k == '\'' || k == 'P' && j + 1 < n && re.charAt(j + 1) == '<') {
            int start = k == 'P' ? j + 2 : j + 1;
            return name(start, k == '\'' ? '\'' : '>');
        }
        if (":=!>|#&(R+0123456789PC".indexOf(k) >= 0 || k == '-' && j + 1 < n && Character.isDigit(re.charAt(j + 1))) {
            i = j + 1; // a group of another kind, a recursion, a condition, a callout: left to the engine
            return null;
        }
        // Options: (?i) (?-s:...) (?^)...
        while (j < n && "imnsxJU-^".indexOf(re.charAt(j)) >= 0) {
            j++;
        }
        if (j >= n) {
            return new Error("missing closing parenthesis", n);
        }
        if (re.charAt(j) != ')' && re.charAt(j) != ':') {
            return new Error("unrecognized character after (? or (?-", j);
        }
        if (re.charAt(j) == ')') {
            depth--; // (?i) sets options: no group
        }
        i = j + 1;
        return null;
    }

    /** A named group's name from {@code start}, up to {@code end}. */
    private Error name(int start, char end) {
        int n = re.length();
        if (start < n && Character.isDigit(re.charAt(start))) {
            return new Error("subpattern name must start with a non-digit", start);
        }
        int j = start;
        while (j < n && (Character.isLetterOrDigit(re.charAt(j)) || re.charAt(j) == '_')) {
            j++;
        }
        if (j == start && j < n) {
            return new Error("subpattern name expected", j);
        }
        if (j >= n || re.charAt(j) != end) {
            return new Error("syntax error in subpattern name (missing terminator?)", j);
        }
        groups++;
        i = j + 1;
        return null;
    }

    /** The index of the '}' of a quantifier {n}, {n,} or {n,m} at {@code from}, or -1 when it is no quantifier. */
    static int quantifierEnd(String re, int from) {
        int n = re.length();
        int j = from + 1;
        int digits = 0;
        while (j < n && Character.isDigit(re.charAt(j))) {
            j++;
            digits++;
        }
        if (digits == 0) {
            return -1;
        }
        if (j < n && re.charAt(j) == ',') {
            j++;
            while (j < n && Character.isDigit(re.charAt(j))) {
                j++;
            }
        }
        return j < n && re.charAt(j) == '}' ? j : -1;
    }

    /** The bounds of the quantifier from {@code i} to its '}' at {@code end}. */
    private Error bounds(int end) {
        String[] parts = re.substring(i + 1, end).split(",", -1);
        long min = number(parts[0]);
        if (min > MAX_REPEAT) {
            return new Error("number too big in {} quantifier", i + 1 + parts[0].length());
        }
        if (parts.length > 1 && !parts[1].isEmpty()) {
            long max = number(parts[1]);
            if (max > MAX_REPEAT) {
                return new Error("number too big in {} quantifier", end);
            }
            if (max < min) {
                return new Error("numbers out of order in {} quantifier", end);
            }
        }
        return null;
    }

    private static long number(String digits) {
        return digits.length() > 6 ? Long.MAX_VALUE : Long.parseLong(digits);
    }
}
