package io.fulcrum.runtime;

import io.netty.channel.IoOps;
import io.netty.channel.IoRegistration;
import io.netty.channel.epoll.EpollIoOps;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Works around a bug of Netty 4.2.13 to 4.2.18's epoll transport. When a connection's interest set
 * becomes empty (its input was shut by the peer's FIN and nothing waits to be written), the handler
 * removes the descriptor from epoll but its registration still believes it is added; the next change
 * (waiting to write the rest of a response) then fails with ENOENT and the connection is closed: data
 * sent after a half-close is cut. The loops' handler wrapper ({@link ActivityIoHandler}) submits through
 * {@link #submit}, which puts an emptied registration back in its "not added" state, so the next change adds the
 * descriptor again. Without the expected internals (a Netty with the bug fixed and the code changed), submits are
 * plain.
 */
final class EpollRegistrationFix {
    private EpollRegistrationFix() {
    }

    private static final VarHandle STATE;
    private static final Object PENDING;

    static {
        VarHandle state = null;
        Object pending = null;
        try {
            Class<?> reg = Class.forName("io.netty.channel.epoll.EpollIoHandler$DefaultEpollIoRegistration");
            Class<?> states = Class.forName("io.netty.channel.epoll.EpollIoHandler$RegistrationState");
            state = MethodHandles.privateLookupIn(reg, MethodHandles.lookup()).findVarHandle(reg, "state", states);
            for (Object s : states.getEnumConstants()) {
                if (((Enum<?>) s).name().equals("Pending")) {
                    pending = s;
                }
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            state = null;
        }
        STATE = pending == null ? null : state;
        PENDING = pending;
    }

    /**
     * Submits {@code ops} to an epoll registration, with the fix when it applies: an emptied interest set puts the
     * registration back in its "not added" state. Any other registration gets a plain submit.
     */
    static long submit(IoRegistration registration, IoOps ops) {
        if (STATE == null || !(ops instanceof EpollIoOps)) {
            return registration.submit(ops);
        }
        synchronized (registration) { // the lock the registration itself takes in submit
            long result = registration.submit(ops);
            if (result == 0 && ((EpollIoOps) ops).value() == 0 && registration.isValid()) {
                STATE.set(registration, PENDING);
            }
            return result;
        }
    }
}
