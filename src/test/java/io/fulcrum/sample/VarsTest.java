package io.fulcrum.sample;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The tune.vars accounting: 80 bytes a variable plus a string's length, counted in its scope and those including it
 * (the thresholds are those haproxy 2.6.12 showed: txn-max-size 80 holds one integer, 83 one 3-byte string).
 */
class VarsTest {
    @AfterEach
    void noLimits() {
        Vars.limit(new VarLimits());
    }

    private static Sample str(String s) {
        Sample v = new Sample();
        v.setStr(s);
        return v;
    }

    private static Sample sint(long n) {
        Sample v = new Sample();
        v.setSint(n);
        return v;
    }

    private static VarLimits limits(long sess, long txn, long reqres) {
        VarLimits l = new VarLimits();
        l.sess = sess;
        l.txn = txn;
        l.reqres = reqres;
        return l;
    }

    @Test
    void aVariableCostsEightyBytesPlusItsString() {
        Vars.limit(limits(0, 83, 0));
        Vars txn = new Vars(VarScope.TXN, new Vars(VarScope.SESS, Vars.PROC));
        assertThat(txn.set("a", str("abcd"))).isFalse();
        assertThat(txn.get("a")).isNull();
        assertThat(txn.set("a", str("abc"))).isTrue();
        assertThat(txn.set("a", str("xyz"))).as("a new value replaces the old one's bytes").isTrue();
        assertThat(txn.set("a", str("wxyz"))).isFalse();
        assertThat(txn.get("a")).as("a value that did not fit leaves no variable").isNull();
        assertThat(txn.set("b", sint(1))).isTrue();
        assertThat(txn.set("c", sint(1))).isFalse();
        txn.unset("b");
        assertThat(txn.set("c", sint(1))).as("unset gives the bytes back").isTrue();
    }

    @Test
    void scopesIncludeTheirInnerOnesUntilTheseEnd() {
        Vars.limit(limits(200, 170, 90));
        Vars sess = new Vars(VarScope.SESS, Vars.PROC);
        Vars txn = new Vars(VarScope.TXN, sess);
        Vars req = new Vars(VarScope.REQ, txn);
        assertThat(sess.set("s", str("abcdefghij"))).isTrue();
        assertThat(txn.set("t", str("0123456789"))).isTrue();
        assertThat(req.set("r", sint(1))).as("the session's 200 bytes would be exceeded").isFalse();
        txn.release();
        Vars next = new Vars(VarScope.TXN, sess);
        assertThat(next.set("t", str("0123456789"))).as("the first transaction's bytes were given back").isTrue();
    }

    @Test
    void withoutLimitsNothingIsRefused() {
        Vars txn = new Vars(VarScope.TXN, new Vars(VarScope.SESS, Vars.PROC));
        assertThat(txn.set("a", str("x".repeat(100_000)))).isTrue();
    }
}
