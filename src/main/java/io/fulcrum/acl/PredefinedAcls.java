package io.fulcrum.acl;

import java.util.Map;

/** The ACLs every proxy has (configuration.txt 7.4), as the ACL lines they stand for. */
final class PredefinedAcls {
    private PredefinedAcls() {
    }

    private static final Map<String, String> DEFINITIONS = Map.ofEntries(
            Map.entry("FALSE", "always_false"),
            Map.entry("HTTP", "req.proto_http"),
            Map.entry("HTTP_1.0", "req.ver 1.0"),
            Map.entry("HTTP_1.1", "req.ver 1.1"),
            Map.entry("HTTP_2.0", "req.ver 2.0"),
            Map.entry("HTTP_CONTENT", "req.hdr_val(content-length) gt 0"),
            Map.entry("HTTP_URL_ABS", "url_reg ^[^/:]*://"),
            Map.entry("HTTP_URL_SLASH", "url_beg /"),
            Map.entry("HTTP_URL_STAR", "url *"),
            Map.entry("LOCALHOST", "src 127.0.0.1/8 ::1"),
            Map.entry("METH_CONNECT", "method CONNECT"),
            Map.entry("METH_DELETE", "method DELETE"),
            Map.entry("METH_GET", "method GET HEAD"),
            Map.entry("METH_HEAD", "method HEAD"),
            Map.entry("METH_OPTIONS", "method OPTIONS"),
            Map.entry("METH_POST", "method POST"),
            Map.entry("METH_PUT", "method PUT"),
            Map.entry("METH_TRACE", "method TRACE"),
            Map.entry("RDP_COOKIE", "req.rdp_cookie_cnt gt 0"),
            Map.entry("REQ_CONTENT", "req.len gt 0"),
            Map.entry("TRUE", "always_true"),
            Map.entry("WAIT_END", "wait_end"));

    /** The ACL line for {@code name} without "acl NAME", or null when it is not predefined. */
    static String definition(String name) {
        return DEFINITIONS.get(name);
    }
}
