package io.fulcrum.sample;

import io.fulcrum.cfg.ConfigException;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** Expected values and messages come from haproxy 2.6.12, unless a comment says otherwise. */
class BasicConvertersTest extends ConverterTableTest {

    @Override
    String results() {
        return """
            str(abc),debug => str:abc
            str(abc),debug(pfx,stderr),upper => str:ABC
            int(-5),debug(,stdout) => sint:-5
            ipv6(::1),debug(v6,buf0) => ipv6:::1
            bool(1),debug(b,stderr) => bool:1
            str(abc),sha1,debug(x,stderr),hex => str:A9993E364706816ABA3E25717850C26C9CD0D89D
            """;
    }

    @Override
    String errors() {
        return """
            str(a),debug(x,nosuch) => invalid args in converter 'debug' : No such sink 'nosuch'
            str(a),debug(x,y,z) => invalid arg 2 in converter 'debug' : expected ')' before ',z)'
            str(a),set-var(txn.a,foo) => invalid args in converter 'set-var' : unknown condition "foo"
            str(a),set-var(txn.a,ifexists,ifset,ifgt,iflt,ifempty) => invalid arg 5 in converter 'set-var' : expected ')' before ',ifempty)'
            str(a),set-var(txn.a,IFSET) => invalid args in converter 'set-var' : unknown condition "IFSET"
            """;
    }

    @Test
    void debugWritesWhatHaproxyWrites() throws ConfigException {
        // Lines as haproxy 2.6.12 writes them to stderr.
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.ISO_8859_1));
        try {
            eval("str(abc),debug(pfx,stderr),debug(,stderr)");
            eval("int(-5),debug(,stderr)");
            eval("ipv6(::1),debug(v6,stderr)");
            eval("bool(1),debug(b,stderr)");
            eval("str(AAFhfw==),b64dec,debug(bin,stderr)");
            eval("str(AWF/),b64dec,debug(bin,stderr)");
        } finally {
            System.setErr(err);
        }
        assertThat(captured.toString(StandardCharsets.ISO_8859_1)).isEqualTo("""
                [debug] pfx: type=str <abc>
                [debug] : type=str <abc>
                [debug] : type=sint <-5>
                [debug] v6: type=ipv6 <::1>
                [debug] b: type=bool <1>
                [debug] bin: type=bin <>
                [debug] bin: type=bin <.a.>
                """);
    }

    /** A stream's variables only. */
    private static SampleContext withVars() {
        java.util.Map<VarScope, Vars> vars = new java.util.EnumMap<>(VarScope.class);
        return (SampleContext) java.lang.reflect.Proxy.newProxyInstance(SampleContext.class.getClassLoader(),
                new Class<?>[]{SampleContext.class}, (proxy, method, args) -> method.getName().equals("vars")
                        ? vars.computeIfAbsent((VarScope) args[0], s -> new Vars((VarScope) s, Vars.PROC)) : null);
    }

    private static String run(SampleContext ctx, String expr) throws ConfigException {
        Sample s = new Sample();
        return PARSER.parse(expr).eval(ctx, s) ? s.asText() : "none";
    }

    @Test
    void setVarConditions() throws ConfigException {
        // The same rules in this order through haproxy 2.6.12 gave these results and variables.
        SampleContext ctx = withVars();
        run(ctx, "int(5),set-var(txn.a)");
        assertThat(run(ctx, "int(3),set-var(txn.a,ifgt)")).isEqualTo("3");
        assertThat(run(ctx, "var(txn.a)")).isEqualTo("3");
        run(ctx, "int(5),set-var(txn.a)");
        assertThat(run(ctx, "int(7),set-var(txn.a,ifgt)")).isEqualTo("none");
        assertThat(run(ctx, "var(txn.a)")).isEqualTo("5");
        assertThat(run(ctx, "int(3),set-var(txn.a,iflt)")).isEqualTo("none");
        assertThat(run(ctx, "str(x),set-var(txn.b,ifexists)")).isEqualTo("none");
        assertThat(run(ctx, "var(txn.b)")).isEqualTo("none");
        assertThat(run(ctx, "str(x),set-var(txn.c,ifnotexists)")).isEqualTo("x");
        assertThat(run(ctx, "str(y),set-var(txn.c,ifnotexists)")).isEqualTo("none");
        assertThat(run(ctx, "var(txn.c)")).isEqualTo("x");
        assertThat(run(ctx, "str(),set-var(txn.d,ifnotempty)")).isEqualTo("none");
        assertThat(run(ctx, "str(z),set-var(txn.c,ifexists,ifset)")).isEqualTo("z");
        run(ctx, "str(),unset-var(txn.c)");
        assertThat(run(ctx, "str(w),set-var(txn.c,ifexists)")).isEqualTo("none");
        assertThat(run(ctx, "str(w),set-var(txn.c,ifnotset)")).isEqualTo("w");
        run(ctx, "str(abc),set-var(txn.e)");
        assertThat(run(ctx, "int(1),set-var(txn.e,ifgt)")).as("not two integers: true").isEqualTo("1");
        assertThat(run(ctx, "int(9),set-var(txn.f,ifgt)")).isEqualTo("9");
        assertThat(run(ctx, "int(0),set-var(txn.g,ifempty)")).as("scalars are never empty").isEqualTo("none");
    }
}
