package io.fulcrum.resolvers;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.rules.ActionArgs;
import io.fulcrum.rules.HttpActions;
import io.fulcrum.rules.TcpActions;
import io.fulcrum.rules.Verdict;
import io.fulcrum.sample.Expr;
import io.fulcrum.sample.Sample;
import io.fulcrum.sample.SampleContext;
import io.fulcrum.sample.Stage;
import io.fulcrum.sample.VarRef;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;

/**
 * {@code http-request do-resolve(<var>,<resolvers>[,ipv4|ipv6]) <expr>} and its {@code tcp-request content} twin:
 * resolves the name the expression gives with the section's name servers and stores the address in the variable (left
 * unset when the name does not resolve). The rules wait for the answer: HTTP ones always, TCP ones within their inspect
 * delay. As in HAProxy, the last evaluation of TCP rules (no inspect delay, or once it expired) asks nothing.
 */
final class DoResolve {
    /** HAProxy's usage message; the rule parser adds the final period. */
    private static final String USAGE = "Expects 'do-resolve(<varname>,<resolvers>[,<options>]) <expr>'. Available options are 'ipv4' and 'ipv6'";

    /** The section a rule names, found once the configuration is read. */
    static final class Ref {
        final String proxy;
        final String section;
        volatile ResolversRuntime runtime;

        Ref(String proxy, String section) {
            this.proxy = proxy;
            this.section = section;
        }
    }

    /** A parsed rule. */
    private record Rule(Ref ref, VarRef var, Expr expr, boolean ipv4) {
        Verdict run(SampleContext ctx) {
            ResolversRuntime rt = ref.runtime;
            Sample name = new Sample();
            if (rt == null || !expr.eval(ctx, name)) {
                return Verdict.CONTINUE;
            }
            // Run again once answered: the lookup this rule waited for holds the answer.
            CompletableFuture<InetAddress> answer = ctx.resumed() instanceof ResolversRuntime.Lookup done
                    && done.key.equals(ResolversRuntime.Lookup.key(name.asText(), ipv4)) ? done : null;
            if (answer == null && !ctx.mayWait()) {
                return Verdict.CONTINUE;
            }
            if (answer == null) {
                answer = rt.lookup(name.asText(), ipv4);
            }
            if (!answer.isDone()) {
                ctx.resumeWhen(answer);
                return Verdict.WAIT;
            }
            InetAddress ip = answer.getNow(null);
            if (ip != null) {
                Sample s = new Sample();
                if (ip instanceof Inet4Address) {
                    s.setIpv4(ByteBuffer.wrap(ip.getAddress()).getInt());
                } else {
                    s.setIpv6(ip.getAddress());
                }
                var.set(ctx, s);
            }
            return Verdict.CONTINUE;
        }
    }

    private DoResolve() {
    }

    static void register(HttpActions http, TcpActions tcp, ResolversConfig config) {
        http.add("do-resolve(*)", a -> {
            Rule r = parse(a, config);
            return (txn, msg) -> r.run(txn);
        }, HttpActions.Phase.REQUEST);
        tcp.add("do-resolve(*)", a -> {
            if (a.stage() == Stage.FE_CON_ACC || a.stage() == Stage.FE_SES_ACC) {
                throw new ConfigException("'do-resolve' is only allowed in 'tcp-request content' rules");
            }
            return parse(a, config)::run;
        });
    }

    private static Rule parse(ActionArgs a, ResolversConfig config) throws ConfigException {
        String[] p = a.parameter().split(",", -1);
        if (p.length < 2 || p.length > 3 || p[0].isEmpty() || p[1].isEmpty() || p.length == 3 && !p[2].equals("ipv4") && !p[2].equals("ipv6")) {
            throw new ConfigException("Can't parse 'do-resolve(" + a.parameter() + ")'. " + USAGE);
        }
        VarRef var = VarRef.parse(p[0]);
        boolean ipv4 = p.length < 3 || p[2].equals("ipv4");
        if (!a.more()) {
            throw new ConfigException("Can't parse ''. " + USAGE); // (sic: HAProxy names the missing expression)
        }
        Expr expr = a.expr(a.next());
        Ref ref = new Ref(a.proxy().name(), p[1]);
        config.doResolve.add(ref);
        return new Rule(ref, var, expr, ipv4);
    }
}
