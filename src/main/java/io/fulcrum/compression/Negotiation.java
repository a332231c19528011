package io.fulcrum.compression;

import io.fulcrum.http.HttpHead;
import io.fulcrum.http.HttpHeaders;
import io.fulcrum.http.RequestHead;
import io.fulcrum.http.ResponseHead;
import io.netty.util.AsciiString;

import java.util.List;
import java.util.Locale;

/**
 * When HAProxy 2.6 compresses a response (its compression filter): the algorithm comes from the request's
 * Accept-Encoding, then the response must qualify (configuration.txt, "compression"). The backend's algorithms and
 * types win over the frontend's.
 */
public final class Negotiation {
    private Negotiation() {
    }

    /**
     * The algorithm for the response to {@code request}, or null; with {@code compression offload}, a request for
     * which one was found loses its Accept-Encoding (the server must not compress).
     */
    public static Algo select(RequestHead request, Compression fe, Compression be) {
        List<Algo> algos = algos(fe, be);
        if (algos.isEmpty() || oldMozilla(request.headers().get("user-agent"))) {
            return null;
        }
        Algo chosen = choose(request.headers(), algos);
        if (chosen != null) {
            if (fe != null && fe.offload || be != null && be.offload) {
                request.headers().removeAll("accept-encoding");
            }
            return chosen;
        }
        // Identity needs no Accept-Encoding.
        return algos.contains(Algo.IDENTITY) ? Algo.IDENTITY : null;
    }

    private static List<Algo> algos(Compression fe, Compression be) {
        return be != null && !be.algos.isEmpty() ? be.algos : fe != null ? fe.algos : List.of();
    }

    /**
     * The algorithm the Accept-Encoding fields pick, as HAProxy picks it: the first token with the highest q-value
     * that an algorithm answers ({@code *} answers any), the last configured algorithm first.
     */
    static Algo choose(HttpHeaders headers, List<Algo> algos) {
        Algo chosen = null;
        int best = 0;
        for (int i = headers.indexOf("accept-encoding", 0); i >= 0; i = headers.indexOf("accept-encoding", i + 1)) {
            for (String element : headers.value(i).toString().split(",", -1)) {
                String e = element.strip();
                int tokenEnd = tokenEnd(e);
                int q = qvalue(e, tokenEnd);
                if (q <= best) {
                    continue;
                }
                String token = e.substring(0, tokenEnd);
                for (int k = algos.size() - 1; k >= 0; k--) {
                    Algo a = algos.get(k);
                    if (e.startsWith("*") || token.equalsIgnoreCase(a.token())) {
                        chosen = a;
                        best = q;
                        break;
                    }
                }
            }
        }
        return chosen;
    }

    private static int tokenEnd(String e) {
        int n = 0;
        while (n < e.length() && isToken(e.charAt(n))) {
            n++;
        }
        return n;
    }

    private static boolean isToken(char c) {
        return c > ' ' && c < 127 && "()<>@,;:\\\"/[]?={}".indexOf(c) < 0;
    }

    /** The q-value of the element, in thousandths; 1000 without one (its first "q=" parameter counts). */
    static int qvalue(String e, int from) {
        int i = from;
        while (true) {
            i = skipBlanks(e, i);
            if (i >= e.length() || e.charAt(i) != ';') {
                return 1000;
            }
            i = skipBlanks(e, i + 1);
            if (e.startsWith("q=", i)) {
                return parseQ(e, i + 2);
            }
            while (i < e.length() && e.charAt(i) != ';') {
                i++;
            }
        }
    }

    private static int skipBlanks(String e, int i) {
        while (i < e.length() && (e.charAt(i) == ' ' || e.charAt(i) == '\t')) {
            i++;
        }
        return i;
    }

    /** HAProxy's http_parse_qvalue: "1", "0.5", "0.125"; at most 1000, a missing digit ends it. */
    private static int parseQ(String e, int i) {
        if (!digit(e, i)) {
            return 1000;
        }
        int q = (e.charAt(i++) - '0') * 1000;
        if (i < e.length() && e.charAt(i++) == '.') {
            for (int scale = 100; scale > 0 && digit(e, i); scale /= 10) {
                q += (e.charAt(i++) - '0') * scale;
            }
        }
        return Math.min(q, 1000);
    }

