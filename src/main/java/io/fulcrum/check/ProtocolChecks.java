package io.fulcrum.check;

import io.fulcrum.cfg.Args;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.check.CheckRule.Expect;
import io.fulcrum.check.CheckRule.Judge;
import io.fulcrum.check.CheckRule.Kind;
import io.fulcrum.check.CheckRule.Text;
import io.fulcrum.check.CheckRule.Verdict;
import io.fulcrum.proxy.Capability;
import io.fulcrum.proxy.OptionContext;
import io.fulcrum.proxy.ProxySpec;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import java.util.regex.Pattern;

/**
 * The protocol checks of configuration.txt 4.2 ({@code option ssl-hello-chk}, {@code smtpchk}, {@code mysql-check},
 * {@code pgsql-check}, {@code redis-check}, {@code ldap-check}, {@code spop-check}): each is a rule set sending the
 * bytes HAProxy 2.6 sends and judging the answer with HAProxy's statuses and words.
 */
final class ProtocolChecks {
    private ProtocolChecks() {
    }

    /** The SSLv3 CLIENT HELLO of {@code ssl-hello-chk} up to its time field, then what follows it (RFC 2246 A.3/A.4). */
    private static final byte[] SSL_HELLO_HEAD = ByteBufUtil.decodeHexDump("1603000079" + "01000075" + "0300");
    private static final byte[] SSL_HELLO_TAIL;

    static {
        StringBuilder hex = new StringBuilder(ByteBufUtil.hexDump("HAPROXYSSLCHK\nHAPROXYSSLCHK\n".getBytes(StandardCharsets.ISO_8859_1)));
        hex.append("00").append("004E"); // no session id; 78 bytes of cipher suites: 0x01..0x1B, 0x2F..0x3A
        for (int c = 0x01; c <= 0x3A; c = c == 0x1B ? 0x2F : c + 1) {
            hex.append(String.format("%04X", c));
        }
        hex.append("0100"); // one compression method: none
        SSL_HELLO_TAIL = ByteBufUtil.decodeHexDump(hex);
    }

    /** The LDAPv3 anonymous simple bind request of {@code ldap-check}. */
    private static final byte[] LDAP_BIND = ByteBufUtil.decodeHexDump("300C020101600702010304008000");

    /** The SPOP HAPROXY-HELLO frame of {@code spop-check}: version 2.0, max-frame-size 16380, healthcheck true. */
    private static final byte[] SPOP_HELLO = ByteBufUtil.decodeHexDump("0000004e0100000001000012737570706f727465642d76657273696f6e7308"
            + "03322e300e6d61782d6672616d652d73697a6503fcf0060c6361706162696c697469657308000b6865616c7468636865636b11");

    private static final Pattern SMTP_ANY = Pattern.compile("^[0-9]{3}[ \r]");
    private static final Pattern SMTP_OK = Pattern.compile("^2[0-9]{2}[ \r]");
    /** A reply of one or more lines ("250-..." lines, then "250 ..."): waited for until complete. */
    private static final Pattern SMTP_OK_LINES = Pattern.compile("^(2[0-9]{2}-[^\r]*\r\n)*2[0-9]{2}[ \r]");
    private static final Pattern SMTP_OK_MULTI = Pattern.compile("^2[0-9]{2}[- \r]");

