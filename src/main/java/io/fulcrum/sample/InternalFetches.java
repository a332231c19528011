package io.fulcrum.sample;

import static io.fulcrum.sample.ArgType.*;

/** Fetches of constants, variables and the process's own state (configuration.txt 7.3.2). */
final class InternalFetches {
    private InternalFetches() {
    }

    static void register(SampleCatalog c) {
        c.fetch(new Fetch("always_true", ArgSpec.NONE, SampleType.BOOL, Source.INTRN, (a, ctx, out) -> out.setBool(true)));
        c.fetch(new Fetch("always_false", ArgSpec.NONE, SampleType.BOOL, Source.INTRN, (a, ctx, out) -> out.setBool(false)));
        c.fetch(new Fetch("bool", ArgSpec.of(1, SINT), SampleType.BOOL, Source.CONST, (a, ctx, out) -> out.setBool(a[0].num() != 0)));
        c.fetch(new Fetch("int", ArgSpec.of(1, SINT), SampleType.SINT, Source.CONST, (a, ctx, out) -> out.setSint(a[0].num())));
        c.fetch(new Fetch("str", ArgSpec.of(1, STR), SampleType.STR, Source.CONST, (a, ctx, out) -> out.setStr(a[0].text())));
        c.fetch(new Fetch("ipv4", ArgSpec.of(1, IPV4), SampleType.IPV4, Source.CONST, (a, ctx, out) -> out.setIpv4((int) a[0].num())));
        c.fetch(new Fetch("ipv6", ArgSpec.of(1, IPV6), SampleType.IPV6, Source.CONST, (a, ctx, out) -> out.setIpv6(a[0].as(byte[].class))));
        c.fetch(new Fetch("var", ArgSpec.of(1, VAR, STR), SampleType.ANY, Source.INTRN, InternalFetches::var));
        c.fetch(new Fetch("env", ArgSpec.of(1, STR), SampleType.STR, Source.INTRN, (a, ctx, out) -> {
            String v = System.getenv(a[0].text());
            return v != null && out.setStr(v);
        }));
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
