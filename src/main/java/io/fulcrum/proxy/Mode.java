package io.fulcrum.proxy;

/** A proxy's running mode ({@code mode tcp|http}). */
public enum Mode {
    TCP, HTTP;

    public String keyword() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /**
     * The one {@code proto} a bind or server line of this mode may name: HAProxy's mux of the mode that Fulcrum has
     * ({@code none}, its pass-through mux, for TCP; {@code h1} for HTTP, where HAProxy also has h2 and fcgi).
     */
    public String mux() {
        return this == HTTP ? "h1" : "none";
    }
}
