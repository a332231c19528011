package io.fulcrum.acl.map;

import io.fulcrum.Modules;
import io.fulcrum.acl.AclParser;
import io.fulcrum.acl.AclTable;
import io.fulcrum.acl.PatternFile;
import io.fulcrum.acl.PatternFiles;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.Registry;
import io.fulcrum.cfg.Source;
import io.fulcrum.cfg.Token;
import io.fulcrum.sample.Expr;
import io.fulcrum.sample.ExprParser;
import io.fulcrum.sample.Sample;
import io.fulcrum.sample.SampleCatalog;
import io.fulcrum.sample.SampleType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The map converters, evaluated on constant fetches. Unless said otherwise, every expected value and
 * message is what haproxy 2.6 gave for the same file and expression (through
 * {@code http-request return ... lf-string "%[...]"} and {@code haproxy -c}).
 */
class MapConvertersTest {
    private final Registry registry = Registry.of(Modules.ALL);
    private final ExprParser parser = new ExprParser(SampleCatalog.of(registry));

    @TempDir
    Path dir;

    private int files;

    /** A new map file (files are identified by name and read once: each content gets its own). */
    private String map(String content) throws IOException {
        Path p = dir.resolve("m" + ++files + ".map");
        Files.write(p, content.getBytes(StandardCharsets.ISO_8859_1));
        return p.toString();
    }

    /** The expression's value as text, or "<none>" when it has none. */
    private String eval(String expr) throws ConfigException {
        Sample s = new Sample();
        return parser.parse(expr).eval(null, s) ? s.asText() : "<none>";
    }

    private String error(String expr) {
        try {
            parser.parse(expr);
            return "no error";
        } catch (ConfigException e) {
            return e.getMessage();
        }
    }

    @Test
    void fileFormatKeyThenValueUpToTrailingBlanks() throws Exception {
        String m = map("# comment\n\n   lead   value with  spaces  \t \nnoval\nnoval2   \t\ntab\tx\ty \n"
                + "  #notcomment v\nk1 first\nk1 second\nK2 upper\n");
        assertThat(eval("str(lead),map(" + m + ")")).isEqualTo("value with  spaces");
        assertThat(eval("str(noval),map(" + m + ",def)")).isEmpty(); // a key alone has an empty value
        assertThat(eval("str(noval2),map(" + m + ",def)")).isEmpty();
        assertThat(eval("str(tab),map(" + m + ")")).isEqualTo("x\ty");
        assertThat(eval("str(#notcomment),map(" + m + ",def)")).isEqualTo("v");
        assertThat(eval("str(k1),map(" + m + ")")).isEqualTo("first");
        assertThat(eval("str(k2),map(" + m + ",def)")).isEqualTo("def"); // no "-i" for maps
        assertThat(eval("str(K2),map(" + m + ")")).isEqualTo("upper");
        assertThat(eval("str(),map(" + m + ",def)")).isEqualTo("def");
        assertThat(eval("str(#),map(" + m + ",def)")).isEqualTo("def");
        assertThat(eval("str(zz),map(" + m + ")")).isEqualTo("<none>");
    }

    @Test
    void aLineEndsAtCarriageReturnOrNul() throws Exception {
        String m = map("   \nk1 v1\r\nk2\r\nk3 v3 \r \n\tk4 v4\nk5\u000bv5\nk8\rx v8\nk9 a\rb\nk10 a\u0000b\nk11\u0000z v11\n");
        assertThat(eval("str(),map(" + m + ",def)")).isEqualTo("def");
        assertThat(eval("str(k1),map(" + m + ",def)")).isEqualTo("v1");
        assertThat(eval("str(k2),map(" + m + ",def)")).isEmpty();
        assertThat(eval("str(k3),map(" + m + ",def)")).isEqualTo("v3");
        assertThat(eval("str(k4),map(" + m + ",def)")).isEqualTo("v4");
        assertThat(eval("str(k5),map(" + m + ",def)")).isEqualTo("def"); // only spaces and tabs separate
        assertThat(eval("str(k8),map(" + m + ",def)")).isEmpty();
        assertThat(eval("str(k9),map(" + m + ",def)")).isEqualTo("a");
        assertThat(eval("str(k10),map(" + m + ",def)")).isEqualTo("a");
        assertThat(eval("str(k11),map(" + m + ",def)")).isEmpty();
    }

