package io.fulcrum.http;

import io.fulcrum.cfg.ConfigException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;

/**
 * HAProxy 2.6's built-in error responses ({@code http_err_msgs[]}), byte for byte as in the HAProxy
 * 2.6.12 build Fulcrum is compared with: the 17 status codes its documentation lists for
 * {@code errorfile}, plus 421 and 422 which that build also has. These are also the codes
 * {@code errorfile}, {@code errorloc} and {@code errorfiles} accept.
 *
 * <p>Each page has two forms. {@link #builtin(int)} is the text as HAProxy stores it: its HTTP/1 layer
 * sends it unchanged for the errors it detects on its own, before any request exists (400 for an
 * unparsable request, 408 when a request does not arrive in time, 422 for a request body it cannot
 * delimit), ignoring any {@code errorfile}. Every other error response goes through HTTP/1 output as
 * {@link #message(int)} does (lower-case names, Connection header of its own), unless the proxy has
 * its own page for the status ({@link ErrorSet}).
 */
public final class ErrorPages {
    private ErrorPages() {
    }

    private record Page(ByteBuf raw, ErrorMessage message) {
    }

    private static final Page[] PAGES = new Page[600];
    private static final List<Integer> STATUSES;

    static {
        page(200, "HTTP/1.1 200 OK\r\n"
                + "Content-length: 58\r\n"
                + "Cache-Control: no-cache\r\n"
                + "Content-Type: text/html\r\n\r\n"
                + "<html><body><h1>200 OK</h1>\n"
                + "Service ready.\n"
                + "</body></html>\n");
        page(400, "HTTP/1.1 400 Bad request\r\n"
                + "Content-length: 90\r\n"
                + "Cache-Control: no-cache\r\n"
                + "Connection: close\r\n"
                + "Content-Type: text/html\r\n\r\n"
                + "<html><body><h1>400 Bad request</h1>\n"
                + "Your browser sent an invalid request.\n"
                + "</body></html>\n");
        page(401, "HTTP/1.1 401 Unauthorized\r\n"
                + "Content-length: 112\r\n"
                + "Cache-Control: no-cache\r\n"
                + "Content-Type: text/html\r\n\r\n"
                + "<html><body><h1>401 Unauthorized</h1>\n"
                + "You need a valid user and password to access this content.\n"
                + "</body></html>\n");
        page(403, "HTTP/1.1 403 Forbidden\r\n"
                + "Content-length: 93\r\n"
                + "Cache-Control: no-cache\r\n"
                + "Content-Type: text/html\r\n\r\n"
                + "<html><body><h1>403 Forbidden</h1>\n"
                + "Request forbidden by administrative rules.\n"
                + "</body></html>\n");
        page(404, "HTTP/1.1 404 Not Found\r\n"
                + "Content-length: 83\r\n"
                + "Cache-Control: no-cache\r\n"
                + "Content-Type: text/html\r\n\r\n"
                + "<html><body><h1>404 Not Found</h1>\n"
                + "The resource could not be found.\n"
                + "</body></html>\n");
        page(405, "HTTP/1.1 405 Method Not Allowed\r\n"
                + "Content-length: 146\r\n"
                + "Cache-Control: no-cache\r\n"
                + "Content-Type: text/html\r\n\r\n"
                + "<html><body><h1>405 Method Not Allowed</h1>\n"
                + "A request was made of a resource using a request method not supported by that resource\n"
                + "</body></html>\n");
        page(407, "HTTP/1.1 407 Unauthorized\r\n"
                + "Content-length: 112\r\n"
                + "Cache-Control: no-cache\r\n"
                + "Content-Type: text/html\r\n\r\n"
                + "<html><body><h1>407 Unauthorized</h1>\n"
                + "You need a valid user and password to access this content.\n"
                + "</body></html>\n");
        page(408, "HTTP/1.1 408 Request Time-out\r\n"
                + "Content-length: 110\r\n"
                + "Cache-Control: no-cache\r\n"
                + "Connection: close\r\n"
                + "Content-Type: text/html\r\n\r\n"
                + "<html><body><h1>408 Request Time-out</h1>\n"
                + "Your browser didn't send a complete request in time.\n"
                + "</body></html>\n");
        page(410, "HTTP/1.1 410 Gone\r\n"
                + "Content-length: 114\r\n"
                + "Cache-Control: no-cache\r\n"
                + "Content-Type: text/html\r\n\r\n"
                + "<html><body><h1>410 Gone</h1>\n"
                + "The resource is no longer available and will not be available again.\n"
                + "</body></html>\n");
        page(413, "HTTP/1.1 413 Payload Too Large\r\n"
                + "Content-length: 106\r\n"
                + "Cache-Control: no-cache\r\n"
                + "Content-Type: text/html\r\n\r\n"
                + "<html><body><h1>413 Payload Too Large</h1>\n"
                + "The request entity exceeds the maximum allowed.\n"
                + "</body></html>\n");
        page(421, "HTTP/1.1 421 Misdirected Request\r\n"
                + "Content-length: 104\r\n"
                + "Cache-Control: no-cache\r\n"
                + "Content-Type: text/html\r\n\r\n"
                + "<html><body><h1>421 Misdirected Request</h1>\n"
                + "Request sent to a non-authoritative server.\n"
                + "</body></html>\n");
        page(422, "HTTP/1.1 422 Unprocessable Content\r\n"
                + "Content-length: 116\r\n"
                + "Cache-Control: no-cache\r\n"
                + "Content-Type: text/html\r\n\r\n"
                + "<html><body><h1>422 Unprocessable Content</h1>\n"
                + "The server cannot process the contained instructions.\n"
                + "</body></html>\n");
        page(425, "HTTP/1.1 425 Too Early\r\n"
                + "Content-length: 80\r\n"
                + "Cache-Control: no-cache\r\n"
                + "Content-Type: text/html\r\n\r\n"
                + "<html><body><h1>425 Too Early</h1>\n"
                + "Your browser sent early data.\n"
                + "</body></html>\n");
        page(429, "HTTP/1.1 429 Too Many Requests\r\n"
                + "Content-length: 117\r\n"
                + "Cache-Control: no-cache\r\n"
                + "Content-Type: text/html\r\n\r\n"
                + "<html><body><h1>429 Too Many Requests</h1>\n"
                + "You have sent too many requests in a given amount of time.\n"
                + "</body></html>\n");
        page(500, "HTTP/1.1 500 Internal Server Error\r\n"
                + "Content-length: 97\r\n"
                + "Cache-Control: no-cache\r\n"
                + "Content-Type: text/html\r\n\r\n"
                + "<html><body><h1>500 Internal Server Error</h1>\n"
                + "An internal server error occurred.\n"
                + "</body></html>\n");
        page(501, "HTTP/1.1 501 Not Implemented\r\n"
                + "Content-length: 136\r\n"
                + "Cache-Control: no-cache\r\n"
                + "Content-Type: text/html\r\n\r\n"
                + "<html><body><h1>501 Not Implemented</h1>\n"
                + ".The server does not support the functionality required to fulfill the request.\n"
                + "</body></html>\n");
        page(502, "HTTP/1.1 502 Bad Gateway\r\n"
                + "Content-length: 107\r\n"
                + "Cache-Control: no-cache\r\n"
                + "Content-Type: text/html\r\n\r\n"
                + "<html><body><h1>502 Bad Gateway</h1>\n"
                + "The server returned an invalid or incomplete response.\n"
                + "</body></html>\n");
        page(503, "HTTP/1.1 503 Service Unavailable\r\n"
                + "Content-length: 107\r\n"
                + "Cache-Control: no-cache\r\n"
                + "Content-Type: text/html\r\n\r\n"
                + "<html><body><h1>503 Service Unavailable</h1>\n"
                + "No server is available to handle this request.\n"
                + "</body></html>\n");
        page(504, "HTTP/1.1 504 Gateway Time-out\r\n"
                + "Content-length: 92\r\n"
                + "Cache-Control: no-cache\r\n"
                + "Content-Type: text/html\r\n\r\n"
                + "<html><body><h1>504 Gateway Time-out</h1>\n"
                + "The server didn't respond in time.\n"
                + "</body></html>\n");
        STATUSES = IntStream.range(0, PAGES.length).filter(ErrorPages::hasBuiltin).boxed().toList();
    }

