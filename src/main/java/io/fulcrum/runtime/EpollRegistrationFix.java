package io.fulcrum.runtime;

import io.netty.channel.IoHandle;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerContext;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.IoOps;
import io.netty.channel.IoRegistration;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollIoOps;
import io.netty.util.concurrent.ThreadAwareExecutor;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Works around a bug of Netty 4.2.13 to 4.2.18's epoll transport. When a connection's interest set
 * becomes empty (its input was shut by the peer's FIN and nothing waits to be written), the handler
 * removes the descriptor from epoll but its registration still believes it is added; the next change
 * (waiting to write the rest of a response) then fails with ENOENT and the connection is closed: data
 * sent after a half-close is cut. Wrapping the handler, an emptied registration is put back in its
 * "not added" state, so the next change adds the descriptor again. Without the expected internals (a
 * Netty with the bug fixed and the code changed), the plain handler is used.
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

    /** Epoll's handler factory, with the fix when it applies. */
    static IoHandlerFactory factory() {
        IoHandlerFactory epoll = EpollIoHandler.newFactory();
        if (STATE == null) {
            return epoll;
        }
        return new IoHandlerFactory() {
            @Override
            public IoHandler newHandler(ThreadAwareExecutor executor) {
                return new Handler(epoll.newHandler(executor));
            }

            @Override
            public boolean isChangingThreadSupported() {
                return epoll.isChangingThreadSupported();
            }
        };
    }

    private record Handler(IoHandler delegate) implements IoHandler {
        @Override
        public void initialize() {
            delegate.initialize();
        }

        @Override
        public int run(IoHandlerContext context) {
            return delegate.run(context);
        }

        @Override
        public void prepareToDestroy() {
            delegate.prepareToDestroy();
        }

        @Override
        public void destroy() {
            delegate.destroy();
        }

        @Override
        public IoRegistration register(IoHandle handle) throws Exception {
            return new Registration(delegate.register(handle));
        }

        @Override
        public void wakeup() {
            delegate.wakeup();
        }

        @Override
        public boolean isCompatible(Class<? extends IoHandle> handleType) {
            return delegate.isCompatible(handleType);
        }
    }

    private record Registration(IoRegistration delegate) implements IoRegistration {
        @Override
        public <T> T attachment() {
            return delegate.attachment();
        }

        @Override
        public long submit(IoOps ops) {
            synchronized (delegate) { // the lock the registration itself takes in submit
                long result = delegate.submit(ops);
                if (result == 0 && ops instanceof EpollIoOps e && e.value() == 0 && delegate.isValid()) {
                    STATE.set(delegate, PENDING);
                }
                return result;
            }
        }

        @Override
        public boolean isValid() {
            return delegate.isValid();
        }

        @Override
        public boolean cancel() {
            return delegate.cancel();
        }
    }
}
