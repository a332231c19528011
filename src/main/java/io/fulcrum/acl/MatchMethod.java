package io.fulcrum.acl;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.sample.Sample;
import io.fulcrum.sample.SampleType;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The ways an ACL compares a sample with its patterns ({@code -m found|bool|int|ip|bin|len|str|sub|
 * reg|beg|end|dir|dom}): what the sample is cast to, and how patterns are compiled. An expression giving a
 * method with the {@code method} keyword matches its own way, which no "-m" names ({@link #METH}).
 */
public enum MatchMethod {
    FOUND("found", SampleType.ANY),
    BOOL("bool", SampleType.BOOL),
    INT("int", SampleType.SINT),
    IP("ip", SampleType.ADDR),
    BIN("bin", SampleType.BIN),
    LEN("len", SampleType.STR),
    STR("str", SampleType.STR),
    SUB("sub", SampleType.STR),
    REG("reg", SampleType.STR),
    BEG("beg", SampleType.STR),
    END("end", SampleType.STR),
    DIR("dir", SampleType.STR),
    DOM("dom", SampleType.STR),
    /**
     * HAProxy's pat_match_meth, which "get acl" calls "unknown": a method HAProxy knows (GET, POST... in
     * capitals) only matches the same method, whatever "-i" says; any other pattern only matches a method
     * HAProxy does not know, as a string ("-i" counts). "method -i get" thus never matches "GET".
     */
    METH("unknown", SampleType.METH);

    /** The methods HAProxy numbers (find_http_meth, case-sensitive); any other is HTTP_METH_OTHER. */
    private static final byte[][] KNOWN_METHODS = Stream.of("OPTIONS", "GET", "HEAD", "POST", "PUT", "DELETE", "TRACE", "CONNECT")
            .map(m -> m.getBytes(StandardCharsets.ISO_8859_1)).toArray(byte[][]::new);

    private final String keyword;
    private final SampleType input;

    MatchMethod(String keyword, SampleType input) {
        this.keyword = keyword;
        this.input = input;
    }

    public String keyword() {
        return keyword;
    }

    /** The type a sample is cast to before matching. */
    public SampleType input() {
        return input;
    }

    public static MatchMethod of(String keyword) {
        for (MatchMethod m : values()) {
            if (m.keyword.equals(keyword) && m != METH) {
                return m;
            }
        }
        return null;
    }

    /** The method an ACL uses without "-m", from the type of its expression. */
    public static MatchMethod defaultFor(SampleType type) {
        return switch (type) {
            case BOOL -> BOOL;
            case SINT -> INT;
            case IPV4, IPV6, ADDR -> IP;
            case BIN -> BIN;
            default -> STR;
        };
    }

    /** True when the method needs no pattern (an ACL without patterns still means something). */
    public boolean patternless() {
        return this == FOUND || this == BOOL;
    }

    /**
     * Compiles {@code patterns} (not for "found" and "bool", which take none) into an index saying which
     * one a sample matches, failing with HAProxy's message for the first invalid one.
     */
    public PatternIndex index(List<PatternValue> patterns) throws ConfigException {
        List<PatternMatcher> list = new ArrayList<>();
        switch (this) {
            case INT, LEN -> {
                boolean len = this == LEN;
                for (PatternValue p : patterns) {
                    IntRange r = parse(p, () -> IntRange.parse(p.text()));
                    list.add(len ? smp -> r.contains(smp.length()) : smp -> r.contains(smp.num()));
                }
            }
            case IP -> {
                AddressTable.Builder ips = new AddressTable.Builder(patterns.size());
                for (PatternValue p : patterns) {
                    ips.add(parse(p, () -> IpPattern.parse(p.text())));
                }
                return ips.build();
            }
            case BIN -> {
                for (PatternValue p : patterns) {
                    byte[] b = parse(p, () -> hex(p.text()));
                    list.add(smp -> smp.bytesEqual(b));
                }
            }
            case STR -> {
                return bothCases(patterns, folded -> new ExactStrings(patterns, folded));
            }
            case BEG -> {
                return bothCases(patterns, folded -> new PrefixStrings(patterns, folded));
            }
            case REG -> {
                return RegexList.compile(patterns);
            }
            case METH -> {
                for (PatternValue p : patterns) {
                    byte[] b = p.text().getBytes(StandardCharsets.ISO_8859_1);
                    boolean icase = p.ignoreCase() && !knownMethod(b, 0, b.length);
                    list.add(smp -> smp.length() == b.length && Ascii.regionMatches(smp.bytes(), smp.offset(), b, 0, b.length,
                            icase && !knownMethod(smp.bytes(), smp.offset(), smp.length())));
                }
            }
            case SUB, END, DIR, DOM -> {
                for (PatternValue p : patterns) {
                    byte[] b = p.text().getBytes(StandardCharsets.ISO_8859_1);
                    boolean icase = p.ignoreCase();
                    list.add(smp -> matchOne(smp.bytes(), smp.offset(), smp.length(), b, icase));
                }
            }
            default -> throw new IllegalStateException("'" + keyword + "' takes no pattern");
        }
        return new PatternList(list.toArray(new PatternMatcher[0]));
    }

    /** Reads one pattern, naming the line and file it comes from when it is invalid. */
    private static <T> T parse(PatternValue p, PatternParser<T> parser) throws ConfigException {
        try {
            return parser.parse();
        } catch (ConfigException e) {
            throw p.locate(e);
        }
    }

    @FunctionalInterface
    private interface PatternParser<T> {
        T parse() throws ConfigException;
    }

    /** The index of patterns without "-i", then (when there are some) of those with it; one index when all are alike. */
    private static PatternIndex bothCases(List<PatternValue> patterns, java.util.function.Function<Boolean, PatternIndex> index) {
        boolean folded = patterns.stream().anyMatch(PatternValue::ignoreCase);
        if (folded && patterns.stream().allMatch(PatternValue::ignoreCase)) {
            return index.apply(true);
        }
        PatternIndex exact = index.apply(false);
        return folded ? exact.or(index.apply(true)) : exact;
    }

    private boolean matchOne(byte[] s, int off, int len, byte[] p, boolean icase) {
        return switch (this) {
            case BEG -> len >= p.length && Ascii.regionMatches(s, off, p, 0, p.length, icase);
            case END -> len >= p.length && Ascii.regionMatches(s, off + len - p.length, p, 0, p.length, icase);
            case SUB -> Ascii.indexOf(s, off, len, p, 0, p.length, icase) >= 0;
            case DIR -> Ascii.matchWord(s, off, len, p, "/?", icase);
            case DOM -> Ascii.matchWord(s, off, len, p, "/?.:", icase);
            default -> false;
        };
    }

    private static boolean knownMethod(byte[] s, int off, int len) {
        for (byte[] m : KNOWN_METHODS) {
            if (m.length == len && Ascii.regionMatches(s, off, m, 0, len, false)) {
                return true;
            }
        }
        return false;
    }

    private static byte[] hex(String text) throws ConfigException {
        if (text.length() % 2 != 0) {
            throw new ConfigException("'" + text + "' is not a valid hex string (odd length)");
        }
        byte[] out = new byte[text.length() / 2];
        for (int i = 0; i < out.length; i++) {
            int hi = Character.digit(text.charAt(2 * i), 16);
            int lo = Character.digit(text.charAt(2 * i + 1), 16);
            if (hi < 0 || lo < 0) {
                throw new ConfigException("'" + text + "' is not a valid hex string");
            }
            out[i] = (byte) (hi << 4 | lo);
        }
        return out;
    }
}
