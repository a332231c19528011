package io.fulcrum.conn;

import io.fulcrum.cfg.ConfigException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * Builds the PROXY protocol header a server gets first with {@code send-proxy} (v1, text) or
 * {@code send-proxy-v2} (binary), per HAProxy's proxy-protocol.txt. Addresses that are not IP (unix
 * sockets) are sent as UNKNOWN (v1) or LOCAL (v2), as HAProxy does. A v2 header carries the TLVs of
 * {@code proxy-v2-options} that the client connection can fill.
 */
public final class ProxyHeader {
    private ProxyHeader() {
    }

    static final byte[] V2_SIGNATURE = {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A};

    /** The TLVs of {@code proxy-v2-options}, as bits, in the order of HAProxy's names. */
    public static final int TLV_SSL = 1;
    public static final int TLV_CERT_CN = 2;
    public static final int TLV_SSL_CIPHER = 4;
    public static final int TLV_CERT_SIG = 8;
    public static final int TLV_CERT_KEY = 16;
    public static final int TLV_AUTHORITY = 32;
    public static final int TLV_CRC32C = 64;
    public static final int TLV_UNIQUE_ID = 128;
    private static final String[] TLV_NAMES = {"ssl", "cert-cn", "ssl-cipher", "cert-sig", "cert-key", "authority", "crc32c", "unique-id"};

    // proxy-protocol.txt 2.2: the types and the SSL TLV's client bits.
    private static final int PP2_TYPE_AUTHORITY = 0x02;
    private static final int PP2_TYPE_CRC32C = 0x03;
    private static final int PP2_TYPE_UNIQUE_ID = 0x05;
    private static final int PP2_TYPE_SSL = 0x20;
    private static final int PP2_SUBTYPE_SSL_VERSION = 0x21;
    private static final int PP2_SUBTYPE_SSL_CN = 0x22;
    private static final int PP2_SUBTYPE_SSL_CIPHER = 0x23;
    private static final int PP2_SUBTYPE_SSL_SIG_ALG = 0x24;
    private static final int PP2_SUBTYPE_SSL_KEY_ALG = 0x25;
    private static final int PP2_CLIENT_SSL = 0x01;
    private static final int PP2_CLIENT_CERT_CONN = 0x02;
    private static final int PP2_CLIENT_CERT_SESS = 0x04;

    /** The {@code TLV_*} bits of a {@code proxy-v2-options} list, with HAProxy's message for an unknown one. */
    public static int options(String list) throws ConfigException {
        int bits = 0;
        for (String name : list.split(",", -1)) {
            int i = Arrays.asList(TLV_NAMES).indexOf(name);
            if (i < 0) {
                throw new ConfigException("'" + name + "' : proxy v2 option not implemented.");
            }
            bits |= 1 << i;
        }
        return bits;
    }

    public static ByteBuf encode(int version, SocketAddress src, SocketAddress dst, ByteBufAllocator alloc) {
        return encode(version, 0, src, dst, null, null, alloc);
    }

    /**
     * The header, a v2 one with the TLVs {@code tlvs} asks for, in HAProxy's order, filled from the client connection.
     *
     * @param tls      the client connection's TLS layer, or null
     * @param uniqueId the stream's unique ID ({@code unique-id-format}, empty without one), or null for no stream
     */
    public static ByteBuf encode(int version, int tlvs, SocketAddress src, SocketAddress dst, TlsInfo tls, CharSequence uniqueId,
                                 ByteBufAllocator alloc) {
        if (version == 1) {
            return v1(src, dst, alloc);
        }
        ByteBuf b = v2(src, dst, alloc);
        if (tlvs != 0) {
            appendTlvs(b, tlvs, tls, uniqueId);
        }
        return b;
    }

