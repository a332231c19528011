package io.fulcrum.sample;

/**
 * The types a sample can have, as HAProxy names them. {@code ANY} and {@code ADDR} exist only in
 * signatures (a converter taking any type, or either address family); {@code SAME} marks a converter
 * whose output has its input's type.
 */
public enum SampleType {
    ANY("any"), BOOL("bool"), SINT("sint"), ADDR("addr"), IPV4("ipv4"), IPV6("ipv6"), STR("str"), BIN("bin"), METH("meth"),
    SAME("same");

    private final String text;

    SampleType(String text) {
        this.text = text;
    }

    @Override
    public String toString() {
        return text;
    }

    /** True when a sample of this type can be cast to {@code to} (HAProxy's cast matrix). */
    public boolean castsTo(SampleType to) {
        return Casts.possible(this, to);
    }
}
