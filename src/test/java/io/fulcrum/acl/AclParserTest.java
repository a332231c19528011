package io.fulcrum.acl;

import io.fulcrum.Modules;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.Registry;
import io.fulcrum.cfg.Source;
import io.fulcrum.cfg.Token;
import io.fulcrum.http.HttpHeaders;
import io.fulcrum.http.RequestHead;
import io.fulcrum.sample.ArgSpec;
import io.fulcrum.sample.ArgType;
import io.fulcrum.sample.Fetch;
import io.fulcrum.sample.SampleCatalog;
import io.fulcrum.sample.SampleType;
import io.fulcrum.sample.TestContext;
import io.netty.util.AsciiString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AclParserTest {
    private final AclParser parser;
    private final AclTable table = new AclTable();

    AclParserTest() {
        Registry r = Registry.of(Modules.ALL);
        SampleCatalog c = SampleCatalog.of(r);
        // A multi-valued test fetch: the '+'-separated words of its argument, one value each.
        c.fetch(new Fetch("t.words", ArgSpec.of(1, ArgType.STR), SampleType.STR, io.fulcrum.sample.Source.HRQHV,
                (a, ctx, out) -> out.setStr(a[0].text().substring(a[0].text().lastIndexOf('+') + 1)))
                .withEach((a, ctx, out, visitor) -> {
                    for (String w : a[0].text().split("\\+")) {
                        out.setStr(w);
                        if (visitor.test(out)) {
                            return true;
                        }
                    }
                    return false;
                }));
        parser = new AclParser(c);
    }

    private static ConfigLine line(String text) {
        List<Token> tokens = new ArrayList<>();
        for (String w : text.split(" ")) {
            tokens.add(new Token(w, 0));
        }
        return new ConfigLine(new Source("test.cfg", 1), text, tokens, null);
    }

    private boolean acl(String definition) throws ConfigException {
        AclTable t = new AclTable();
        parser.declare(t, line("acl x " + definition));
        return t.get("x").test(null);
    }

    @Test
    void theLinesPatternsFormASetThatTheCliCanChange() throws ConfigException {
        PatternFiles files = new PatternFiles();
        AclParser p = new AclParser(SampleCatalog.of(Registry.of(Modules.ALL)), files);
        AclTable t = new AclTable();
        p.declare(t, line("acl x int(4) gt 5 lt 3 eq 8000"));
        p.declare(t, line("acl y str(abc) -u 7 -m beg zz"));
        PatternFile ints = files.all().get(0);
        // Operators are rewritten into ranges, as HAProxy lists them.
        assertThat(ints.entries()).extracting(PatternFile.Entry::key).containsExactly("6:", ":2", "8000");
        assertThat(ints.describe()).isEqualTo("0 () acl 'int' file 'test.cfg' line 1. curr_ver=0 next_ver=0 entry_cnt=3");
        assertThat(t.get("x").test(null)).isFalse();
        ints.add(0, List.<String[]>of(new String[] {"4", null}));
        assertThat(t.get("x").test(null)).isTrue();

        PatternFile beg = files.find("#7");
        assertThat(t.get("y").test(null)).isFalse();
        int v = beg.prepare();
        beg.add(v, List.<String[]>of(new String[] {"ab", null}));
        assertThat(t.get("y").test(null)).isFalse();
        beg.commit(v);
        assertThat(t.get("y").test(null)).isTrue();
        assertThat(beg.lookup("abc")).extracting(m -> m.entry().key()).containsExactly("ab");
    }

    @Test
    void stringMethods() throws ConfigException {
        assertThat(acl("str(/images/a.png) -m beg /img /images")).isTrue();
        assertThat(acl("str(/images/a.png) -m beg /IMAGES")).isFalse();
        assertThat(acl("str(/images/a.png) -i -m beg /IMAGES")).isTrue();
        assertThat(acl("str(/images/a.png) -m end .png")).isTrue();
        assertThat(acl("str(/images/a.png) -m sub ages/")).isTrue();
        assertThat(acl("str(/images/a.png) -m reg ^/im.*g$")).isTrue();
        assertThat(acl("str(/images/a.png) -m len 13")).isTrue();
        assertThat(acl("str(/images/a.png) -m len 1:10")).isFalse();
        assertThat(acl("str(/images/a.png) /images/a.png")).isTrue();
        assertThat(acl("str(/images/a.png) /images")).isFalse();
    }

    @Test
    void regexesAreReadAsPcreReadsThem() throws ConfigException {
        // As haproxy 2.6 (PCRE2): POSIX classes, literal '[' and '&&' in brackets, only LF ends a line.
        assertThat(acl("str(123) -m reg ^[[:digit:]]+$")).isTrue();
        assertThat(acl("str(:) -m reg ^[[:digit:]]+$")).isFalse();
        assertThat(acl("str(a) -m reg [[:^digit:]x]")).isTrue();
        assertThat(acl("str(5) -m reg [^[:alpha:]]")).isTrue();
        assertThat(acl("str(a_b_) -m reg ^[[:word:]]{4}$")).isTrue();
        assertThat(acl("str(&) -m reg [a&&b]")).isTrue();
        assertThat(acl("str([) -m reg [[x]")).isTrue();
        assertThat(acl("str(]) -m reg []x]")).isTrue();
        assertThat(acl("str(a\rb) -m reg ^a.b$")).isTrue();
        assertThat(acl("str(a\nb) -m reg ^a.b$")).isFalse();
    }

    @Test
    void dirAndDomMatchWholeWords() throws ConfigException {
        assertThat(acl("str(/a/images/b?x) -m dir images")).isTrue();
        assertThat(acl("str(/a/images/b?x) -m dir /b/")).isTrue();
        assertThat(acl("str(/a/imagesx/b) -m dir images")).isFalse();
        assertThat(acl("str(www.example.com:80) -m dom example.com")).isTrue();
        assertThat(acl("str(www.example.com) -m dom ample.com")).isFalse();
    }

    @Test
    void integersRangesAndOperators() throws ConfigException {
        assertThat(acl("int(80) 80")).isTrue();
        assertThat(acl("int(80) 1:79 81:")).isFalse();
        assertThat(acl("int(80) lt 81")).isTrue();
        assertThat(acl("int(80) gt 80")).isFalse();
        assertThat(acl("int(80) ge 80")).isTrue();
        assertThat(acl("int(0) -m bool")).isFalse();
        assertThat(acl("int(3) -m bool")).isTrue();
        assertThatThrownBy(() -> acl("int(8) foo")).hasMessage("error detected while parsing ACL 'x' : 'foo' is not a number.");
        assertThatThrownBy(() -> acl("int(8) 10:5")).hasMessage("error detected while parsing ACL 'x' : '10:5' is not a valid number range.");
        // As haproxy 2.6: no '+', a range needs a bound.
        assertThatThrownBy(() -> acl("int(8) +8")).hasMessage("error detected while parsing ACL 'x' : '+8' is not a number.");
        assertThatThrownBy(() -> acl("int(8) :")).hasMessage("error detected while parsing ACL 'x' : ':' is not a valid number range.");
        assertThatThrownBy(() -> acl("int(8) 1-:5")).hasMessage("error detected while parsing ACL 'x' : '1-:5' is not a valid number range.");
        assertThatThrownBy(() -> acl("int(8) 1:-5")).hasMessage("error detected while parsing ACL 'x' : '1:-5' is not a valid number range.");
    }

    /** As haproxy 2.6, whose integer patterns are positive: '-' separates bounds, so "-5" is ":5" (even after "eq"). */
    @Test
    void aDashSeparatesTheBoundsOfARange() throws ConfigException {
        assertThat(acl("int(3) 1-5")).isTrue();
        assertThat(acl("int(7) 1-5")).isFalse();
        assertThat(acl("int(7) 5-")).isTrue();
        assertThat(acl("int(3) 5-")).isFalse();
        assertThat(acl("int(3) eq -5")).isTrue();
        assertThat(acl("int(7) eq -5")).isFalse();
        assertThat(acl("int(-7) eq -5")).isTrue();
        assertThat(acl("int(-7) gt -5")).isTrue();
        assertThat(acl("int(3) lt -5")).isTrue();
        assertThat(acl("int(7) -- -8")).isTrue();
        assertThat(acl("int(9) -- -8")).isFalse();
    }

    /** As haproxy 2.6: the bound after the separator may be negative, which "lt 0" needs (":-1"). */
    @Test
    void theSecondBoundMayBeNegative() throws ConfigException {
        assertThat(acl("int(-1) lt 0")).isTrue();
        assertThat(acl("int(0) lt 0")).isFalse();
        assertThat(acl("int(-1) -m int lt 0")).isTrue();
        assertThat(acl("int(-5) :-5")).isTrue();
        assertThat(acl("int(-4) :-5")).isFalse();
        assertThat(acl("int(0) 0:-")).isTrue();
        assertThat(acl("int(-9223372036854775808) :-9223372036854775808")).isTrue();
        assertThatThrownBy(() -> acl("int(8) 0:-1")).hasMessage("error detected while parsing ACL 'x' : '0:-1' is not a valid number range.");
        assertThatThrownBy(() -> acl("int(8) :--1")).hasMessage("error detected while parsing ACL 'x' : ':--1' is not a valid number range.");
        assertThatThrownBy(() -> acl("int(8) :+1")).hasMessage("error detected while parsing ACL 'x' : ':+1' is not a valid number range.");
        assertThatThrownBy(() -> acl("int(8) gt 9223372036854775807"))
                .hasMessage("error detected while parsing ACL 'x' : '-9223372036854775808:' is not a valid number range.");
    }

    @Test
    void addressesWithMasksAcrossFamilies() throws ConfigException {
        assertThat(acl("ipv4(10.1.2.3) 10.0.0.0/8")).isTrue();
        assertThat(acl("ipv4(10.1.2.3) 10.0.0.0/255.255.0.0")).isFalse();
        assertThat(acl("ipv6(::ffff:10.1.2.3) 10.1.2.3")).isTrue();
        assertThat(acl("ipv4(10.1.2.3) ::ffff:10.0.0.0/104")).isTrue();
        assertThat(acl("ipv6(2001:db8::1) 2001:db8::/32")).isTrue();
        assertThat(acl("ipv6(2001:db9::1) 2001:db8::/32 127.0.0.1")).isFalse();
        assertThat(acl("str(10.0.0.1) -m ip 10.0.0.0/24")).isTrue();
        // As haproxy 2.6: a mask need not be a prefix, and "::a.b.c.d" carries an IPv4 address too.
        assertThat(acl("ipv4(1.2.3.4) 1.0.3.0/255.0.255.0")).isTrue();
        assertThat(acl("ipv4(1.2.0.4) 1.0.3.0/255.0.255.0")).isFalse();
        assertThat(acl("ipv6(::ffff:1.2.3.4) 1.0.3.0/255.0.255.0")).isTrue();
        assertThat(acl("ipv6(::10.1.2.3) 10.0.0.0/8")).isTrue();
        assertThat(acl("ipv6(::1) 0.0.0.1")).isTrue();
        assertThat(acl("ipv4(10.1.2.3) ::10.1.2.3")).isFalse();
        assertThat(acl("ipv4(1.2.3.4) 1.2.3.4/08")).isTrue();
        assertThatThrownBy(() -> acl("ipv4(1.2.3.4) 1.2.3.400"))
                .hasMessage("error detected while parsing ACL 'x' : '1.2.3.400' is not a valid IPv4 or IPv6 address.");
    }

    @Test
    void multiValuedFetchesMatchAnyValue() throws ConfigException {
        assertThat(acl("t.words(a+b+c) b")).isTrue();
        assertThat(acl("t.words(a+b+c) d")).isFalse();
        assertThat(acl("t.words(a+b+c) -m found")).isTrue();
    }

    /** As haproxy 2.6 -c: binary data has no matching method of its own but under the payload keywords. */
    @Test
    void binaryDataNeedsAMatchingMethod() throws ConfigException {
        for (String criterion : new String[] {"bin(616263)", "str(a),sha1", "req.body", "req.payload(0,1)"}) {
            String fetch = criterion.replaceFirst("[(,].*", "");
            assertThatThrownBy(() -> acl(criterion + " 61"))
                    .hasMessage("error detected while parsing ACL 'x' : matching method must be specified first (using '-m') "
                            + "when using a sample fetch of this type ('" + fetch + "').");
        }
        assertThat(acl("bin(616263) -m bin 616263")).isTrue();
        assertThat(acl("str(abc),hex 616263")).isTrue(); // (hex gives a string)
        parser.declare(new AclTable(), line("acl x payload(0,1) 61"));
    }

    /** As haproxy 2.6 (tools/sample-diff.py, "X-B: !!, YQ=="): the values after one the converters fail on are not tried. */
    @Test
    void aValueTheConvertersFailOnEndsTheTries() throws ConfigException {
        assertThat(acl("t.words(YQ==+!!),b64dec -m found")).isTrue();
        assertThat(acl("t.words(!!+YQ==),b64dec -m found")).isFalse();
        assertThat(acl("t.words(!!+YQ==),b64dec -m str a")).isFalse();
        assertThat(acl("t.words(YWJj+YQ==),b64dec -m str a")).isTrue();
        assertThat(acl("t.words(a+YQ==),b64dec -m found")).isFalse();
    }

    /** As haproxy 2.6: an ACL on url_param (urlp, urlp_val) tries every parameter of that name. */
    @Test
    void urlParametersOfTheSameNameAreAllTried() throws ConfigException {
        TestContext ctx = new TestContext();
        ctx.request = new RequestHead(new AsciiString("GET"), new AsciiString("/a?x=1&y=&x=2;x=3"), 11, new HttpHeaders());
        AclTable t = new AclTable();
        parser.declare(t, line("acl two url_param(x) 2"));
        parser.declare(t, line("acl three urlp(x) -m int 3"));
        parser.declare(t, line("acl four url_param(x) 4"));
        parser.declare(t, line("acl y urlp(y) -m len 0"));
        parser.declare(t, line("acl val urlp_val(x) 2"));
        assertThat(t.get("two").test(ctx)).isTrue();
        assertThat(t.get("three").test(ctx)).isTrue();
        assertThat(t.get("four").test(ctx)).isFalse();
        assertThat(t.get("y").test(ctx)).isTrue();
        assertThat(t.get("val").test(ctx)).isTrue();
        assertThat(ctx.text("url_param(x)")).as("the fetch gives the first").isEqualTo("1");
    }

    /**
     * As haproxy 2.6 (pat_match_meth), run with each request method against these ACLs: a method it knows
     * (GET...) only matches itself, "-i" or not; another pattern only matches an unknown method, "-i" counting.
     */
    @Test
    void methodsMatchAsHaproxyKnowsThem() throws ConfigException {
        String[] acls = {"method -i get", "method get", "method -i foo", "method foo", "method GET", "method -i GET",
                "method -i FOO", "method FOO"};
        // Which of the ACLs above match, as haproxy answered for each request method.
        String[][] haproxy = {{"GET", "56"}, {"get", "12"}, {"Get", "1"}, {"FOO", "378"}, {"foo", "347"}, {"Foo", "37"}};
        for (String[] run : haproxy) {
            TestContext ctx = new TestContext();
            ctx.request = new RequestHead(new AsciiString(run[0]), new AsciiString("/"), 11, new HttpHeaders());
            StringBuilder matched = new StringBuilder();
            for (int k = 0; k < acls.length; k++) {
                AclTable t = new AclTable();
                parser.declare(t, line("acl x " + acls[k]));
                if (t.get("x").test(ctx)) {
                    matched.append(k + 1);
                }
            }
            assertThat(matched.toString()).as(run[0]).isEqualTo(run[1]);
        }
        // Other expressions of a method need a "-m" (as values of any type do); "-m str" compares the names.
        assertThatThrownBy(() -> acl("meth(GET) -i get")).hasMessage("error detected while parsing ACL 'x' : matching method must be"
                + " specified first (using '-m') when using a sample fetch of this type ('meth').");
        assertThatThrownBy(() -> acl("var(txn.x)")).hasMessageContaining("of this type ('var')");
        assertThat(acl("meth(GET) -m str -i get")).isTrue();
        assertThat(acl("meth(PATCH) -m str PATCH")).isTrue();
    }

    /**
     * As haproxy 2.6: an ACL on a cookie (cook, cookie, cook_val) or on a header read as an integer or an address
     * (hdr_val, hdr_ip) tries every value, of every header line, unless an occurrence is given.
     */
    @Test
    void cookiesAndHeaderValuesAreAllTried() throws ConfigException {
        HttpHeaders h = new HttpHeaders();
        h.add("Cookie", "b=1; b=2");
        h.add("Cookie", "c=x1; c=1x");
        h.add("X", "5, 7");
        h.add("X", "9");
        h.add("Y", "1.2.3.4, 5.6.7.8");
        TestContext ctx = new TestContext();
        ctx.request = new RequestHead(new AsciiString("GET"), new AsciiString("/"), 11, h);
        String[][] cases = {{"req.cook(b) 1", "true"}, {"cook(b) 1", "true"}, {"cookie(b) 1", "true"}, {"req.cook() 2", "true"},
                {"cook_val(c) 1", "true"}, {"req.cook_val(c) -m int 0", "true"}, {"req.cook(b) 3", "false"},
                {"hdr_val(x) 5", "true"}, {"req.hdr_val(x) 7", "true"}, {"hdr_val(x) 9", "true"}, {"hdr_val(x,1) 5", "true"},
                {"hdr_val(x,1) 7", "false"}, {"hdr_ip(y) 1.2.3.4", "true"}, {"req.hdr_ip(y) 5.6.7.8", "true"},
                {"hdr_ip(y,-1) 1.2.3.4", "false"}};
        for (String[] c : cases) {
            AclTable t = new AclTable();
            parser.declare(t, line("acl x " + c[0]));
            assertThat(t.get("x").test(ctx)).as(c[0]).isEqualTo(Boolean.parseBoolean(c[1]));
        }
        assertThat(ctx.text("req.cook(b)")).as("the fetch gives the last").isEqualTo("2");
        assertThat(ctx.text("hdr_val(x)")).isEqualTo("9");
    }

    @Test
    void patternFilesRespectTheIgnoreCaseInForce(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("p.lst");
        Files.writeString(f, "# comment\n\n   Foo\nbar baz\n");
        assertThat(acl("str(foo) -f " + f)).isFalse();
        assertThat(acl("str(foo) -i -f " + f)).isTrue();
        Path m = dir.resolve("m.map");
        Files.writeString(m, "bar baz\n");
        assertThat(acl("str(bar) -M -f " + m)).isTrue();
        assertThatThrownBy(() -> acl("str(a) -f /nonexistent"))
                .hasMessage("error detected while parsing ACL 'x' : failed to open pattern file </nonexistent>.");
    }

    @Test
    void patternFilesAreReadAsHaproxyReadsThem(@TempDir Path dir) throws Exception {
        // Expected values from haproxy 2.6: only a '#' in the first column starts a comment, a line ends
        // at CR (or NUL), leading blanks go and trailing ones stay.
        Path f = dir.resolve("p.lst");
        Files.writeString(f, "  #x\nab  \nc\rd\n\tz\n#y\n");
        assertThat(acl("str(#x) -f " + f)).isTrue();
        assertThat(acl("str(#y) -f " + f)).isFalse();
        assertThat(acl("str(ab) -f " + f)).isFalse();
        assertThat(parser.term(List.of("str('ab  ')", "-f", f.toString()), null).test(null)).isTrue();
        assertThat(acl("str(c) -f " + f)).isTrue();
        assertThat(acl("str(z) -f " + f)).isTrue();
    }

    @Test
    void aFileIsReadOnceAndIsEitherAPatternFileOrAMapFile(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("p.lst");
        Files.writeString(f, "a\n");
        assertThat(acl("str(a) -f " + f)).isTrue();
        Files.writeString(f, "b\n"); // not read again
        assertThat(acl("str(a) -f " + f)).isTrue();
        // Messages from haproxy 2.6, its wording included.
        assertThatThrownBy(() -> acl("str(a) -M -f " + f)).hasMessage("error detected while parsing ACL 'x' : The file \"" + f
                + "\" is already used as one column file and cannot be used by as two column file..");
    }

    @Test
    void invalidPatternsOfFilesNameTheirLine(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("p.lst");
        Files.writeString(f, "5\nabc\n");
        // Message from haproxy 2.6.
        assertThatThrownBy(() -> acl("int(5) -f " + f))
                .hasMessage("error detected while parsing ACL 'x' : 'abc' is not a number at line 2 of file '" + f + "'.");
    }

    @Test
    void flagsAndErrors() {
        assertThatThrownBy(() -> acl("str(a) -x a"))
                .hasMessage("error detected while parsing ACL 'x' : '-x' is not a valid ACL option. Please use '--' before any pattern beginning with a '-'.");
        assertThatThrownBy(() -> acl("str(a) -m nosuch a"))
                .hasMessage("error detected while parsing ACL 'x' : unknown matching method 'nosuch' when parsing ACL expression.");
        assertThatThrownBy(() -> acl("nosuch"))
                .hasMessage("error detected while parsing ACL 'x' : unknown fetch method 'nosuch' in ACL expression 'nosuch'.");
        assertThatThrownBy(() -> parser.declare(table, line("acl 1@a str(a) a")))
                .hasMessage("character '@' is not permitted in acl name '1@a'.");
    }

    /** Only HAProxy 2.6's derived keywords (its -dKacl): req.hdr_beg is no ACL keyword there, nor ssl_fc_sni_beg. */
    @Test
    void derivedKeywordsAreHaproxys() throws ConfigException {
        for (String kw : new String[] {"hdr_beg(host)", "urlp_sub(q)", "ssl_fc_sni_end"}) {
            parser.declare(new AclTable(), line("acl x " + kw + " a"));
        }
        for (String kw : new String[] {"req.hdr_beg(x)", "res.cook_sub(x)", "url_param_beg(x)", "req.ssl_sni_end", "ssl_fc_sni_beg"}) {
            // Message from haproxy 2.6.
            assertThatThrownBy(() -> acl(kw + " a")).hasMessage("error detected while parsing ACL 'x' : unknown fetch method '"
                    + kw.replaceFirst("\\(.*", "") + "' in ACL expression '" + kw + "'.");
        }
        assertThat(parser.keywords()).extracting(AclParser.Keyword::name).contains("base_beg", "urlp_sub", "ssl_fc_sni_reg")
                .doesNotContain("req.hdr_beg", "ssl_fc_sni_beg").hasSize(58);
    }

    @Test
    void conditionsCombineNamedAnonymousAndPredefinedAcls() throws ConfigException {
        parser.declare(table, line("acl yes always_true"));
        parser.declare(table, line("acl no always_false"));
        parser.declare(table, line("acl no str(a) a")); // a second line is an alternative
        assertThat(cond("if no")).isTrue();
        assertThat(cond("if yes !no")).isFalse();
        assertThat(cond("if FALSE || yes")).isTrue();
        assertThat(cond("if FALSE or FALSE")).isFalse();
        assertThat(cond("unless { str(a) b }")).isTrue();
        assertThat(cond("if { str(a) a } TRUE")).isTrue();
        assertThat(cond("if TRUE !{ str(a) a }")).isFalse();
        assertThatThrownBy(() -> cond("if nosuch")).hasMessage("no such ACL : 'nosuch'");
        assertThatThrownBy(() -> cond("if { str(a) a")).hasMessage("missing closing '}' in condition");
    }

    private boolean cond(String text) throws ConfigException {
        return parser.condition(line(text), 0, table, null).test(null);
    }
}
