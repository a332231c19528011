package io.fulcrum.tls;

import io.netty.handler.ssl.ReferenceCountedOpenSslContext;
import io.netty.handler.ssl.SslContext;
import io.netty.internal.tcnative.SSL;
import io.netty.internal.tcnative.SSLContext;

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

    static void noTickets(long ctx) {
        SSLContext.setOptions(ctx, SSL.SSL_OP_NO_TICKET);
    }
}