    @Test
    void prefixesTakeTheLongestOtherStringMethodsTheFirstInFileOrder() throws Exception {
        String beg = map("/a x\n/ab y\n/abc z\n");
        String beg2 = map("/abc z\n/ab y\n/a x\n");
        assertThat(eval("str(/abcd),map_beg(" + beg + ")")).isEqualTo("z");
        assertThat(eval("str(/abcd),map_beg(" + beg2 + ")")).isEqualTo("z");
        assertThat(eval("str(/ab),map_beg(" + beg + ")")).isEqualTo("y");
        String sub = map("a x\nb y\nab z\n");
        assertThat(eval("str(ab),map_sub(" + sub + ")")).isEqualTo("x");
        assertThat(eval("str(ba),map_sub(" + sub + ")")).isEqualTo("x");
        assertThat(eval("str(xabc),map_end(" + map("c x\nbc y\nabc z\n") + ")")).isEqualTo("x");
        String dir = map("a x\nb y\na/b z\n");
        assertThat(eval("str(/b/a/x),map_dir(" + dir + ")")).isEqualTo("x");
        assertThat(eval("str(/x/a/b/),map_dir(" + dir + ")")).isEqualTo("x");
        assertThat(eval("str(www.example.com),map_dom(" + map("com x\nexample.com y\nwww z\n") + ")")).isEqualTo("x");
        assertThat(eval("str(abc),map_reg(" + map("^a x\n^ab y\n") + ")")).isEqualTo("x");
    }

    @Test
    void addressesTakeTheLongestPrefixInTheirFamilyFirst() throws Exception {
        String m1 = map("10.0.0.0/8 a\n10.1.0.0/16 b\n10.1.2.3 c\n0.0.0.0/0 any4\n10.1.0.0/16 b2\n");
        String m2 = map("::/0 any6\n2001:db8::/32 d\n::ffff:10.1.0.0/112 mapped\n");
        String m3 = map("10.0.0.0/8 a\n2001:db8::/32 d\n::ffff:10.1.0.0/112 mapped\n");
        String m4 = map("::ffff:10.1.0.0/112 mapped\n10.0.0.0/8 a\n");
        assertThat(eval("ipv4(10.1.2.3),map_ip(" + m1 + ")")).isEqualTo("c");
        assertThat(eval("ipv4(10.1.2.4),map_ip(" + m1 + ")")).isEqualTo("b");
        assertThat(eval("ipv4(10.2.2.4),map_ip(" + m1 + ")")).isEqualTo("a");
        assertThat(eval("ipv4(11.2.2.4),map_ip(" + m1 + ")")).isEqualTo("any4");
        assertThat(eval("ipv6(::ffff:10.1.2.3),map_ip(" + m1 + ")")).isEqualTo("c");
        assertThat(eval("ipv6(2001:db8::1),map_ip(" + m1 + ",def)")).isEqualTo("def");
        assertThat(eval("ipv6(2002:0a01:0203::1),map_ip(" + m1 + ",def)")).isEqualTo("c");
        assertThat(eval("ipv6(::10.1.2.3),map_ip(" + m1 + ",def)")).isEqualTo("c");
        assertThat(eval("ipv4(10.1.2.3),map_ip(" + m2 + ")")).isEqualTo("mapped");
        assertThat(eval("ipv6(2001:db8::1),map_ip(" + m2 + ")")).isEqualTo("d");
        assertThat(eval("ipv4(10.1.2.3),map_ip(" + m3 + ")")).isEqualTo("a");
        assertThat(eval("ipv6(::ffff:10.1.2.3),map_ip(" + m3 + ")")).isEqualTo("mapped");
        assertThat(eval("ipv6(::ffff:10.2.2.3),map_ip(" + m3 + ")")).isEqualTo("a");
        assertThat(eval("ipv4(10.1.2.3),map_ip(" + m4 + ")")).isEqualTo("a");
        assertThat(eval("ipv6(::ffff:10.1.2.3),map_ip(" + m4 + ")")).isEqualTo("mapped");
        assertThat(eval("str(10.1.2.3),map_ip(" + m1 + ")")).isEqualTo("c");
        assertThat(eval("str(junk),map_ip(" + m1 + ",def)")).isEqualTo("<none>"); // the cast fails: no default
    }

