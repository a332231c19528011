package io.fulcrum.runtime;

import io.netty.channel.IoEvent;
import io.netty.channel.IoRegistration;
import io.netty.channel.epoll.EpollIoHandle;
import io.netty.channel.unix.FileDescriptor;

/**
 * A socket's epoll handle as its loop's handler registers it ({@link ActivityIoHandler#register}), counting the I/O
 * events the loop hands to the socket: {@code show fd}'s {@code evts}. Why a wrapper: Netty's epoll handler calls the
 * channel's handle straight from its event array, and the handle it registered is the one it calls. The count is a
 * plain field, written by the loop that polls the socket and read by {@code show fd} on that same loop: one increment
 * per event, no lock, no allocation.
 */
final class CountingEpollHandle implements EpollIoHandle {
    private final EpollIoHandle handle;
    /** Events handed to the socket; on its loop only. */
    private long events;

    CountingEpollHandle(EpollIoHandle handle) {
        this.handle = handle;
    }

    /** How many events the loop has handed to the socket since it was registered. */
    long events() {
        return events;
    }

    @Override
    public FileDescriptor fd() {
        return handle.fd();
    }

    @Override
    public void handle(IoRegistration registration, IoEvent event) {
        events++;
        handle.handle(registration, event);
    }

    @Override
    public void registered() {
        handle.registered();
    }

    @Override
    public void unregistered() {
        handle.unregistered();
    }

    @Override
    public void close() throws Exception {
        handle.close();
    }
}
