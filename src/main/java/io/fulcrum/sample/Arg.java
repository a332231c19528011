package io.fulcrum.sample;

/**
 * One parsed argument of a fetch or converter. {@code text} is the argument as written (after
 * unquoting); {@code num} holds integers, times (ms), sizes, IPv4 addresses and masks; {@code value}
 * what the argument was compiled to (a regex, an IPv6 address or mask, a variable reference...).
 */
public record Arg(ArgType type, String text, long num, Object value) {

    public static Arg of(ArgType type, String text, long num) {
        return new Arg(type, text, num, null);
    }

    /** The compiled value, cast to what the keyword registered for this argument. */
    public <T> T as(Class<T> cls) {
        return cls.cast(value);
    }
}