    @Test
    void masksThatAreNotPrefixesComeLast() throws Exception {
        String nc1 = map("1.0.3.0/255.0.255.0 nc\n1.2.3.4 exact\n");
        String nc2 = map("1.0.3.0/255.0.255.0 nc\n0.0.0.0/0 any\n");
        String nc3 = map("1.0.3.0/255.0.255.0 nc\n1.0.3.0/255.0.255.0 nc2\n::/0 any6\n");
        assertThat(eval("ipv4(1.2.3.4),map_ip(" + nc1 + ",def)")).isEqualTo("exact");
        assertThat(eval("ipv4(1.5.3.4),map_ip(" + nc1 + ",def)")).isEqualTo("nc");
        assertThat(eval("ipv4(1.2.0.4),map_ip(" + nc1 + ",def)")).isEqualTo("def");
        assertThat(eval("ipv4(1.2.3.4),map_ip(" + nc2 + ",def)")).isEqualTo("any");
        assertThat(eval("ipv4(1.2.3.4),map_ip(" + nc3 + ",def)")).isEqualTo("any6");
        assertThat(eval("ipv6(::ffff:1.2.3.4),map_ip(" + nc2 + ",def)")).isEqualTo("any");
    }

    @Test
    void addressKeys() throws Exception {
        assertThat(eval("ipv4(1.2.3.4),map_ip(" + map("1.2.3.4/08 x\n") + ",def)")).isEqualTo("x");
        assertThat(eval("ipv4(1.2.0.4),map_ip(" + map("::ffff:1.2.3.4/100 x\n") + ",def)")).isEqualTo("x");
        for (String key : List.of("1.2.3.4x", "1.2.3.4:80", "0001.2.3.4", "1.2.3.4/33", "::1/129", "localhost", "1.2.3", "10/8")) {
            String m = map(key + " x\n");
            assertThat(error("ipv4(1.2.3.4),map_ip(" + m + ")")).isEqualTo("invalid args in converter 'map_ip' : '" + key
                    + "' is not a valid IPv4 or IPv6 address at line 1 of file '" + m + "'");
        }
    }

    @Test
    void integerKeysAreRangesTriedInFileOrder() throws Exception {
        String m = map("10:20 range\n15 exact\n:5 low\n100: high\n-3 neg\n");
        assertThat(eval("int(15),map_int(" + m + ",def)")).isEqualTo("range");
        assertThat(eval("int(4),map_int(" + m + ",def)")).isEqualTo("low");
        assertThat(eval("int(500),map_int(" + m + ",def)")).isEqualTo("high");
        assertThat(eval("int(-3),map_int(" + m + ",def)")).isEqualTo("low");
        assertThat(eval("int(50),map_int(" + m + ",def)")).isEqualTo("def");
        assertThat(eval("str(15),map_int(" + m + ",def)")).isEqualTo("range");
        assertThat(eval("str(abc),map_int(" + m + ",def)")).isEqualTo("low");
        assertThat(eval("str(),map_int(" + m + ",def)")).isEqualTo("<none>");
        assertThat(eval("bool(1),map_int(" + m + ",def)")).isEqualTo("low");
        String[][] bad = {{"20:10", "is not a valid number range"}, {"+5", "is not a number"}, {"1.5", "is not a number"},
                {"eq", "is not a number"}, {"99999999999999999999", "is not a number"}, {":", "is not a valid number range"},
                {"1:2:3", "is not a valid number range"}};
        for (String[] b : bad) {
            String f = map(b[0] + " x\n");
            assertThat(error("int(5),map_int(" + f + ")"))
                    .isEqualTo("invalid args in converter 'map_int' : '" + b[0] + "' " + b[1] + " at line 1 of file '" + f + "'");
        }
    }

