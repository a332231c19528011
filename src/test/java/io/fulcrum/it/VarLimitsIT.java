package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * tune.vars.*-max-size over a real connection: a set-var beyond a scope's limit (or a scope including it) silently
 * does nothing, and a transaction's variables are given back to its session when it ends (the second request on the
 * connection stores the same ones). The answers are haproxy 2.6's (-Dit.proxy=haproxy).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class VarLimitsIT {
    @Test
    void setVarBeyondALimitDoesNothing() throws Exception {
        int fe = freePort();
        try (FulcrumProcess proxy = serve("""
                global
                    tune.vars.sess-max-size 200
                    tune.vars.txn-max-size 170
                    tune.vars.reqres-max-size 90
                defaults
                    mode http
                    timeout connect 2s
                    timeout client 10s
                    timeout server 10s
                frontend fe
                    bind 127.0.0.1:%d
                    http-request set-var(sess.s) str(abcdefghij)
                    http-request set-var(txn.t) str(0123456789)
                    http-request set-var(req.r) int(1)
                    http-request set-var(txn.u) int(2)
                    http-request set-var(req.big) str(0123456789)
                    http-request return status 200 content-type text/plain lf-string "s=%%[var(sess.s)] t=%%[var(txn.t)] r=%%[var(req.r)] u=%%[var(txn.u)] big=%%[var(req.big)]"
                """.formatted(fe), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            for (int i = 0; i < 2; i++) {
                // sess.s takes 90 bytes and txn.t 90 more: 180 of the session's 200; then each new variable (80) is too much
                assertThat(c.exchange(get("/")).bodyText()).isEqualTo("s=abcdefghij t=0123456789 r= u= big=");
            }
        }
    }
}
