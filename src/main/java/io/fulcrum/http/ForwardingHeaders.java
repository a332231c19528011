package io.fulcrum.http;

import io.fulcrum.conn.InetText;

import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * Adds X-Forwarded-For ({@code option forwardfor}) and X-Original-To ({@code option originalto}) to a request on
 * its way to a server, as HAProxy does once the backend is known: the header goes when the frontend or the
 * backend asks for it, under the backend's name if the backend asks, at the end of the fields; an address in
 * either one's {@code except} network gets none; for forwardfor, a header already there is enough only when
 * both sides that ask say {@code if-none}. Addresses that are not IP (unix sockets) get none.
 */
public final class ForwardingHeaders {
    private ForwardingHeaders() {
    }

    public static void add(RequestHead request, HttpOptions frontend, HttpOptions backend, SocketAddress source,
                           SocketAddress destination) {
        AddressHeader feFor = frontend.forwardFor;
        AddressHeader beFor = backend.forwardFor;
        if (feFor != null || beFor != null) {
            String name = beFor != null ? beFor.name() : feFor.name();
            boolean always = feFor != null && !feFor.ifNone() || beFor != null && !beFor.ifNone();
            if (always || !request.headers().contains(name)) {
                add(request, name, source, feFor, beFor);
            }
        }
        AddressHeader feTo = frontend.originalTo;
        AddressHeader beTo = backend.originalTo;
        if (feTo != null || beTo != null) {
            add(request, beTo != null ? beTo.name() : feTo.name(), destination, feTo, beTo);
        }
    }

    private static void add(RequestHead request, String name, SocketAddress address, AddressHeader fe, AddressHeader be) {
        if (address instanceof InetSocketAddress inet && inet.getAddress() != null
                && (fe == null || !fe.excepts(inet.getAddress())) && (be == null || !be.excepts(inet.getAddress()))) {
            request.headers().add(name, InetText.of(inet.getAddress()));
        }
    }
}
