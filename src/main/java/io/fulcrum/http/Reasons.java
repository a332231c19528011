package io.fulcrum.http;

import java.util.HashMap;
import java.util.Map;

/**
 * The reason phrases HAProxy 2.6 writes in the responses it builds itself ({@code http_get_reason()}),
 * checked against haproxy 2.6.12: they differ from RFC 9110's in places ("302 Moved Temporarily",
 * "502 Bad Gateway or Proxy Error"); unknown codes get their class's word.
 */
public final class Reasons {
    private Reasons() {
    }

    private static final Map<Integer, String> PHRASES = new HashMap<>();

    static {
        String[] table = {
            "100 Continue", "101 Switching Protocols", "102 Processing", "103 Early Hints",
            "200 OK", "201 Created", "202 Accepted", "203 Non-Authoritative Information", "204 No Content",
            "205 Reset Content", "206 Partial Content", "207 Multi-Status", "226 IM Used",
            "300 Multiple Choices", "301 Moved Permanently", "302 Moved Temporarily", "303 See Other", "304 Not Modified",
            "305 Use Proxy", "307 Temporary Redirect", "308 Permanent Redirect",
            "400 Bad Request", "401 Unauthorized", "402 Payment Required", "403 Forbidden", "404 Not Found",
            "405 Method Not Allowed", "406 Not Acceptable", "407 Proxy Authentication Required", "408 Request Time-out",
            "409 Conflict", "410 Gone", "411 Length Required", "412 Precondition Failed", "413 Request Entity Too Large",
            "414 Request-URI Too Long", "415 Unsupported Media Type", "416 Requested range unsatisfiable",
            "417 Expectation failed", "418 I'm a teapot", "421 Misdirected Request", "422 Unprocessable Content",
            "423 Locked", "424 Method failure", "425 Too Early", "426 Upgrade Required", "428 Precondition Required",
            "429 Too Many Requests", "431 Request Header Fields Too Large", "451 Unavailable For Legal Reasons",
            "499 client has closed connection",
            "500 Internal Server Error", "501 Not Implemented", "502 Bad Gateway or Proxy Error", "503 Service Unavailable",
            "504 Gateway Time-out", "505 HTTP Version not supported", "506 Variant also negotiate",
            "507 Insufficient storage", "508 Loop detected", "509 Bandwidth Limit Exceeded", "510 Not extended",
            "511 Network authentication required",
        };
        for (String line : table) {
            PHRASES.put(Integer.parseInt(line.substring(0, 3)), line.substring(4));
        }
    }

    public static String of(int status) {
        String p = PHRASES.get(status);
        if (p != null) {
            return p;
        }
        return switch (status / 100) {
            case 1 -> "Informational";
            case 2 -> "Success";
            case 3 -> "Redirection";
            case 4 -> "Client Error";
            case 5 -> "Server Error";
            default -> "Other";
        };
    }
}