    static void register(KeywordTable<OptionContext> options) {
        options.add("redis-check", Capability.BE | Capability.NO_NEGATION, (o, l) -> {
            noMoreThan(l, 0);
            use(o.proxy(), List.of(
                    CheckRule.Send.of(ascii("*1\r\n$4\r\nPING\r\n")),
                    expect(Kind.STRING, "+PONG\r\n", null, -1, CheckStatus.L7STS, ProtocolChecks::firstLine, a -> "Redis server is ok", null)));
        });
        options.add("smtpchk", Capability.BE | Capability.NO_NEGATION, (o, l) -> {
            noMoreThan(l, 2);
            String hello = l.has(2) && (l.arg(1).equals("EHLO") || l.arg(1).equals("HELO")) ? l.arg(1) + " " + l.arg(2) : "HELO localhost";
            use(o.proxy(), List.of(
                    CheckRule.Connect.lingering(),
                    expect(Kind.RSTRING, null, SMTP_ANY, 4, CheckStatus.L7RSP, ProtocolChecks::firstLine, null, null),
                    expect(Kind.RSTRING, null, SMTP_OK, 4, CheckStatus.L7STS, ProtocolChecks::smtpText, null, ProtocolChecks::smtpCode),
                    CheckRule.Send.of(ascii(hello + "\r\n")),
                    expect(Kind.RSTRING, null, SMTP_OK_LINES, -1, CheckStatus.L7STS, ProtocolChecks::smtpText, null, ProtocolChecks::smtpCode),
                    CheckRule.Send.of(ascii("QUIT\r\n")), // a clean goodbye, as HAProxy 2.6 says it
                    expect(Kind.RSTRING, null, SMTP_OK_MULTI, 4, CheckStatus.L7STS, ProtocolChecks::smtpText, ProtocolChecks::smtpText,
                            ProtocolChecks::smtpCode)));
        });
        options.add("ssl-hello-chk", Capability.BE | Capability.NO_NEGATION, (o, l) -> {
            noMoreThan(l, 0);
            Expect serverHello = new Expect(Kind.RBINARY, false, "^1[56]", Pattern.compile("^1[56]"), null, null, 5, null, null, null, null, null,
                    null, true, CheckStatus.L6OK, CheckStatus.L6RSP, CheckStatus.L6TOUT);
            use(o.proxy(), List.of(new CheckRule.Send(c -> sslHello(), null), serverHello));
        });
        options.add("ldap-check", Capability.BE | Capability.NO_NEGATION, (o, l) -> {
            noMoreThan(l, 0);
            use(o.proxy(), List.of(
                    CheckRule.Send.of(LDAP_BIND),
                    expect(Kind.RBINARY, null, Pattern.compile("^30"), 14, null, a -> "Not LDAPv3 protocol", null, null),
                    custom(ProtocolChecks::ldapBindResponse, -1)));
        });
        options.add("spop-check", Capability.BE | Capability.NO_NEGATION, (o, l) -> {
            noMoreThan(l, 0);
            use(o.proxy(), List.of(CheckRule.Send.of(SPOP_HELLO), custom(SpopHello::judge, 4)));
        });
        options.add("pgsql-check", Capability.BE | Capability.NO_NEGATION, (o, l) -> {
            if (!l.has(2)) {
                throw new ConfigException("'option pgsql-check' expects 'user <username>' as argument.");
            }
            if (!l.arg(1).equals("user")) {
                throw new ConfigException("'option pgsql-check' only supports optional values: 'user'.");
            }
            noMoreThan(l, 2);
            use(o.proxy(), List.of(
                    CheckRule.Connect.lingering(),
                    CheckRule.Send.of(pgsqlStartup(l.arg(2))),
                    expect(Kind.RSTRING, null, Pattern.compile("^E"), 5, CheckStatus.L7RSP, a -> from(a, 6), null, null).negated(),
                    expect(Kind.RBINARY, null, Pattern.compile("^52000000[A-Z0-9]{2}000000(00|02|03|04|05|06|07|09|0A)"), 9, CheckStatus.L7STS,
                            a -> "PostgreSQL unknown error", a -> "PostgreSQL server is ok", null)));
        });
        options.add("mysql-check", Capability.BE | Capability.NO_NEGATION, (o, l) -> {
            List<CheckRule> rules = new ArrayList<>();
            rules.add(CheckRule.Connect.lingering());
            if (l.has(1)) {
                if (!l.arg(1).equals("user")) {
                    throw new ConfigException("'option mysql-check' only supports optional values: 'user' (got '" + l.arg(1) + "').");
                }
                if (!l.has(2)) {
                    throw new ConfigException("'option mysql-check user' expects <username> as argument.");
                }
                noMoreThan(l, 3);
                String version = l.has(3) ? l.arg(3) : "post-41";
                if (!version.equals("post-41") && !version.equals("pre-41")) {
                    throw new ConfigException("keyword 'user' only supports 'post-41' and 'pre-41' (got '" + version + "').");
                }
                rules.add(CheckRule.Send.of(mysqlLogin(l.arg(2), version.equals("post-41"))));
                rules.add(custom((a, eof) -> mysqlPacket(a, eof, 0), -1));
                rules.add(custom((a, eof) -> mysqlPacket(a, eof, 4 + length3(a, 0)), -1));
            } else {
                rules.add(custom((a, eof) -> mysqlPacket(a, eof, 0), -1));
            }
            use(o.proxy(), rules);
        });
    }

