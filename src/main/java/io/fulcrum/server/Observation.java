package io.fulcrum.server;

/**
 * What a transaction told of its server's health, for {@code observe layer4|layer7} (HAProxy's HANA statuses):
 * whether it counts as an error, and its words in the log.
 */
public enum Observation {
    L4_OK("L4 successful connection", false, true),
    L4_ERROR("L4 unsuccessful connection", true, true),
    HTTP_OK("Correct http response", false, false),
    HTTP_STATUS("Wrong http response", true, false),
    HTTP_RESPONSE("Invalid http response", true, false),
    HTTP_READ_ERROR("Read error (http)", true, false),
    HTTP_READ_TIMEOUT("Read timeout (http)", true, false);

    public final String words;
    public final boolean error;
    /** Observed at layer 4 (else only by {@code observe layer7}, which observes layer-4 errors too). */
    public final boolean layer4;

    Observation(String words, boolean error, boolean layer4) {
        this.words = words;
        this.error = error;
        this.layer4 = layer4;
    }

    /** A response status as HAProxy judges it: 5xx are errors, but for 501 and 505. */
    public static Observation ofStatus(int status) {
        return status >= 100 && (status < 500 || status == 501 || status == 505) ? HTTP_OK : HTTP_STATUS;
    }
}
