package io.fulcrum.tls;

import io.fulcrum.sample.Arg;
import io.fulcrum.sample.ArgSpec;
import io.fulcrum.sample.Fetch;
import io.fulcrum.sample.Sample;
import io.fulcrum.sample.SampleCatalog;
import io.fulcrum.sample.SampleType;
import io.fulcrum.sample.Source;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.function.Function;

import static io.fulcrum.sample.ArgType.SINT;

/**
 * The fetches of the client's ClientHello kept by {@code tune.ssl.capture-buffer-size} (7.3.4, {@link HelloCapture}):
 * no sample without the capture. The optional argument 1 leaves the GREASE values (RFC 8701) out.
 */
final class CaptureFetches {
    /** OpenSSL's names of the cipher suites, by id. */
    private static final Map<Integer, String> NAMES = names();

    private CaptureFetches() {
    }

    static void register(SampleCatalog c) {
        // The output types declared are HAProxy 2.6's (str for the _bin lists, bin for the hex one), which the
        // converters after them are checked against; the samples themselves are what the names say.
        list(c, "ssl_fc_cipherlist_bin", SampleType.STR, HelloCapture::ciphers, (b, out) -> out.setBin(b));
        list(c, "ssl_fc_cipherlist_hex", SampleType.BIN, HelloCapture::ciphers, (b, out) -> out.setStr(HexFormat.of().withUpperCase().formatHex(b)));
        list(c, "ssl_fc_cipherlist_str", SampleType.STR, HelloCapture::ciphers, (b, out) -> out.setStr(names(b)));
        list(c, "ssl_fc_extlist_bin", SampleType.STR, HelloCapture::extensions, (b, out) -> out.setBin(b));
        list(c, "ssl_fc_eclist_bin", SampleType.STR, HelloCapture::groups, (b, out) -> out.setBin(b));
        fetch(c, "ssl_fc_ecformats_bin", ArgSpec.NONE, SampleType.STR, (h, a, out) -> out.setBin(h.formats()));
        fetch(c, "ssl_fc_cipherlist_xxh", ArgSpec.NONE, SampleType.SINT, (h, a, out) -> out.setSint(h.ciphersHash()));
        fetch(c, "ssl_fc_protocol_hello_id", ArgSpec.NONE, SampleType.SINT, (h, a, out) -> out.setSint(h.version()));
    }

    private interface Read {
        boolean read(HelloCapture hello, Arg[] args, Sample out);
    }

    private interface Write {
        boolean write(byte[] list, Sample out);
    }

    private static void fetch(SampleCatalog c, String name, ArgSpec args, SampleType type, Read read) {
        c.fetch(new Fetch(name, args, type, Source.L5CLI, (a, ctx, out) -> {
            TlsConnection t = TlsConnection.of(ctx.frontChannel());
            return t != null && t.hello != null && read.read(t.hello, a, out);
        }));
    }

    /** A list of 2-byte values, without the GREASE ones when the argument is 1. */
    private static void list(SampleCatalog c, String name, SampleType type, Function<HelloCapture, byte[]> of, Write write) {
        fetch(c, name, ArgSpec.of(0, SINT), type, (h, a, out) -> {
            byte[] list = of.apply(h);
            return write.write(a.length > 0 && a[0].num() == 1 ? withoutGrease(list) : list, out);
        });
    }

    static byte[] withoutGrease(byte[] list) {
        byte[] kept = new byte[list.length];
        int n = 0;
        for (int i = 0; i + 1 < list.length; i += 2) {
            if (!(list[i] == list[i + 1] && (list[i] & 0x0f) == 0x0a)) {
                kept[n++] = list[i];
                kept[n++] = list[i + 1];
            }
        }
        return Arrays.copyOf(kept, n);
    }

    /** The names of a list of cipher ids, comma-separated; an unknown one as {@code UNKNOWN(<hex id>)}, as HAProxy. */
    static String names(byte[] ids) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i + 1 < ids.length; i += 2) {
            int id = (ids[i] & 0xff) << 8 | ids[i + 1] & 0xff;
            b.append(i == 0 ? "" : ",");
            String name = NAMES.get(id);
            b.append(name != null ? name : "UNKNOWN(%04x)".formatted(id));
        }
        return b.toString();
    }

    private static Map<Integer, String> names() {
        Map<Integer, String> names = new HashMap<>();
        try (InputStream in = CaptureFetches.class.getResourceAsStream("cipher-names.txt")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.US_ASCII).split("\n")) {
                if (!line.startsWith("#") && !line.isBlank()) {
                    String[] f = line.split(" ");
                    names.put(Integer.parseInt(f[0], 16), f[1]);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return names;
    }
}
