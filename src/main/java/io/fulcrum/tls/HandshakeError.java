package io.fulcrum.tls;

import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Why a client's handshake failed, as HAProxy's {@code ssl_fc_err} and {@code ssl_fc_err_str} give it: OpenSSL 3's
 * packed error code (library SSL, 20) and its {@code ERR_error_string} text. BoringSSL names its reasons as OpenSSL
 * does but numbers them differently: the engine's error ("error:100000b8:SSL routines:OPENSSL_internal:NO_SHARED_CIPHER")
 * is renumbered by its name; a name OpenSSL 3 does not have keeps BoringSSL's code.
 *
 * @param code 0 when the handshake ended without a TLS error (the client left, a timeout)
 * @param text null with code 0
 */
record HandshakeError(long code, String text) {
    static final HandshakeError NONE = new HandshakeError(0, null);
    /** OpenSSL 3's ERR_PACK(ERR_LIB_SSL, 0, 0). */
    private static final long OPENSSL_SSL = 20L << 23;
    private static final Pattern BORINGSSL = Pattern.compile("error:([0-9a-fA-F]{8}):[^:]*:[^:]*:([A-Z0-9_]+)");
    /** OpenSSL 3's reason codes (sslerr.h) of the reasons a server's handshake fails with. */
    private static final Map<String, Integer> OPENSSL_REASONS = Map.ofEntries(
            Map.entry("BAD_ECPOINT", 306), Map.entry("CALLBACK_FAILED", 234), Map.entry("CERTIFICATE_VERIFY_FAILED", 134), Map.entry("HTTPS_PROXY_REQUEST", 155),
            Map.entry("HTTP_REQUEST", 156), Map.entry("INAPPROPRIATE_FALLBACK", 373), Map.entry("NO_APPLICATION_PROTOCOL", 235),
            Map.entry("NO_PROTOCOLS_AVAILABLE", 191), Map.entry("NO_SHARED_CIPHER", 193),
            Map.entry("NO_SUITABLE_SIGNATURE_ALGORITHM", 118), Map.entry("PACKET_LENGTH_TOO_LONG", 198),
            Map.entry("PEER_DID_NOT_RETURN_A_CERTIFICATE", 199), Map.entry("SSLV3_ALERT_BAD_CERTIFICATE", 1042),
            Map.entry("SSLV3_ALERT_CERTIFICATE_UNKNOWN", 1046), Map.entry("SSLV3_ALERT_HANDSHAKE_FAILURE", 1040),
            Map.entry("TLSV13_ALERT_CERTIFICATE_REQUIRED", 1116), Map.entry("TLSV1_ALERT_DECRYPT_ERROR", 1051),
            Map.entry("TLSV1_ALERT_PROTOCOL_VERSION", 1070), Map.entry("TLSV1_ALERT_UNKNOWN_CA", 1048),
            Map.entry("TLSV1_UNRECOGNIZED_NAME", 1112), Map.entry("UNEXPECTED_MESSAGE", 244), Map.entry("UNEXPECTED_RECORD", 245),
            Map.entry("UNSAFE_LEGACY_RENEGOTIATION_DISABLED", 338), Map.entry("UNSUPPORTED_PROTOCOL", 258),
            Map.entry("WRONG_VERSION_NUMBER", 267));

    /** The library's error in the failure {@code cause} or its causes; NONE when there is none. */
    static HandshakeError of(Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof SniMap.NoCertificate) {
                return of(0, "CALLBACK_FAILED"); // HAProxy's certificate is chosen in OpenSSL's callback, which fails then
            }
            Matcher m = t.getMessage() == null ? null : BORINGSSL.matcher(t.getMessage());
            if (m != null && m.find()) {
                return of(Long.parseLong(m.group(1), 16), m.group(2));
            }
        }
        return NONE;
    }

    /** What BoringSSL says of a connection that did not start with a TLS record, by its first bytes. */
    static HandshakeError notTls(String head) {
        if (head.startsWith("GET ") || head.startsWith("POST ") || head.startsWith("HEAD ") || head.startsWith("PUT ")) {
            return of(0, "HTTP_REQUEST");
        }
        return of(0, head.startsWith("CONNE") ? "HTTPS_PROXY_REQUEST" : "WRONG_VERSION_NUMBER");
    }

    /** From BoringSSL's packed code and reason name. */
    static HandshakeError of(long boringCode, String reason) {
        Integer r = OPENSSL_REASONS.get(reason);
        long code = r == null ? boringCode : OPENSSL_SSL | r;
        return new HandshakeError(code, String.format("error:%08X:SSL routines::%s", code, reason.toLowerCase(Locale.ROOT).replace('_', ' ')));
    }
}
