package io.fulcrum.log;

/** The log-format strings behind {@code option tcplog}, {@code httplog}, {@code httplog clf} and {@code httpslog} (section 8.2). */
final class BuiltinFormats {
    private BuiltinFormats() {
    }

    static final String TCPLOG = "%ci:%cp [%t] %ft %b/%s %Tw/%Tc/%Tt %B %ts %ac/%fc/%bc/%sc/%rc %sq/%bq";

    static final String HTTPLOG = "%ci:%cp [%tr] %ft %b/%s %TR/%Tw/%Tc/%Tr/%Ta %ST %B %CC %CS %tsc %ac/%fc/%bc/%sc/%rc %sq/%bq %hr %hs %{+Q}r";

    static final String CLF = "%{+Q}o %{-Q}ci - - [%trg] %r %ST %B \"\" \"\" %cp %ms %ft %b %s %TR %Tw %Tc %Tr %Ta %tsc %ac %fc %bc "
            + "%sc %rc %sq %bq %CC %CS %hrl %hsl";

    /**
     * httplog and the TLS fields. Until TLS exists they are what HAProxy logs for a connection without it:
     * fc_err 0, no TLS error or certificate status, not resumed, no SNI, version or cipher.
     */
    static final String HTTPSLOG = HTTPLOG + " 0/-/-/-/0 -/%sslv/%sslc";

    static String of(ProxyLog.Kind kind) {
        return switch (kind) {
            case TCPLOG -> TCPLOG;
            case HTTPLOG -> HTTPLOG;
            case CLF -> CLF;
            case HTTPSLOG -> HTTPSLOG;
            case CUSTOM -> throw new IllegalArgumentException("a custom format has its own text");
        };
    }
}
