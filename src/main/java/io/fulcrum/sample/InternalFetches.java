package io.fulcrum.sample;

import io.fulcrum.cfg.ConfigException;

import java.nio.charset.StandardCharsets;

import static io.fulcrum.sample.ArgType.*;

/** Fetches of constants, variables and the environment (configuration.txt 7.3.2). */
final class InternalFetches {
    private InternalFetches() {
    }

    static void register(SampleCatalog c) {
        c.fetch(new Fetch("always_true", ArgSpec.NONE, SampleType.BOOL, Source.CONST, (a, ctx, out) -> out.setBool(true)));
        c.fetch(new Fetch("always_false", ArgSpec.NONE, SampleType.BOOL, Source.CONST, (a, ctx, out) -> out.setBool(false)));
        c.fetch(new Fetch("bool", ArgSpec.of(1, STR), SampleType.BOOL, Source.CONST, (a, ctx, out) -> out.setBool(a[0].num() != 0),
                InternalFetches::checkBool));
        c.fetch(new Fetch("int", ArgSpec.of(1, SINT), SampleType.SINT, Source.CONST, (a, ctx, out) -> out.setSint(a[0].num())));
        c.fetch(new Fetch("str", ArgSpec.of(1, STR), SampleType.STR, Source.CONST, (a, ctx, out) -> out.setStr(a[0].text())));
        c.fetch(new Fetch("ipv4", ArgSpec.of(1, IPV4), SampleType.IPV4, Source.CONST, (a, ctx, out) -> out.setIpv4((int) a[0].num())));
        c.fetch(new Fetch("ipv6", ArgSpec.of(1, IPV6), SampleType.IPV6, Source.CONST, (a, ctx, out) -> out.setIpv6(a[0].as(byte[].class))));
        c.fetch(new Fetch("bin", ArgSpec.of(1, STR), SampleType.BIN, Source.CONST, (a, ctx, out) -> out.setBin(a[0].as(byte[].class)),
                InternalFetches::checkHex));
        // HAProxy keeps only its known methods' numbers here, and so prints "OPTIONS" for meth(get): Fulcrum
        // keeps the name as written.
        c.fetch(new Fetch("meth", ArgSpec.of(1, STR), SampleType.METH, Source.CONST, (a, ctx, out) -> {
            byte[] m = a[0].as(byte[].class);
            return out.set(SampleType.METH, m, 0, m.length);
        }, a -> a[0] = new Arg(STR, a[0].text(), 0, a[0].text().getBytes(StandardCharsets.ISO_8859_1))));
        c.fetch(new Fetch("var", ArgSpec.of(1, VAR, STR), SampleType.ANY, Source.CONST, InternalFetches::var));
        c.fetch(new Fetch("env", ArgSpec.of(1, STR), SampleType.STR, Source.CONST, (a, ctx, out) -> {
            String v = System.getenv(a[0].text());
            return v != null && out.setStr(v);
        }));
    }

    /** "true", "false", "1" or "0", in any case; the value goes to the argument's number. */
    private static void checkBool(Arg[] a) throws ConfigException {
        String t = a[0].text();
        boolean yes = t.equalsIgnoreCase("true") || t.equals("1");
        if (!yes && !t.equalsIgnoreCase("false") && !t.equals("0")) {
            throw new ConfigException("Expects 'true', 'false', '0' or '1'");
        }
        a[0] = Arg.of(STR, t, yes ? 1 : 0);
    }

    /** Hexadecimal digits, two per byte; the bytes go to the argument's value. */
    private static void checkHex(Arg[] a) throws ConfigException {
        String t = a[0].text();
        if (t.isEmpty()) {
            throw new ConfigException("(null)"); // HAProxy's words for an empty argument
        }
        if (t.length() % 2 != 0) {
            throw new ConfigException("an even number of hex digit is expected");
        }
        byte[] b = new byte[t.length() / 2];
        for (int i = 0; i < t.length(); i++) {
            int d = Character.digit(t.charAt(i), 16);
            if (d < 0 || t.charAt(i) > 127) {
                throw new ConfigException("an hex digit is expected (found '" + t.charAt(i) + "')");
            }
            b[i / 2] = (byte) (b[i / 2] << 4 | d);
        }
        a[0] = new Arg(STR, t, 0, b);
    }

    /** {@code var(name[,default])}: the variable's value, or the default when it is not set. */
    private static boolean var(Arg[] a, SampleContext ctx, Sample out) {
        Sample v = a[0].as(VarRef.class).get(ctx);
        if (v != null) {
            out.copyFrom(v);
            return true;
        }
        if (a.length > 1) {
            out.setStr(a[1].text());
            return true;
        }
        return false;
    }
}
