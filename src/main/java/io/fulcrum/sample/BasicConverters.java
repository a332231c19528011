package io.fulcrum.sample;

import io.fulcrum.cfg.ConfigException;

import static io.fulcrum.sample.ArgType.*;

/** General converters: case, length, storing into variables (configuration.txt 7.3.1; debug is the log module's). */
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
