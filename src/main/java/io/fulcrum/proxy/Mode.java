package io.fulcrum.proxy;

/** A proxy's running mode ({@code mode tcp|http}). */
public enum Mode {
    TCP, HTTP;

    public String keyword() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