    @Test
    void integerValues() throws Exception {
        String[][] cases = {{"12", "12"}, {"+5", "5"}, {"-0", "0"}, {"-7", "-7"}, {"007", "7"}, {"", "0"}, {"+", "0"}, {"-", "0"},
                {"99999999999999999999", "9223372036854775807"}, {"-99999999999999999999", "-9223372036854775808"},
                {"9223372036854775808", "9223372036854775807"}};
        for (String[] c : cases) {
            String m = map("k " + c[0] + "\n");
            Sample s = new Sample();
            assertThat(parser.parse("str(k),map_str_int(" + m + ")").eval(null, s)).isTrue();
            assertThat(s.type()).isEqualTo(SampleType.SINT);
            assertThat(s.num()).as(c[0]).isEqualTo(Long.parseLong(c[1]));
        }
        for (String v : List.of("1 2", "0x10", "12x", "1.5", "+-1", "--1")) {
            String m = map("k " + v + "\n");
            assertThat(error("str(k),map_str_int(" + m + ")"))
                    .isEqualTo("invalid args in converter 'map_str_int' : unable to parse '" + v + "' at line 1 of file '" + m + "'");
        }
    }

    @Test
    void addressValues() throws Exception {
        String[][] cases = {{"1.2.3.4", "1.2.3.4"}, {"::1", "::1"}, {"1.2.3.4/8", "1.2.3.4"}, {"10.0.0.0/8", "10.0.0.0"},
                {"::ffff:1.2.3.4", "::ffff:1.2.3.4"}, {"010.001.1.1", "10.1.1.1"}, {"1.2.3.4:80", "1.2.3.4"},
                {"1.2.3.4/255.0.0.0", "1.2.3.4"}, {"1.2.3.4x", "1.2.3.4"}, {"1.2.3.4 5", "1.2.3.4"}, {"0001.2.3.4", "1.2.3.4"}};
        for (String[] c : cases) {
            String m = map("k " + c[0] + "\n");
            assertThat(eval("str(k),map_str_ip(" + m + ")")).as(c[0]).isEqualTo(c[1]);
            assertThat(eval("str(z),map_str_ip(" + m + ",'" + c[0] + "')")).as(c[0]).isEqualTo(c[1]);
        }
        for (String v : List.of("1.2.3", "1", "0x7f.1", "", "localhost", "[::1]", "::1/64", "1.2.3.400", "1.2.3.4.5", "256.1.1.1", "1.2.3.")) {
            String m = map("k " + v + "\n");
            assertThat(error("str(k),map_str_ip(" + m + ")"))
                    .isEqualTo("invalid args in converter 'map_str_ip' : unable to parse '" + v + "' at line 1 of file '" + m + "'");
        }
        Sample s = new Sample();
        parser.parse("str(k),map_str_ip(" + map("k ::1\n") + ")").eval(null, s);
        assertThat(s.type()).isEqualTo(SampleType.IPV6);
    }

    @Test
    void defaultsHaveTheOutputType() throws Exception {
        String ip = map("a 1.2.3.4\nb ::1\n");
        String in = map("a 12\nb -3\n");
        assertThat(eval("str(z),map_str_ip(" + ip + ",::2)")).isEqualTo("::2");
        assertThat(eval("str(z),map_str_ip(" + ip + ",10.0.0.0/8)")).isEqualTo("10.0.0.0");
        assertThat(error("str(a),map_str_ip(" + ip + ",1.2.3.400)"))
                .isEqualTo("invalid args in converter 'map_str_ip' : map: cannot parse default ip <1.2.3.400>.");
        assertThat(error("str(a),map_str_ip(" + ip + ",abc)")).isEqualTo("invalid args in converter 'map_str_ip' : map: cannot parse default ip <abc>.");
        assertThat(error("str(a),map_str_ip(" + ip + ",)")).isEqualTo("invalid args in converter 'map_str_ip' : map: cannot parse default ip <>.");
        assertThat(eval("str(z),map_str_int(" + in + ",)")).isEqualTo("0");
        assertThat(eval("str(z),map_str_int(" + in + ",-)")).isEqualTo("0");
        assertThat(eval("str(z),map_str_int(" + in + ",+5)")).isEqualTo("5");
        assertThat(error("str(a),map_str_int(" + in + ",5x)"))
                .isEqualTo("invalid arg 2 in converter 'map_str_int' : failed to parse '5x' as type 'integer' at position 2");
        assertThat(error("str(a),map_int_int(" + map("10 1\n") + ",abc)"))
                .isEqualTo("invalid arg 2 in converter 'map_int_int' : failed to parse 'abc' as type 'integer' at position 2");
        assertThat(eval("str(z),map(" + in + ",)")).isEmpty();
        assertThat(eval("str(z),map(" + in + ")")).isEqualTo("<none>");
    }

