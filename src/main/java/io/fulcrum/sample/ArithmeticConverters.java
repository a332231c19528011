package io.fulcrum.sample;

import io.fulcrum.cfg.ConfigException;

import java.nio.charset.StandardCharsets;
import java.util.function.LongBinaryOperator;
import java.util.function.LongUnaryOperator;

/**
 * Bitwise and arithmetic converters on integers, and the comparators that make booleans of them
 * (configuration.txt 7.3.1). Results saturate instead of wrapping. The operand is an integer or a variable.
 * An input bool stays a bool holding the result, as HAProxy keeps the type of a bool used as an integer.
 */
final class ArithmeticConverters {
    private ArithmeticConverters() {
    }

    static void register(SampleCatalog c) {
        binary(c, "add", ArithmeticConverters::add);
        binary(c, "sub", (a, b) -> b == Long.MIN_VALUE ? (a < 0 ? a + Long.MAX_VALUE + 1 : Long.MAX_VALUE) : add(a, -b));
        binary(c, "mul", ArithmeticConverters::mul);
        binary(c, "div", (a, b) -> b == 0 || a == Long.MIN_VALUE && b == -1 ? Long.MAX_VALUE : a / b);
        binary(c, "mod", (a, b) -> b == 0 ? 0 : a % b);
        binary(c, "and", (a, b) -> a & b);
        binary(c, "or", (a, b) -> a | b);
        binary(c, "xor", (a, b) -> a ^ b);
        unary(c, "neg", a -> a == Long.MIN_VALUE ? Long.MAX_VALUE : -a);
        unary(c, "cpl", a -> ~a);
        test(c, "bool", a -> a != 0);
        test(c, "not", a -> a == 0);
        test(c, "odd", a -> (a & 1) != 0);
        test(c, "even", a -> (a & 1) == 0);
    }

    /** HAProxy documents a sum; 2.6.12 returns LLONG_MAX for most sums of two negatives (its bug #2216). */
    static long add(long a, long b) {
        long r = a + b;
        // Overflow when both operands have the sign the result lacks.
        return ((a ^ r) & (b ^ r)) < 0 ? (a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE) : r;
    }

    private static long mul(long a, long b) {
        long hi = Math.multiplyHigh(a, b);
        long lo = a * b;
        if (hi == lo >> 63) {
            return lo;
        }
        return (a < 0) == (b < 0) ? Long.MAX_VALUE : Long.MIN_VALUE;
    }

    private interface LongTest {
        boolean test(long v);
    }

    private static void binary(SampleCatalog c, String name, LongBinaryOperator op) {
        c.converter(new Converter(name, ArgSpec.of(1, ArgType.STR), SampleType.SINT, SampleType.SINT, (a, smp, ctx) -> {
            if (a[0].type() == ArgType.SINT) {
                return result(smp, op.applyAsLong(smp.num(), a[0].num()));
            }
            Sample v = a[0].as(VarRef.class).getAs(ctx, SampleType.SINT);
            return v != null && result(smp, op.applyAsLong(smp.num(), v.num()));
        }, ArithmeticConverters::checkOperand));
    }

    private static void unary(SampleCatalog c, String name, LongUnaryOperator op) {
        c.converter(new Converter(name, ArgSpec.NONE, SampleType.SINT, SampleType.SINT,
                (a, smp, ctx) -> result(smp, op.applyAsLong(smp.num()))));
    }

    private static void test(SampleCatalog c, String name, LongTest t) {
        c.converter(new Converter(name, ArgSpec.NONE, SampleType.SINT, SampleType.BOOL,
                (a, smp, ctx) -> smp.setBool(t.test(smp.num()))));
    }

    /** Stores an integer result, keeping the type of a bool input. */
    private static boolean result(Sample smp, long v) {
        SampleType t = smp.type();
        smp.setSint(v);
        if (t == SampleType.BOOL) {
            smp.retype(SampleType.BOOL);
        }
        return true;
    }

    /**
     * Turns the operand into an integer (decimal, optionally signed, saturating; empty is 0) or a variable
     * reference.
     */
    static void checkOperand(Arg[] args) throws ConfigException {
        String text = args[0].text();
        int digits = text.startsWith("-") || text.startsWith("+") ? 1 : 0;
        if (text.chars().skip(digits).allMatch(ch -> ch >= '0' && ch <= '9')) {
            byte[] b = text.getBytes(StandardCharsets.ISO_8859_1);
            args[0] = Arg.of(ArgType.SINT, text, Casts.readInt64(b, 0, b.length));
            return;
        }
        try {
            args[0] = new Arg(ArgType.VAR, text, 0, VarRef.parse(text));
        } catch (ConfigException e) {
            throw new ConfigException("expects an integer or a variable name");
        }
    }
}