    private static boolean digit(String e, int i) {
        return i < e.length() && e.charAt(i) >= '0' && e.charAt(i) <= '9';
    }

    /** HAProxy's exception: "Mozilla/4" agents get nothing compressed, but MSIE 6 with XP SP2 and MSIE 7 and later. */
    static boolean oldMozilla(AsciiString ua) {
        if (ua == null || !ua.toString().startsWith("Mozilla/4")) {
            return false;
        }
        String s = ua.toString();
        return s.length() < 31 || !s.startsWith("MSIE ", 25) || s.charAt(30) < '6'
                || s.charAt(30) == '6' && (s.length() < 54 || !s.startsWith("SV1", 51));
    }

    /**
     * True when the response to {@code request} may be compressed (an algorithm was selected for it), and the
     * process's compression rate and zlib memory are below their limits.
     */
    public static boolean qualifies(RequestHead request, ResponseHead response, Compression fe, Compression be) {
        int status = response.status();
        HttpHeaders h = response.headers();
        if (request.version() < 11 || response.version() < 11 || request.isHead() || status < 200 || status > 203
                || response.bodyLength() == HttpHead.NO_BODY || response.bodyLength() == HttpHead.UNTIL_CLOSE
                || h.contains("content-encoding") || noTransform(h) || !etagAllowed(h) || CompressionRate.saturated()
                || ZlibMemory.full()) {
            return false;
        }
        List<String> types = be != null && !be.types.isEmpty() ? be.types : fe != null ? fe.types : List.of();
        AsciiString type = h.get("content-type");
        if (type == null) {
            return types.isEmpty();
        }
        String t = type.toString().toLowerCase(Locale.ROOT);
        if (t.startsWith("multipart")) {
            return false;
        }
        if (types.isEmpty()) {
            return true;
        }
        for (String prefix : types) {
            if (t.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    private static boolean noTransform(HttpHeaders h) {
        for (int i = h.indexOf("cache-control", 0); i >= 0; i = h.indexOf("cache-control", i + 1)) {
            for (String d : h.value(i).toString().split(",")) {
                if (d.strip().equalsIgnoreCase("no-transform")) {
                    return true;
                }
            }
        }
        return false;
    }

    /** One ETag at most, well-formed (a weak or a strong quoted tag): HAProxy will not compress otherwise. */
    private static boolean etagAllowed(HttpHeaders h) {
        int i = h.indexOf("etag", 0);
        if (i < 0) {
            return true;
        }
        String v = h.value(i).toString();
        boolean wellFormed = (v.length() >= 4 && v.startsWith("W/\"") || v.length() >= 2 && v.charAt(0) == '"')
                && v.endsWith("\"");
        return wellFormed && h.indexOf("etag", i + 1) < 0;
    }

    /**
     * The response head as HAProxy sends a compressed response: chunked instead of a Content-Length, a weak ETag,
     * {@code Vary: Accept-Encoding}, and the Content-Encoding (none for identity). The fields come in HAProxy's
     * order: its filter adds Transfer-Encoding (a chunked response keeps its own, in its place) before Vary and
     * Content-Encoding, all after the server's fields; the encoder writes the framing in that field's place.
     */
    public static void rewrite(ResponseHead response, Algo algo) {
        HttpHeaders h = response.headers();
        if (!h.contains("transfer-encoding")) {
            h.add("transfer-encoding", "chunked");
        }
        h.removeAll("content-length");
        int etag = h.indexOf("etag", 0);
        if (etag >= 0 && h.value(etag).charAt(0) == '"') {
            h.setValue(etag, "W/" + h.value(etag));
        }
        h.add("vary", "Accept-Encoding");
        if (algo != Algo.IDENTITY) {
            h.add("content-encoding", algo.token());
        }
    }
}
