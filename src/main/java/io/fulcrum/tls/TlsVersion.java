package io.fulcrum.tls;

import io.fulcrum.listener.BindOptionException;

/** The protocol versions of {@code ssl-min-ver}/{@code ssl-max-ver}, oldest first, with the names the engines use. */
enum TlsVersion {
    SSLV3("SSLv3", "SSLv3"),
    TLSV10("TLSv1.0", "TLSv1"),
    TLSV11("TLSv1.1", "TLSv1.1"),
    TLSV12("TLSv1.2", "TLSv1.2"),
    TLSV13("TLSv1.3", "TLSv1.3");

    /** As HAProxy's keywords write it. */
    final String keyword;
    /** As the TLS engines (JSSE's names, which Netty's OpenSSL engine also takes) name it. */
    final String protocol;

    TlsVersion(String keyword, String protocol) {
        this.keyword = keyword;
        this.protocol = protocol;
    }

    static TlsVersion parse(String text) throws BindOptionException {
        for (TlsVersion v : values()) {
            if (v.keyword.equals(text)) {
                return v;
            }
        }
        throw new BindOptionException("'" + text + "' : unknown ssl/tls version");
    }
}
