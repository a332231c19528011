package io.fulcrum.acl.map;

import io.fulcrum.sample.ArgType;
import io.fulcrum.sample.IntText;
import io.fulcrum.sample.IpText;
import io.fulcrum.sample.Sample;
import io.fulcrum.sample.SampleType;

import java.nio.charset.StandardCharsets;

/**
 * What a map converter returns, named by its suffix: the value as a string (no suffix), an integer
 * ("_int") or an address ("_ip"). Values are read once, when the map is loaded.
 */
enum MapOutput {
    STR("", SampleType.STR, ArgType.STR),
    INT("_int", SampleType.SINT, ArgType.SINT),
    IP("_ip", SampleType.ADDR, ArgType.STR);

    private final String suffix;
    private final SampleType type;
    private final ArgType defaultArg;

    MapOutput(String suffix, SampleType type, ArgType defaultArg) {
        this.suffix = suffix;
        this.type = type;
        this.defaultArg = defaultArg;
    }

    String suffix() {
        return suffix;
    }

    SampleType type() {
        return type;
    }

    /** The type of the default value argument: an integer for "_int", a string otherwise. */
    ArgType defaultArg() {
        return defaultArg;
    }

    /** The type name of {@code value} read as this output ("str", "sint", "ipv4", "ipv6"), as "get map" shows it. */
    String typeName(String value) {
        Sample s = parse(value);
        return s == null ? "str" : s.type().toString();
    }

    /**
     * The value of a map line as a sample of this type, or null when it is not one: integers are a sign
     * and digits (saturating, empty is 0); IPv4 addresses may be followed by anything but a dot,
     * IPv6 ones must stand alone.
     */
    Sample parse(String value) {
        Sample s = new Sample();
        switch (this) {
            case INT -> {
                try {
                    s.setSint(IntText.parse(value));
                } catch (NumberFormatException e) {
                    return null;
                }
            }
            case IP -> {
                long v4 = IpText.parseLeading4(value);
                byte[] v6 = v4 < 0 ? IpText.parse6(value) : null;
                if (v4 < 0 && v6 == null) {
                    return null;
                }
                if (v6 != null) {
                    s.setIpv6(v6);
                } else {
                    s.setIpv4((int) v4);
                }
            }
            default -> s.setStr(value.getBytes(StandardCharsets.ISO_8859_1));
        }
        return s;
    }
}