    private static void appendTlvs(ByteBuf b, int tlvs, TlsInfo tls, CharSequence uniqueId) {
        int crc = -1;
        if ((tlvs & TLV_CRC32C) != 0) {
            crc = b.writerIndex() + 3;
            tlv(b, PP2_TYPE_CRC32C, new byte[4]);
        }
        if ((tlvs & TLV_AUTHORITY) != 0 && tls != null && tls.sni() != null) {
            tlv(b, PP2_TYPE_AUTHORITY, tls.sni());
        }
        if ((tlvs & TLV_UNIQUE_ID) != 0 && uniqueId != null) {
            tlv(b, PP2_TYPE_UNIQUE_ID, uniqueId.toString().getBytes(StandardCharsets.UTF_8)); // even empty, as HAProxy
        }
        if ((tlvs & TLV_SSL) != 0) {
            int start = b.writerIndex();
            b.writeByte(PP2_TYPE_SSL).writeShort(0).writeByte(0).writeInt(0);
            if (tls != null) {
                boolean cert = tls.hasPeerCertificate();
                b.setByte(start + 3, PP2_CLIENT_SSL | (cert ? PP2_CLIENT_CERT_CONN | PP2_CLIENT_CERT_SESS : 0));
                b.setInt(start + 4, cert ? tls.verifyResult() : 0);
                tlv(b, PP2_SUBTYPE_SSL_VERSION, tls.protocol());
                if ((tlvs & TLV_CERT_CN) != 0) {
                    tlv(b, PP2_SUBTYPE_SSL_CN, tls.peerCommonName());
                }
                if ((tlvs & TLV_CERT_KEY) != 0) {
                    tlv(b, PP2_SUBTYPE_SSL_KEY_ALG, tls.localKeyAlgorithm());
                }
                if ((tlvs & TLV_CERT_SIG) != 0) {
                    tlv(b, PP2_SUBTYPE_SSL_SIG_ALG, tls.localSignatureAlgorithm());
                }
                if ((tlvs & TLV_SSL_CIPHER) != 0) {
                    tlv(b, PP2_SUBTYPE_SSL_CIPHER, tls.cipher());
                }
            }
            b.setShort(start + 1, b.writerIndex() - start - 3);
        }
        b.setShort(14, b.writerIndex() - 16);
        if (crc >= 0) {
            CRC32C c = new CRC32C();
            c.update(b.nioBuffer(0, b.writerIndex()));
            b.setInt(crc, (int) c.getValue());
        }
    }

    /** A TLV; none when the value is null or empty (HAProxy sends none for what it cannot tell). */
    private static void tlv(ByteBuf b, int type, String value) {
        if (value != null && !value.isEmpty()) {
            tlv(b, type, value.getBytes(StandardCharsets.UTF_8));
        }
    }

    private static void tlv(ByteBuf b, int type, byte[] value) {
        b.writeByte(type).writeShort(value.length).writeBytes(value);
    }

    private static ByteBuf v1(SocketAddress src, SocketAddress dst, ByteBufAllocator alloc) {
        String line;
        if (src instanceof InetSocketAddress s && dst instanceof InetSocketAddress d) {
            InetAddress sa = s.getAddress();
            InetAddress da = d.getAddress();
            boolean v4 = sa instanceof Inet4Address && da instanceof Inet4Address;
            line = "PROXY " + (v4 ? "TCP4 " : "TCP6 ") + text(sa, v4) + " " + text(da, v4) + " " + s.getPort() + " " + d.getPort() + "\r\n";
        } else {
            line = "PROXY UNKNOWN\r\n";
        }
        byte[] b = line.getBytes(StandardCharsets.US_ASCII);
        return alloc.buffer(b.length).writeBytes(b);
    }

    /** The textual address; an IPv4 address next to an IPv6 one is written in its mapped form. */
    private static String text(InetAddress a, boolean v4) {
        if (v4) {
            return a.getHostAddress();
        }
        if (a instanceof Inet6Address) {
            return InetText.of(a);
        }
        return "::ffff:" + a.getHostAddress();
    }

    private static ByteBuf v2(SocketAddress src, SocketAddress dst, ByteBufAllocator alloc) {
        ByteBuf b = alloc.buffer(16 + 36);
        b.writeBytes(V2_SIGNATURE);
        if (src instanceof InetSocketAddress s && dst instanceof InetSocketAddress d) {
            InetAddress sa = s.getAddress();
            InetAddress da = d.getAddress();
            boolean v4 = sa instanceof Inet4Address && da instanceof Inet4Address;
            b.writeByte(0x21); // version 2, PROXY
            b.writeByte(v4 ? 0x11 : 0x21); // TCP over IPv4 / IPv6
            b.writeShort(v4 ? 12 : 36);
            b.writeBytes(bytes(sa, v4)).writeBytes(bytes(da, v4));
            b.writeShort(s.getPort()).writeShort(d.getPort());
        } else {
            b.writeByte(0x20); // version 2, LOCAL
            b.writeByte(0x00);
            b.writeShort(0);
        }
        return b;
    }

    /** The raw address, IPv4 mapped into IPv6 when the other address is IPv6. */
    private static byte[] bytes(InetAddress a, boolean v4) {
        byte[] raw = a.getAddress();
        return v4 || a instanceof Inet6Address ? raw : DualStack.mapped(raw);
    }
}
