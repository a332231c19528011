package io.fulcrum.sample;

import io.fulcrum.cfg.ConfigException;

import static io.fulcrum.sample.ArgType.*;

/** General converters: case, length, storing into variables, and debug (configuration.txt 7.3.1). */
final class BasicConverters {
    private BasicConverters() {
    }

    static void register(SampleCatalog c) {
        c.converter(new Converter("lower", ArgSpec.NONE, SampleType.STR, SampleType.STR, (a, smp, ctx) -> caseMap(smp, false)));
        c.converter(new Converter("upper", ArgSpec.NONE, SampleType.STR, SampleType.STR, (a, smp, ctx) -> caseMap(smp, true)));
        c.converter(new Converter("length", ArgSpec.NONE, SampleType.STR, SampleType.SINT, (a, smp, ctx) -> smp.setSint(smp.length())));
        c.converter(new Converter("set-var", ArgSpec.of(1, VAR, STR, STR, STR, STR), SampleType.ANY, SampleType.SAME,
                BasicConverters::setVar, BasicConverters::checkConditions));
        c.converter(new Converter("unset-var", ArgSpec.of(1, VAR), SampleType.ANY, SampleType.SAME, (a, smp, ctx) -> {
            a[0].as(VarRef.class).unset(ctx);
            return true;
        }));
        c.converter(new Converter("debug", ArgSpec.of(0, STR, STR), SampleType.ANY, SampleType.SAME, BasicConverters::debug,
                BasicConverters::checkSink));
    }

    private static void checkConditions(Arg[] a) throws ConfigException {
        for (int k = 1; k < a.length; k++) {
            VarCondition.of(a[k].text());
        }
    }

    /** Stores the sample when every condition holds, and then passes it on (a condition that fails ends the expression). */
    private static boolean setVar(Arg[] a, Sample smp, SampleContext ctx) {
        VarRef ref = a[0].as(VarRef.class);
        Sample old = a.length > 1 ? ref.get(ctx) : null;
        for (int k = 1; k < a.length; k++) {
            if (!VarCondition.named(a[k].text()).holds(ref, old, smp)) {
                return false;
            }
        }
        ref.set(ctx, smp);
        return true;
    }

    /**
     * The event sinks debug can write to: stdout and stderr. Fulcrum has no ring buffers yet, so what goes
     * to buf0 (the default, read with "show events") is dropped.
     */
    private static void checkSink(Arg[] a) throws ConfigException {
        String sink = a.length > 1 && !a[1].text().isEmpty() ? a[1].text() : "buf0";
        if (!sink.equals("buf0") && !sink.equals("stdout") && !sink.equals("stderr")) {
            throw new ConfigException("No such sink '" + sink + "'");
        }
    }

    /** Writes "[debug] prefix: type=str <value>" (unprintable bytes as dots) and passes the sample on. */
    private static boolean debug(Arg[] a, Sample smp, SampleContext ctx) {
        String sink = a.length > 1 ? a[1].text() : "";
        if (!sink.equals("stdout") && !sink.equals("stderr")) {
            return true;
        }
        StringBuilder line = new StringBuilder("[debug] ").append(a.length > 0 ? a[0].text() : "").append(": type=")
                .append(smp.type()).append(" <");
        String value = smp.asText(); // as a string: binary data stops at its first NUL
        for (int i = 0; i < value.length(); i++) {
            char ch = value.charAt(i);
            line.append(ch >= 0x20 && ch < 0x7f ? ch : '.');
        }
        line.append(">\n");
        (sink.equals("stdout") ? System.out : System.err).print(line);
        return true;
    }

    private static boolean caseMap(Sample smp, boolean upper) {
        byte[] b = new byte[smp.length()];
        for (int i = 0; i < b.length; i++) {
            byte x = smp.byteAt(i);
            b[i] = upper ? (x >= 'a' && x <= 'z' ? (byte) (x - 32) : x) : (x >= 'A' && x <= 'Z' ? (byte) (x + 32) : x);
        }
        smp.setStr(b);
        return true;
    }
}