    /**
     * The answer to a request in a major HTTP version other than 1, which HAProxy takes as HTTP/1.1 and has no page
     * for (RFC 9110 15.6.6; docs/http1-strictness.md [major-version]): in HAProxy's style, but not one of the pages
     * the error keywords accept.
     */
    private static final ByteBuf VERSION_NOT_SUPPORTED = ErrorMessage.constant(("HTTP/1.1 505 HTTP Version not supported\r\n"
            + "Content-length: %d\r\n"
            + "Cache-Control: no-cache\r\n"
            + "Connection: close\r\n"
            + "Content-Type: text/html\r\n\r\n"
            + "<html><body><h1>505 HTTP Version not supported</h1>\n"
            + "This server only speaks HTTP/1.x.\n"
            + "</body></html>\n").formatted(101).getBytes(StandardCharsets.ISO_8859_1));

    private static void page(int status, String text) {
        byte[] raw = text.getBytes(StandardCharsets.ISO_8859_1);
        try {
            PAGES[status] = new Page(ErrorMessage.constant(raw), ErrorMessageReader.parse(raw));
        } catch (ConfigException e) {
            throw new IllegalStateException("built-in page " + status + ": " + e.getMessage(), e);
        }
    }

    /** True when HAProxy has a built-in page for {@code status}. */
    public static boolean hasBuiltin(int status) {
        return status >= 0 && status < PAGES.length && PAGES[status] != null;
    }

    /** The statuses HAProxy has a page for, ascending: those its error keywords accept. */
    public static List<Integer> statuses() {
        return STATUSES;
    }

    /**
     * The page for {@code status} as stored, sent as is for errors found before a request exists. A
     * status without a page gets the 500 one, as in HAProxy, but for Fulcrum's own 505.
     */
    public static ByteBuf builtin(int status) {
        return (status == 505 ? VERSION_NOT_SUPPORTED : page(status).raw()).retainedDuplicate();
    }

    /** The page for {@code status} (the 500 one when there is none) as an error message, for errors of a request. */
    public static ErrorMessage message(int status) {
        return page(status).message();
    }

    /**
     * Why built-in pages would not fit buffers of {@code bufsize} bytes with {@code maxHeaders} header slots
     * ({@code tune.bufsize}, {@code tune.http.maxhdr}), by status in ascending order: HAProxy refuses to start then.
     */
    public static Map<Integer, String> unfitting(int bufsize, int maxHeaders) {
        Map<Integer, String> problems = new TreeMap<>();
        for (int status : STATUSES) {
            try {
                ErrorMessageReader.parse(ByteBufUtil.getBytes(PAGES[status].raw()), bufsize, maxHeaders);
            } catch (ConfigException e) {
                problems.put(status, e.getMessage());
            }
        }
        return problems;
    }

    private static Page page(int status) {
        return PAGES[hasBuiltin(status) ? status : 500];
    }
}
