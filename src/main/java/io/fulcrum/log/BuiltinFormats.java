package io.fulcrum.log;

/** The log-format strings behind {@code option tcplog}, {@code httplog}, {@code httplog clf} and {@code httpslog} (section 8.2). */
final class BuiltinFormats {
    private BuiltinFormats() {
    }

    static final String TCPLOG = "%ci:%cp [%t] %ft %b/%s %Tw/%Tc/%Tt %B %ts %ac/%fc/%bc/%sc/%rc %sq/%bq";

    static final String HTTPLOG = "%ci:%cp [%tr] %ft %b/%s %TR/%Tw/%Tc/%Tr/%Ta %ST %B %CC %CS %tsc %ac/%fc/%bc/%sc/%rc %sq/%bq %hr %hs %{+Q}r";

    static final String CLF = "%{+Q}o %{-Q}ci - - [%trg] %r %ST %B \"\" \"\" %cp %ms %ft %b %s %TR %Tw %Tc %Tr %Ta %tsc %ac %fc %bc "
            + "%sc %rc %sq %bq %CC %CS %hrl %hsl";

    /** httplog and the TLS fields, HAProxy's text: its fetches answer on a connection without TLS too (the errors, not resumed). */
    static final String HTTPSLOG = HTTPLOG + " %[fc_err]/%[ssl_fc_err,hex]/%[ssl_c_err]/%[ssl_c_ca_err]/%[ssl_fc_is_resumed] "
            + "%[ssl_fc_sni]/%sslv/%sslc";

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
