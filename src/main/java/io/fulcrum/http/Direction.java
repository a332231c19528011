package io.fulcrum.http;

import io.fulcrum.sample.SampleContext;

/** Which message an HTTP fetch reads: the request, the response, or the one being processed ({@code hdr}, {@code cookie}). */
enum Direction {
    REQUEST, RESPONSE, EITHER;

    /** The message, or null when it does not exist (yet). */
    HttpHead head(SampleContext ctx) {
        return switch (this) {
            case REQUEST -> ctx.httpRequest();
            case RESPONSE -> ctx.response();
            case EITHER -> ctx.responseSide() ? ctx.response() : ctx.httpRequest();
        };
    }

    /** The headers of the message, or null. */
    HttpHeaders headers(SampleContext ctx) {
        HttpHead h = head(ctx);
        return h == null ? null : h.headers();
    }

    /** True when this direction reads the response in {@code ctx}. */
    boolean response(SampleContext ctx) {
        return this == RESPONSE || this == EITHER && ctx.responseSide();
    }
}
