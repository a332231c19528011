package io.fulcrum.sample;

import io.fulcrum.Modules;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.Registry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ExprParserTest {
    private final ExprParser parser = new ExprParser(SampleCatalog.of(Registry.of(Modules.ALL)));

    private String eval(String expr) throws ConfigException {
        Sample s = new Sample();
        return parser.parse(expr).eval(null, s) ? s.type() + ":" + s.asText() : "none";
    }

    @Test
    void fetchesAndConvertersChain() throws ConfigException {
        assertThat(eval("str(Hello),lower")).isEqualTo("str:hello");
        assertThat(eval("str(Hello),upper,length")).isEqualTo("sint:5");
        assertThat(eval("int(-42)")).isEqualTo("sint:-42");
        // haproxy 2.6.12 saturates integer arguments.
        assertThat(eval("int(99999999999999999999)")).isEqualTo("sint:9223372036854775807");
        assertThat(eval("int(-)")).isEqualTo("sint:0");
        assertThat(eval("str(abc),,lower")).isEqualTo("str:abc");
    }

    @Test
    void argumentsTakeQuotesAndEscapes() throws ConfigException {
        // As haproxy 2.6.12 parses them: a backslash escapes a backslash, a quote, a space, r, n or t; spaces are data.
        assertThat(eval("str('a,b)c')")).isEqualTo("str:a,b)c");
        assertThat(eval("str(\"x,y\")")).isEqualTo("str:x,y");
        assertThat(eval("str()")).isEqualTo("str:");
        assertThat(eval("str(a\\'b)")).isEqualTo("str:a'b");
        assertThat(eval("str(\"a\\\"b\")")).isEqualTo("str:a\"b");
        assertThat(eval("str(a\\\\b)")).isEqualTo("str:a\\b");
        assertThat(eval("str(a\\x41b)")).isEqualTo("str:a\\x41b");
        assertThat(eval("str('a\\\\b')")).isEqualTo("str:a\\\\b");
        assertThat(eval("str(a b)")).isEqualTo("str:a b");
        assertThat(eval("str(a\\ b)")).isEqualTo("str:a b");
        assertThat(eval("str(a'b\"'c)")).isEqualTo("str:ab\"c");
        assertThat(eval("str(a\\tb\\\"c\\ d\\\\e\\r\\n)")).isEqualTo("str:a\tb\"c d\\e\r\n");
        assertThat(eval("str('a\\nb')")).isEqualTo("str:a\\nb");
    }

    @Test
    void implicitCastsBeforeConverters() throws ConfigException {
        // An integer becomes its decimal text for a string converter.
        assertThat(eval("int(12345),length")).isEqualTo("sint:5");
        assertThat(eval("ipv4(10.1.2.3),length")).isEqualTo("sint:8");
        assertThat(eval("ipv6(::ffff:10.1.2.3),upper")).isEqualTo("str:::FFFF:10.1.2.3");
    }

    @Test
    void errorsUseHaproxyWording() {
        assertThatThrownBy(() -> parser.parse("nosuch")).hasMessage("unknown fetch method 'nosuch'");
        assertThatThrownBy(() -> parser.parse("str(a),nosuch")).hasMessage("unknown converter 'nosuch'");
        assertThatThrownBy(() -> parser.parse("int")).hasMessage("fetch method 'int' : expected type 'integer' at position 1, but got nothing");
        assertThatThrownBy(() -> parser.parse("int( 5)")).hasMessage("fetch method 'int' : failed to parse ' 5' as type 'integer' at position 1");
        assertThatThrownBy(() -> parser.parse("str(a, b)")).hasMessage("fetch method 'str' : expected ')' before ', b)'");
        assertThatThrownBy(() -> parser.parse("str(a\\,b)")).hasMessage("fetch method 'str' : expected ')' before ',b)'");
        assertThatThrownBy(() -> parser.parse("str(a")).hasMessage("fetch method 'str' : expected ')'");
        assertThatThrownBy(() -> parser.parse("int(abc)"))
                .hasMessage("fetch method 'int' : failed to parse 'abc' as type 'integer' at position 1");
        assertThatThrownBy(() -> parser.parse("int(1,2)"))
                .hasMessage("fetch method 'int' : expected ')' before ',2)'");
        assertThatThrownBy(() -> parser.parse("str(a)x")).hasMessage("missing comma after fetch keyword 'str'");
        assertThatThrownBy(() -> parser.parse("str(a),lower(x)")).hasMessage("invalid arg 1 in converter 'lower' : expected ')' before 'x)'");
        assertThatThrownBy(() -> parser.parse("var(foo)"))
                .hasMessage("invalid args in fetch method 'var' : invalid variable name 'foo'. A variable name must be start by its "
                        + "scope. The scope can be 'proc', 'sess', 'txn', 'req', 'res' or 'check'");
    }

    @Test
    void integerArgumentsAndMissingListsAsHaproxyReadsThem() throws ConfigException {
        // Expected values from haproxy 2.6.
        assertThat(eval("int(-)")).isEqualTo("sint:0");
        assertThat(eval("int(+7)")).isEqualTo("sint:7");
        assertThat(eval("int(0009)")).isEqualTo("sint:9");
        assertThat(eval("int(99999999999999999999)")).isEqualTo("sint:9223372036854775807");
        assertThat(eval("int(-99999999999999999999)")).isEqualTo("sint:-9223372036854775808");
        assertThatThrownBy(() -> parser.parse("int(+-1)")).hasMessage("fetch method 'int' : failed to parse '+-1' as type 'integer' at position 1");
        assertThatThrownBy(() -> parser.parse("int('')")).hasMessage("fetch method 'int' : expected type 'integer' at position 1, but got nothing");
        // No argument list reads as "()": an empty string is a valid first argument.
        assertThat(eval("str")).isEqualTo("str:");
    }

    @Test
    void missingStringArgumentIsEmpty() throws ConfigException {
        // haproxy 2.6.12: no list, or "()", gives a first string argument that is empty.
        assertThat(eval("str")).isEqualTo("str:");
        assertThatThrownBy(() -> parser.parse("var")).hasMessage("invalid args in fetch method 'var' : Empty variable name cannot be accepted");
        assertThatThrownBy(() -> parser.parse("var(txn.)")).hasMessage("invalid args in fetch method 'var' : invalid variable name "
                + "'txn.'. A variable name must be start by its scope. The scope can be 'proc', 'sess', 'txn', 'req', 'res' or 'check'");
        assertThatThrownBy(() -> parser.parse("var(txn.a-b)")).hasMessage("invalid args in fetch method 'var' : invalid syntax at char '-b'");
    }

    @Test
    void stopsWhereAnEmbeddedExpressionEnds() throws ConfigException {
        ExprParser.Parsed p = parser.parse("%[str(a),upper]tail", 2, true);
        assertThat(p.end()).isEqualTo(14);
        assertThat(p.expr()).hasToString("str(a),upper");
    }

    @Test
    void castsFollowTheMatrix() {
        assertThat(SampleType.BOOL.castsTo(SampleType.IPV4)).isFalse();
        assertThat(SampleType.STR.castsTo(SampleType.METH)).isTrue();
        assertThat(SampleType.IPV6.castsTo(SampleType.SINT)).isFalse();
        Sample s = new Sample();
        s.setStr("12ab");
        assertThat(s.cast(SampleType.SINT)).isTrue();
        assertThat(s.num()).isEqualTo(12);
        s.setStr("");
        assertThat(s.cast(SampleType.SINT)).isFalse();
        s.setBin(new byte[]{'a', 'b', 0, 'c'});
        assertThat(s.cast(SampleType.STR)).isTrue();
        assertThat(s.text()).isEqualTo("ab");
        // As haproxy 2.6: a string is cast to the IPv4 address it starts with.
        for (String text : new String[]{"10.1.2.3:80", "10.1.2.3x", "0010.1.2.3", "10.1.2.3/8"}) {
            s.setStr(text);
            assertThat(s.cast(SampleType.IPV4) && s.num() == 0x0a010203L).as(text).isTrue();
        }
        s.setStr("10.1.2.3.4");
        assertThat(s.cast(SampleType.ADDR)).isFalse();
        // Casts that keep the value keep the type, as HAProxy's c_none does.
        s.setStr("abc");
        assertThat(s.cast(SampleType.BIN)).isTrue();
        assertThat(s.type()).isEqualTo(SampleType.STR);
        s.setBool(true);
        assertThat(s.cast(SampleType.SINT)).isTrue();
        assertThat(s.type()).isEqualTo(SampleType.BOOL);
        s.setMeth("GET");
        assertThat(s.cast(SampleType.BIN)).isTrue();
        assertThat(s.type()).isEqualTo(SampleType.STR);
        s.setIpv6(IpText.parse6("2002:0a01:0203::1"));
        assertThat(s.cast(SampleType.IPV4)).isTrue();
        assertThat(IpText.format4(s.num())).isEqualTo("10.1.2.3");
    }

    @Test
    void ipv6TextAsInetNtop() {
        assertThat(IpText.format6(IpText.parse6("2001:db8:0:0:1:0:0:1"), 0)).isEqualTo("2001:db8::1:0:0:1");
        assertThat(IpText.format6(IpText.parse6("::1"), 0)).isEqualTo("::1");
        assertThat(IpText.format6(IpText.parse6("::"), 0)).isEqualTo("::");
        assertThat(IpText.format6(IpText.parse6("1:0:2::"), 0)).isEqualTo("1:0:2::");
        assertThat(IpText.format6(IpText.parse6("::1.2.3.4"), 0)).isEqualTo("::1.2.3.4");
        assertThat(IpText.parse6("1::2::3")).isNull();
        assertThat(IpText.parse6(":1::")).isNull();
        assertThat(IpText.parse6("1:2:3:4:5:6:7:8:9")).isNull();
        assertThat(IpText.parse4("1.2.3")).isEqualTo(-1);
        assertThat(IpText.parse4("1.2.3.256")).isEqualTo(-1);
    }
}
