package io.fulcrum.tls;

/**
 * What a bind line and each line of its crt-lists set for the certificates they bring: the protocol options and the
 * verification of client certificates.
 */
class BindOptions extends TlsOptions {
    /** none (the default), optional or required. */
    String verify;
    String caFile;
    String crlFile;
    /** {@code ca-verify-file}: CAs that verify client certificates without being named in the certificate request. */
    String caVerifyFile;
    /** {@code no-ca-names}: the certificate request names no CA. */
    boolean noCaNames;

    /** Takes from the bind line what a crt-list line does not set. */
    void inherit(BindOptions bind) {
        super.inheritExplicit(bind);
        verify = verify != null ? verify : bind.verify;
        caFile = caFile != null ? caFile : bind.caFile;
        crlFile = crlFile != null ? crlFile : bind.crlFile;
        caVerifyFile = caVerifyFile != null ? caVerifyFile : bind.caVerifyFile;
        noCaNames |= bind.noCaNames;
    }

    BindOptions copyBindOptions() {
        return (BindOptions) copyOptions();
    }
}
