package io.fulcrum.log;

import io.fulcrum.http.HttpHead;
import io.fulcrum.http.HttpHeaders;
import io.fulcrum.proxy.ProxyKind;
import io.fulcrum.proxy.ProxyPart;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.sample.SampleContext;

import java.util.ArrayList;
import java.util.List;

/**
 * A frontend's capture slots, request and response, in declaration order (the order of %hr/%hs): those of
 * {@code capture request|response header} (the last value of the named field), and those that rules fill
 * ({@code declare capture}, {@code http-request capture ... len}, {@code tcp-request content capture}).
 * Values are cut to the slot's length and kept for the log line and the {@code capture.req.hdr} fetches.
 * Also the frontend's {@code capture cookie} (%CC, %CS). The slots that a named defaults section's rules fill are
 * inherited: they come first in the frontends using it, as in HAProxy (captured fields and cookies are refused in
 * defaults sections).
 */
public final class HeaderCaptures implements ProxyPart {
    static final HeaderCaptures NONE = new HeaderCaptures();

    /** One slot: the header field it captures (null: filled by rules) and the longest value kept. */
    record Capture(String name, int length) {
    }

    /** A rule's {@code id <slot>}, checked once the frontend has all its slots. */
    private record Reference(boolean response, int slot, String rule) {
    }

    /** {@code capture cookie}: the beginning of the cookie's name (null: none), and the longest "name=value" kept. */
    String cookieName;
    int cookieLength;
    final List<Capture> request = new ArrayList<>();
    final List<Capture> response = new ArrayList<>();
    private final List<Reference> references = new ArrayList<>();

    @Override
    public ProxyPart inherit() {
        if (request.isEmpty() && response.isEmpty()) {
            return null;
        }
        HeaderCaptures c = new HeaderCaptures();
        c.request.addAll(request);
        c.response.addAll(response);
        c.references.addAll(references);
        return c;
    }

    @Override
    public String inheritanceRefusedTo(ProxyKind kind) {
        return kind.isFrontend() || request.isEmpty() && response.isEmpty() ? null
                : "backend or defaults sections cannot inherit from a defaults section defining capptures"; // sic, HAProxy's
    }

    public static HeaderCaptures of(ProxySpec p) {
        return p.part(HeaderCaptures.class, HeaderCaptures::new);
    }

    /** Adds a slot filled by rules; returns its number. */
    public int declare(boolean response, int length) {
        List<Capture> slots = slots(response);
        slots.add(new Capture(null, length));
        return slots.size() - 1;
    }

    /** Records that {@code rule} ("http-request capture") fills slot {@code slot}, for {@link #check}. */
    public void reference(boolean response, int slot, String rule) {
        references.add(new Reference(response, slot, rule));
    }

    /** HAProxy's message for a referenced slot a frontend does not have, or null. */
    String check(ProxySpec p) {
        for (Reference r : references) {
            if (r.slot >= slots(r.response).size()) {
                return "Proxy '" + p.name() + "': unable to find capture id '" + r.slot + "' referenced by " + r.rule + " rule.";
            }
        }
        return null;
    }

    private List<Capture> slots(boolean response) {
        return response ? this.response : request;
    }

    boolean hasRequest() {
        return !request.isEmpty();
    }

    boolean hasResponse() {
        return !response.isEmpty();
    }

    /**
     * Stores {@code value} in slot {@code slot} of the stream's frontend, cut to the slot's length; nothing when
     * the frontend has no such slot (a backend rule naming a slot another frontend lacks) or no record.
     */
    public static void store(SampleContext ctx, boolean response, int slot, CharSequence value) {
        StreamLog log = StreamLog.of(ctx);
        if (log != null) {
            log.capture(response, slot, value);
        }
    }

    /** The value captured in a slot of the stream's frontend, or null. */
    static String captured(SampleContext ctx, boolean response, int slot) {
        StreamLog log = StreamLog.of(ctx);
        return log == null ? null : log.captured(response, slot);
    }

    /** {@code values} (null: none yet) sized for the slots, with {@code value} cut to the slot's length stored. */
    String[] store(boolean response, String[] values, int slot, CharSequence value) {
        List<Capture> slots = slots(response);
        if (slot < 0 || slot >= slots.size()) {
            return values;
        }
        values = allocate(response, values);
        values[slot] = value.subSequence(0, Math.min(value.length(), slots.get(slot).length())).toString();
        return values;
    }

    /**
     * The header slots of a request filled in {@code values} (null: none captured yet), absent fields leaving
     * them alone; null when the frontend has no slot.
     */
    String[] request(HttpHead head, String[] values) {
        return capture(false, head.headers(), values);
    }

    String[] response(HttpHead head, String[] values) {
        return capture(true, head.headers(), values);
    }

    /**
     * {@code capture cookie} in a request: the first cookie of its Cookie fields whose "name=value" starts with the
     * captured name, cut to the capture's length; null when there is none (or no capture).
     */
    String requestCookie(HttpHead head) {
        return cookie(head.headers(), "cookie", true);
    }

    /** The same in a response's Set-Cookie fields, their attributes left out. */
    String responseCookie(HttpHead head) {
        return cookie(head.headers(), "set-cookie", false);
    }

    private String cookie(HttpHeaders headers, String field, boolean list) {
        if (cookieName == null) {
            return null;
        }
        for (int i = headers.indexOf(field, 0); i >= 0; i = headers.indexOf(field, i + 1)) {
            if (headers.removed(i)) {
                continue;
            }
            String value = headers.value(i).toString();
            int start = 0;
            do {
                int end = value.indexOf(';', start);
                String cookie = value.substring(start, end < 0 ? value.length() : end).strip();
                if (cookie.startsWith(cookieName)) {
                    return cookie.substring(0, Math.min(cookie.length(), cookieLength));
                }
                start = end + 1;
            } while (list && start > 0);
        }
        return null;
    }

    /** {@code values}, or empty slots when there are none yet; null when the frontend has no slot. */
    String[] allocate(boolean response, String[] values) {
        List<Capture> captures = slots(response);
        return values != null || captures.isEmpty() ? values : new String[captures.size()];
    }

    private String[] capture(boolean response, HttpHeaders headers, String[] values) {
        List<Capture> captures = slots(response);
        if (captures.isEmpty()) {
            return values;
        }
        values = allocate(response, values);
        for (int c = 0; c < values.length; c++) {
            Capture cap = captures.get(c);
            if (cap.name() == null) {
                continue;
            }
            int last = -1;
            for (int i = headers.indexOf(cap.name(), 0); i >= 0; i = headers.indexOf(cap.name(), i + 1)) {
                if (!headers.removed(i)) {
                    last = i;
                }
            }
            if (last >= 0) {
                values = store(response, values, c, headers.value(last));
            }
        }
        return values;
    }
}
