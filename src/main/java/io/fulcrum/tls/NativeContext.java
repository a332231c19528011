package io.fulcrum.tls;

import io.netty.handler.ssl.ReferenceCountedOpenSslContext;
import io.netty.handler.ssl.ReferenceCountedOpenSslEngine;
import io.netty.handler.ssl.SslContext;
import io.netty.internal.tcnative.SSL;
import io.netty.internal.tcnative.SSLContext;

import javax.net.ssl.SSLEngine;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The settings Netty's builder does not take, applied to the BoringSSL context underneath: an OpenSSL cipher
 * string (Netty wants single suite names), the curves, tickets. The context's native handle is the protected
 * field {@code ctx} (not {@code sslCtxPointer()}, which is a different pointer: tcnative crashes on it).
 */
final class NativeContext {
    private static final VarHandle CTX;

    static {
        try {
            CTX = MethodHandles.privateLookupIn(ReferenceCountedOpenSslContext.class, MethodHandles.lookup())
                    .findVarHandle(ReferenceCountedOpenSslContext.class, "ctx", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private NativeContext() {
    }

    /** The tcnative handle of an OpenSSL context; 0 for a JDK one. */
    static long handle(SslContext context) {
        return context instanceof ReferenceCountedOpenSslContext c ? (long) CTX.get(c) : 0;
    }

    /** False when OpenSSL takes none of the ciphers. */
    static boolean ciphers(long ctx, String ciphers) {
        try {
            return SSLContext.setCipherSuite(ctx, ciphers, false);
        } catch (Exception e) {
            return false;
        }
    }

    static boolean curves(long ctx, String curves) {
        try {
            return SSLContext.setCurvesList(ctx, curves.split(":"));
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** Netty makes its contexts prefer the server's order. */
    static void preferClientCiphers(long ctx) {
        SSLContext.clearOptions(ctx, SSL.SSL_OP_CIPHER_SERVER_PREFERENCE);
    }

    /** {@code no-tls-tickets} or not: kept on the context, where {@link #keepTicketChoice} finds it for each engine. */
    static void tickets(long ctx, boolean on) {
        if (on) {
            SSLContext.clearOptions(ctx, SSL.SSL_OP_NO_TICKET);
        } else {
            SSLContext.setOptions(ctx, SSL.SSL_OP_NO_TICKET);
        }
    }

    /**
     * Gives a new engine of {@code context} the context's choice about tickets. Netty's engine turns tickets on for
     * itself whenever it may speak TLS 1.3, and BoringSSL reads the switch per connection for every version: without
     * this, no-tls-tickets would still send tickets (TLS 1.2 ones as well).
     *
     * @return true when the context refuses tickets
     */
    static boolean keepTicketChoice(SslContext context, SSLEngine engine) {
        long ctx = handle(context);
        boolean off = ctx != 0 && (SSLContext.getOptions(ctx) & SSL.SSL_OP_NO_TICKET) != 0;
        if (off && engine instanceof ReferenceCountedOpenSslEngine e) {
            SSL.setOptions(e.sslPointer(), SSL.SSL_OP_NO_TICKET);
        }
        return off;
    }
}