    @Test
    void regmReplacesBackReferences() throws Exception {
        String m = map("^/(a+)/(b+)(c)? [\\1][\\2][\\3][\\0][\\4]\n^/y \\10 \\1\n^/(z)(z)(z)(z)(z)(z)(z)(z)(z)(z) \\10\n");
        assertThat(eval("str(/aa/bb),map_regm(" + m + ")")).isEqualTo("[aa][bb][][/aa/bb][]");
        assertThat(eval("str(/y),map_regm(" + m + ")")).isEqualTo("0 ");
        assertThat(eval("str(/zzzzzzzzzz),map_regm(" + m + ")")).isEqualTo("z0");
        assertThat(eval("str(/aa/bb),map_reg(" + m + ")")).isEqualTo("[\\1][\\2][\\3][\\0][\\4]");
        assertThat(eval("str(k/aa/bb),map_regm(" + m + ",def)")).isEqualTo("def");
    }

    @Test
    void regmEscapes() throws Exception {
        String[][] cases = {{"\\\\1", "\\1"}, {"\\n", "n"}, {"\\x41", "A"}, {"\\a", "a"}, {"\\-", "-"}, {"\\t", "t"},
                {"\\xZZ", "S"}, {"\\xzz", "S"}, {"\\xGG", "\u0010"}, {"\\x0-", "\u00f6"}, {"\\x-0", "`"}, {"\\x0~", "G"},
                {"\\x0:", "\u0003"}, {"\\x0@", "\t"}, {"\\x0[", "$"}, {"\\x0`", ")"}, {"\\x0{", "D"}, {"\\x0z", "#"}, {"\\\\", "\\"}};
        for (String[] c : cases) {
            String m = map("^/x(.) " + c[0] + "\n");
            assertThat(eval("str(/xq),map_regm(" + m + ",DEF)")).as(c[0]).isEqualTo(c[1]);
        }
        // A value that ends inside an escape gives no result, not even the default.
        for (String v : List.of("\\1\\", "a\\", "\\x4", "\\")) {
            String m = map("^/x(.) " + v + "\n");
            assertThat(eval("str(/xq),map_regm(" + m + ",DEF)")).as(v).isEqualTo("<none>");
        }
    }

    @Test
    void configurationErrors() throws Exception {
        String x = map("a b\n");
        assertThat(error("str(a),map(" + dir.resolve("nosuch.map") + ")"))
                .isEqualTo("invalid args in converter 'map' : failed to open pattern file <" + dir.resolve("nosuch.map") + ">");
        assertThat(error("str(a),map")).isEqualTo("invalid args in converter 'map' : failed to open pattern file <>");
        assertThat(error("str(a),map()")).isEqualTo("invalid args in converter 'map' : failed to open pattern file <>");
        assertThat(error("str(a),map(" + x + ",a,b)")).isEqualTo("invalid arg 2 in converter 'map' : expected ')' before ',b)'");
        assertThat(error("str(a),map_int(" + x + ")")).isEqualTo("invalid args in converter 'map_int' : 'a' is not a number at line 1 of file '" + x + "'");
        assertThat(error("str(a),map_str_int(" + x + ")")).isEqualTo("invalid args in converter 'map_str_int' : unable to parse 'b' at line 1 of file '" + x + "'");
        assertThat(error("ipv6(::1),map_int(" + x + ")")).isEqualTo("converter 'map_int' cannot be applied");
        assertThat(error("bool(1),map_ip(" + x + ")")).isEqualTo("converter 'map_ip' cannot be applied");
        assertThat(error("str(a),map_reg(" + map("(x 1\n") + ")")).startsWith("invalid args in converter 'map_reg' : regex '(x' is invalid");
        // A line's value is checked before its key, an earlier line before a later one.
        assertThat(error("str(a),map_int_int(" + x + ")")).isEqualTo("invalid args in converter 'map_int_int' : unable to parse 'b' at line 1 of file '" + x + "'");
        String ord = map("b 1\n2 x\n");
        assertThat(error("str(a),map_int_int(" + ord + ")")).isEqualTo("invalid args in converter 'map_int_int' : 'b' is not a number at line 1 of file '" + ord + "'");
    }