    /** HAProxy's alertif_too_many_args for {@code option <name>}. */
    private static void noMoreThan(ConfigLine l, int n) throws ConfigException {
        Args.noMoreThan(l, n, "option " + l.arg(0));
    }

    private static void use(ProxySpec p, List<CheckRule> rules) {
        ProxyChecks c = CheckModule.of(p);
        c.type = ProxyChecks.Type.PROTOCOL;
        c.use(ProxyChecks.Type.PROTOCOL, List.copyOf(rules));
    }

    /** An expect of a protocol check, its texts and code read from the answer alone. */
    private static Expect expect(Kind kind, String text, Pattern regex, int minRecv, CheckStatus error, Function<ByteBuf, String> onError,
                                 Function<ByteBuf, String> onSuccess, ToIntFunction<ByteBuf> code) {
        return new Expect(kind, false, text, regex, text == null ? null : ascii(text), null, minRecv, null, answerText(onSuccess),
                answerText(onError), code == null ? null : c -> code.applyAsInt(c.answer()), null, null, true,
                null, error, null);
    }

    private static Expect custom(Judge judge, int minRecv) {
        return new Expect(Kind.CUSTOM, false, null, null, null, null, minRecv, null, null, null, null, null, judge, true, null, null, null);
    }

    private static Text answerText(Function<ByteBuf, String> f) {
        return f == null ? null : c -> f.apply(c.answer());
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** The answer up to its first CR or LF ({@code res.payload(0,0),cut_crlf}). */
    static String firstLine(ByteBuf a) {
        return cutCrlf(from(a, 0));
    }

    /** An SMTP reply's text after its code ({@code res.payload(4,0),ltrim(' '),cut_crlf}). */
    private static String smtpText(ByteBuf a) {
        String s = from(a, 4);
        int i = 0;
        while (i < s.length() && s.charAt(i) == ' ') {
            i++;
        }
        return cutCrlf(s.substring(i));
    }

    /** An SMTP reply's code ({@code status-code res.payload(0,3)}), -1 when it is not a number. */
    private static int smtpCode(ByteBuf a) {
        String s = a.toString(a.readerIndex(), Math.min(3, a.readableBytes()), StandardCharsets.ISO_8859_1);
        return s.matches("\\d{1,3}") ? Integer.parseInt(s) : -1;
    }

    private static String from(ByteBuf a, int offset) {
        return offset >= a.readableBytes() ? "" : a.toString(a.readerIndex() + offset, a.readableBytes() - offset, StandardCharsets.ISO_8859_1);
    }

    private static String cutCrlf(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) == '\r' || s.charAt(i) == '\n') {
                return s.substring(0, i);
            }
        }
        return s;
    }

    /** The CLIENT HELLO with the current time in its random field, as HAProxy fills it at each check. */
    private static byte[] sslHello() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(126);
        out.writeBytes(SSL_HELLO_HEAD);
        int now = (int) (System.currentTimeMillis() / 1000);
        out.write(now >>> 24);
        out.write(now >>> 16);
        out.write(now >>> 8);
        out.write(now);
        out.writeBytes(SSL_HELLO_TAIL);
        return out.toByteArray();
    }

    /** The StartupMessage of protocol 3.0 naming the user. */
    private static byte[] pgsqlStartup(String user) {
        byte[] u = ascii(user);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int len = 15 + u.length;
        out.writeBytes(new byte[]{(byte) (len >>> 24), (byte) (len >>> 16), (byte) (len >>> 8), (byte) len});
        out.writeBytes(ByteBufUtil.decodeHexDump("000300007573657200"));
        out.writeBytes(u);
        out.writeBytes(new byte[]{0, 0});
        return out.toByteArray();
    }

    /** A client authentication packet for {@code user} (4.1 or 4.0 format), then COM_QUIT. */
    private static byte[] mysqlLogin(String user, boolean post41) {
        byte[] u = ascii(user);
        int len = u.length + 7 + (post41 ? 27 : 0);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[]{(byte) len, (byte) (len >>> 8), (byte) (len >>> 16), 1});
        out.writeBytes(ByteBufUtil.decodeHexDump(post41 ? "00820000" + "00800001" + "21" + "00".repeat(23) : "0080" + "000001"));
        out.writeBytes(u);
        out.writeBytes(ByteBufUtil.decodeHexDump("0000" + "010000" + "00" + "01"));
        return out.toByteArray();
    }

    private static int length3(ByteBuf a, int at) {
        if (a.readableBytes() < at + 3) {
            return 0;
        }
        int r = a.readerIndex() + at;
        return a.getUnsignedByte(r) | a.getUnsignedByte(r + 1) << 8 | a.getUnsignedByte(r + 2) << 16;
    }

    /**
     * A MySQL packet at {@code offset}: an error packet fails with its code and message (L7STS), a truncated one
     * is invalid (L7RSP); a complete one passes, telling the server's version from the handshake.
     */
    private static Verdict mysqlPacket(ByteBuf a, boolean eof, int offset) {
        if (a.readableBytes() < offset + 4 || a.readableBytes() < offset + 4 + length3(a, offset)) {
            return eof ? new Verdict(CheckStatus.L7RSP, 0, "") : null;
        }
        int r = a.readerIndex() + offset;
        if (a.readableBytes() > offset + 4 && a.getUnsignedByte(r + 4) == 0xff) {
            int code = a.readableBytes() > offset + 6 ? a.getUnsignedByte(r + 5) | a.getUnsignedByte(r + 6) << 8 : 0;
            return new Verdict(CheckStatus.L7STS, code, from(a, offset + 7));
        }
        return Verdict.pass(from(a, 5));
    }

    /**
     * An LDAPv3 BindResponse (RFC 4511 4.2.2): its resultCode must be 0 (success). The message's length may take the
     * long form on 2 or 4 bytes (Active Directory's); as HAProxy 2.6, a message not all in yet is waited for.
     */
    private static Verdict ldapBindResponse(ByteBuf a, boolean eof) {
        Verdict notLdap = new Verdict(CheckStatus.L7RSP, 0, "Not LDAPv3 protocol");
        Verdict tooShort = eof ? new Verdict(CheckStatus.L7RSP, 0, "") : null;
        int r = a.readerIndex();
        int size = a.getUnsignedByte(r + 1);
        int lengthBytes = (size & 0x80) != 0 ? size & 0x7f : 0;
        if (a.readableBytes() < 2 + lengthBytes) {
            return tooShort;
        }
        long length = switch (lengthBytes) {
            case 0 -> size;
            case 2 -> a.getUnsignedShort(r + 2);
            case 4 -> a.getUnsignedInt(r + 2);
            default -> -1;
        };
        if (length < 0) {
            return notLdap;
        }
        if (a.readableBytes() < 2 + lengthBytes + length) {
            return tooShort;
        }
        int p = 2 + lengthBytes;
        if (!at(a, p, 0x02, 0x01, 0x01, 0x61)) {
            return notLdap;
        }
        p += 4;
        int opSize = a.getUnsignedByte(r + p);
        p += 1 + ((opSize & 0x80) != 0 ? opSize & 0x7f : 0); // the bindResponse's length, skipped
        if (!at(a, p, 0x0a, 0x01, -1)) {
            return notLdap;
        }
        int code = a.getUnsignedByte(r + p + 2);
        if (code != 0) {
            return new Verdict(CheckStatus.L7STS, code, "See RFC: http://tools.ietf.org/html/rfc4511#section-4.1.9");
        }
        return Verdict.pass("Success");
    }

    /** The answer holds {@code bytes} at {@code offset}; a negative one stands for any byte. */
    private static boolean at(ByteBuf a, int offset, int... bytes) {
        if (a.readableBytes() < offset + bytes.length) {
            return false;
        }
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] >= 0 && a.getUnsignedByte(a.readerIndex() + offset + i) != bytes[i]) {
                return false;
            }
        }
        return true;
    }
}
