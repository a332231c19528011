package io.fulcrum.rules;

/**
 * What {@code tcp-response content close} and {@code silent-drop} do to the stream whose rules run (a TCP session, or an
 * HTTP transaction): every stream that runs tcp-response rules implements it.
 */
public interface ResponseControl {

    /** Closes the server connection now; what it sent so far still goes to the client. */
    void closeServer();

    /** Makes the client connection disappear without telling the client (termination state PR). */
    void silentDrop();
}
