package io.fulcrum.http;

import io.fulcrum.sample.ArgSpec;
import io.fulcrum.sample.Fetch;
import io.fulcrum.sample.Sample;
import io.fulcrum.sample.SampleCatalog;
import io.fulcrum.sample.SampleContext;
import io.fulcrum.sample.SampleType;
import io.fulcrum.sample.Source;
import io.netty.util.AsciiString;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;

import static io.fulcrum.sample.ArgType.STR;

/**
 * The fetches of the credentials a request carries (configuration.txt 7.3.6): {@code http_auth_type},
 * {@code http_auth_user}, {@code http_auth_pass} and {@code http_auth_bearer}, read from the first Authorization
 * header as HAProxy reads it. Only the Basic scheme (with a valid base64 "user:password") and the Bearer scheme
 * count; anything else gives no sample at all, not even a type.
 */
public final class AuthFetches {
    private AuthFetches() {
    }

    private static final byte[] BASIC = {'B', 'a', 's', 'i', 'c'};
    private static final byte[] BEARER = {'B', 'e', 'a', 'r', 'e', 'r'};

    /** What an Authorization header holds: a scheme's credentials, as bounds in {@code value} or decoded bytes. */
    private record Credentials(boolean bearer, AsciiString value, int tokenStart, byte[] decoded, int colon) {
    }

    static void register(SampleCatalog c) {
        c.fetch(fetch("http_auth_type", ArgSpec.NONE, (a, ctx, out) -> {
            Credentials cr = credentials(ctx, authorization(ctx));
            return cr != null && out.setStr(cr.bearer() ? BEARER : BASIC);
        }));
        c.fetch(fetch("http_auth_user", ArgSpec.NONE, (a, ctx, out) -> {
            Credentials cr = credentials(ctx, authorization(ctx));
            return cr != null && !cr.bearer() && out.setStr(cr.decoded(), 0, cr.colon());
        }));
        c.fetch(fetch("http_auth_pass", ArgSpec.NONE, (a, ctx, out) -> {
            Credentials cr = credentials(ctx, authorization(ctx));
            return cr != null && !cr.bearer() && out.setStr(cr.decoded(), cr.colon() + 1, cr.decoded().length - cr.colon() - 1);
        }));
        // With a header named, HAProxy gives an empty token rather than none when there is no bearer token.
        c.fetch(fetch("http_auth_bearer", ArgSpec.of(0, STR), (a, ctx, out) -> {
            boolean named = a.length > 0 && !a[0].text().isEmpty();
            Credentials cr = credentials(ctx, named ? a[0].text() : authorization(ctx));
            if (cr == null || !cr.bearer()) {
                return named && ctx.httpRequest() != null && out.setStr(new byte[0]);
            }
            return bearer(cr, out);
        }));
    }

    private static Fetch fetch(String name, ArgSpec args, Fetch.Function fn) {
        return new Fetch(name, args, SampleType.STR, Source.HRQHV, fn);
    }

    /**
     * The user and the password of the request's Basic credentials, as HAProxy reads them (for userlists),
     * or null when there are none.
     */
    public static String[] basic(SampleContext ctx) {
        Credentials cr = credentials(ctx, authorization(ctx));
        if (cr == null || cr.bearer()) {
            return null;
        }
        byte[] d = cr.decoded();
        return new String[]{new String(d, 0, cr.colon(), StandardCharsets.ISO_8859_1),
            new String(d, cr.colon() + 1, d.length - cr.colon() - 1, StandardCharsets.ISO_8859_1)};
    }

    private static boolean bearer(Credentials cr, Sample out) {
        AsciiString v = cr.value();
        return out.setStr(v.array(), v.arrayOffset() + cr.tokenStart(), v.length() - cr.tokenStart());
    }

    /** Where the credentials are: Proxy-Authorization on a proxied request with {@code option http-use-proxy-header}. */
    private static String authorization(SampleContext ctx) {
        return HttpOptions.proxyAuthentication(ctx) ? "proxy-authorization" : "authorization";
    }

    /** The credentials in the first header {@code name} of the request, or null when there are none HAProxy reads. */
    private static Credentials credentials(SampleContext ctx, String name) {
        if (ctx.httpRequest() == null) {
            return null;
        }
        AsciiString v = ctx.httpRequest().headers().get(name);
        if (v == null) {
            return null;
        }
        int sp = v.indexOf(' ', 0);
        if (sp < 0) {
            return null;
        }
        int token = sp;
        while (token < v.length() && HeaderValues.isBlank(v.charAt(token))) {
            token++;
        }
        if (v.regionMatches(true, 0, "bearer", 0, sp) && sp == 6) {
            return new Credentials(true, v, token, null, 0);
        }
        if (!(sp == 5 && v.regionMatches(true, 0, "basic", 0, 5)) || (v.length() - token) % 4 != 0) {
            return null;
        }
        byte[] decoded;
        try {
            decoded = Base64.getDecoder().decode(Arrays.copyOfRange(v.array(), v.arrayOffset() + token, v.arrayOffset() + v.length()));
        } catch (IllegalArgumentException e) {
            return null;
        }
        int colon = 0;
        while (colon < decoded.length && decoded[colon] != ':') {
            colon++;
        }
        return colon == decoded.length ? null : new Credentials(false, v, token, decoded, colon);
    }
}
