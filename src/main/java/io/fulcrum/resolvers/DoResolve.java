package io.fulcrum.resolvers;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.rules.HttpActions;
import io.fulcrum.rules.Verdict;
import io.fulcrum.sample.Expr;
import io.fulcrum.sample.Sample;
import io.fulcrum.sample.VarRef;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;

/**
 * {@code http-request do-resolve(<var>,<resolvers>[,ipv4|ipv6]) <expr>}: resolves the name the expression gives with the
 * section's name servers and stores the address in the variable (left unset when the name does not resolve). The rules
 * wait for the answer.
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

    private DoResolve() {
    }

    static void register(HttpActions actions, ResolversConfig config) {
        actions.add("do-resolve(*)", a -> {
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
            return (txn, msg) -> {
                ResolversRuntime rt = ref.runtime;
                Sample name = new Sample();
                if (rt == null || !expr.eval(txn, name)) {
                    return Verdict.CONTINUE;
                }
                // Run again once answered: the lookup this rule waited for holds the answer.
                CompletableFuture<InetAddress> answer = txn.resumed() instanceof ResolversRuntime.Lookup done
                        && done.key.equals(ResolversRuntime.Lookup.key(name.asText(), ipv4)) ? done : rt.lookup(name.asText(), ipv4);
                if (!answer.isDone()) {
                    txn.resumeWhen(answer);
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
                    var.set(txn, s);
                }
                return Verdict.CONTINUE;
            };
        }, HttpActions.Phase.REQUEST);
    }
}
