package io.fulcrum.acl;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.sample.Sample;
import io.fulcrum.sample.SampleType;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The ways an ACL compares a sample with its patterns ({@code -m found|bool|int|ip|bin|len|str|sub|
 * reg|beg|end|dir|dom}): what the sample is cast to, and how patterns are compiled.
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
    DOM("dom", SampleType.STR);

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
            if (m.keyword.equals(keyword)) {
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

    /** Compiles {@code patterns}, failing with HAProxy's message for the first invalid one. */
    public PatternMatcher compile(List<PatternValue> patterns, List<String> operators) throws ConfigException {
        switch (this) {
            case FOUND:
                return smp -> true;
            case BOOL:
                return Sample::bool;
            case INT:
            case LEN: {
                List<IntRange> ranges = new ArrayList<>();
                for (int i = 0; i < patterns.size(); i++) {
                    ranges.add(IntRange.parse(patterns.get(i).text(), operators.get(i)));
                }
                IntRange[] r = ranges.toArray(new IntRange[0]);
                boolean len = this == LEN;
                return smp -> {
                    long v = len ? smp.length() : smp.num();
                    for (IntRange x : r) {
                        if (x.contains(v)) {
                            return true;
                        }
                    }
                    return false;
                };
            }
            case IP: {
                List<IpPattern> ips = new ArrayList<>();
                for (PatternValue p : patterns) {
                    ips.add(IpPattern.parse(p.text()));
                }
                IpPattern[] a = ips.toArray(new IpPattern[0]);
                return smp -> {
                    for (IpPattern p : a) {
                        if (p.matches(smp)) {
                            return true;
                        }
                    }
                    return false;
                };
            }
            case BIN: {
                List<byte[]> bins = new ArrayList<>();
                for (PatternValue p : patterns) {
                    bins.add(hex(p.text()));
                }
                return smp -> {
                    for (byte[] b : bins) {
                        if (smp.bytesEqual(b)) {
                            return true;
                        }
                    }
                    return false;
                };
            }
            case STR:
                return exact(patterns);
            case REG: {
                List<Pattern> regs = new ArrayList<>();
                for (PatternValue p : patterns) {
                    try {
                        regs.add(Pattern.compile(p.text(), p.ignoreCase() ? Pattern.CASE_INSENSITIVE : 0));
                    } catch (PatternSyntaxException e) {
                        throw new ConfigException("regex '" + p.text() + "' is invalid");
                    }
                }
                return smp -> {
                    String s = smp.text();
                    for (Pattern r : regs) {
                        if (r.matcher(s).find()) {
                            return true;
                        }
                    }
                    return false;
                };
            }
            default:
                return substrings(patterns);
        }
    }

    /** Exact string matching through hash sets: one for case-sensitive patterns, one lowercased. */
    private static PatternMatcher exact(List<PatternValue> patterns) {
        Set<String> exact = new HashSet<>();
        Set<String> folded = new HashSet<>();
        for (PatternValue p : patterns) {
            if (p.ignoreCase()) {
                folded.add(Ascii.lower(p.text()));
            } else {
                exact.add(p.text());
            }
        }
        return smp -> {
            String s = smp.text();
            return exact.contains(s) || !folded.isEmpty() && folded.contains(Ascii.lower(s));
        };
    }

    private PatternMatcher substrings(List<PatternValue> patterns) {
        byte[][] pats = new byte[patterns.size()][];
        boolean[] icase = new boolean[patterns.size()];
        for (int i = 0; i < pats.length; i++) {
            pats[i] = patterns.get(i).text().getBytes(StandardCharsets.ISO_8859_1);
            icase[i] = patterns.get(i).ignoreCase();
        }
        MatchMethod m = this;
        return smp -> {
            for (int i = 0; i < pats.length; i++) {
                if (m.matchOne(smp.bytes(), smp.offset(), smp.length(), pats[i], icase[i])) {
                    return true;
                }
            }
            return false;
        };
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