    @Test
    void convertersThatDoNotExistInHaproxy() {
        // Unknown to haproxy 2.6 too.
        for (String name : List.of("map_str_str", "map_regm_int", "map_regm_ip", "map_len", "map_bin", "map_found", "map_str_ipv4", "map_ip_sint")) {
            assertThat(error("str(a)," + name + "(x)")).isEqualTo("unknown converter '" + name + "'");
        }
        assertThat(SampleCatalog.of(registry).converters().stream().filter(c -> c.name().startsWith("map")).count()).isEqualTo(29);
    }

    @Test
    void aMapFileIsLoadedOnceAndSharedByAllItsConverters() throws Exception {
        Path p = dir.resolve("shared.map");
        Files.writeString(p, "a 1\n");
        Expr first = parser.parse("str(a),map(" + p + ")");
        Files.writeString(p, "a 2\n"); // not read again
        Expr second = parser.parse("str(a),map_str_int(" + p + ")");
        Sample s = new Sample();
        assertThat(first.eval(null, s) && s.asText().equals("1")).isTrue();
        assertThat(second.eval(null, s) && s.num() == 1).isTrue();
        assertThat(PatternFiles.of(registry).all()).hasSize(1);
    }

    @Test
    void changesAreSeenByEveryConverterAtOnceAndARefusedEntryChangesNothing() throws Exception {
        // Fulcrum's own contract, for the CLI's map commands.
        String m = map("a 1\n");
        Expr str = parser.parse("str(a),map(" + m + ")");
        Expr num = parser.parse("str(a),map_str_int(" + m + ",-1)");
        PatternFile file = PatternFiles.of(registry).get(m);
        file.clear(0);
        file.add(0, List.of(new String[] {"a", "7"}, new String[] {"b", "8"}));
        Sample s = new Sample();
        assertThat(str.eval(null, s) && s.asText().equals("7")).isTrue();
        assertThat(num.eval(null, s) && s.num() == 7).isTrue();
        assertThatThrownBy(() -> file.add(0, List.<String[]>of(new String[] {"c", "nine"}))).hasMessage("unable to parse 'nine'");
        assertThatThrownBy(() -> file.setValue(PatternFile.keyed("a"), "ten")).hasMessage("unable to parse 'ten'");
        assertThat(num.eval(null, s) && s.num() == 7).isTrue();
        assertThat(file.entries()).extracting(PatternFile.Entry::key).containsExactly("a", "b");
    }

    @Test
    void aPreparedVersionIsMatchedOnlyOnceCommitted() throws Exception {
        String m = map("a 1\n");
        Expr str = parser.parse("str(a),map(" + m + ",none)");
        PatternFile file = PatternFiles.of(registry).get(m);
        int v = file.prepare();
        file.add(v, List.<String[]>of(new String[] {"a", "2"}));
        Sample s = new Sample();
        assertThat(str.eval(null, s) && s.asText().equals("1")).isTrue();
        assertThat(file.commit(v + 1)).isFalse();
        assertThat(file.commit(v)).isTrue();
        assertThat(str.eval(null, s) && s.asText().equals("2")).isTrue();
        assertThat(file.entries(0)).isEmpty();
        assertThat(file.commit(v)).isFalse();
    }

    @Test
    void aclsShareMapFilesThroughDashM() throws Exception {
        AclParser acls = AclParser.of(registry);
        String m = map("ab x\n");
        parser.parse("str(ab),map(" + m + ")");
        assertThat(acl(acls, "str(ab) -M -f " + m)).isTrue();
        assertThatThrownBy(() -> acl(acls, "str(ab) -f " + m)).hasMessage("error detected while parsing ACL 'x' : The file \"" + m
                + "\" is already used as two column file and cannot be used by as one column file..");
        String p = map("ab\n");
        assertThat(acl(acls, "str(ab) -f " + p)).isTrue();
        assertThat(error("str(ab),map(" + p + ")")).isEqualTo("invalid args in converter 'map' : The file \"" + p
                + "\" is already used as one column file and cannot be used by as two column file.");
    }

    private static boolean acl(AclParser acls, String definition) throws ConfigException {
        String text = "acl x " + definition;
        List<Token> tokens = new ArrayList<>();
        for (String w : text.split(" ")) {
            tokens.add(new Token(w, 0));
        }
        AclTable t = new AclTable();
        acls.declare(t, new ConfigLine(new Source("test.cfg", 1), text, tokens, null));
        return t.get("x").test(null);
    }
}
