package io.fulcrum.sample;

/** Expected values and messages come from haproxy 2.6.12, unless a comment says otherwise. */
class StringConvertersTest extends ConverterTableTest {

    @Override
    String results() {
        return """
            str(ab),concat(x,proc.sabc,y) => str:abxabcy
            str(ab),concat(x,proc.none,y) => str:abxy
            str(ab),concat(,proc.i5) => str:ab5
            str(ab),concat(,proc.ip6) => str:ab::1
            str(ab),concat(,proc.bin) => str:ab\\x86\\xF7\\xE47\\xFA\\xA5\\xA7\\xFC\\xE1]\\x1D\\xDC\\xB9\\xEA\\xEA\\xEA7vg\\xB8
            str(ab),concat(,proc.b) => str:ab1
            str(ab),concat => str:ab
            int(12),concat(x) => str:12x
            str(ab),add_item(",",proc.sabc,"(s)") => str:ab,abc(s)
            str(),add_item(",",proc.sabc,"(s)") => str:abc(s)
            str(),add_item(",",proc.none,"(s)") => str:(s)
            str(ab),add_item(",",proc.none,"(s)") => str:ab,(s)
            str(ab),add_item(",",proc.none) => str:ab
            str(ab),add_item(",",proc.empty) => str:ab
            str(ab),add_item(",",proc.empty,x) => str:ab,x
            str(ab),add_item(",",,x) => str:ab,x
            str(),add_item(",",,x) => str:x
            str(ab),add_item(",",proc.i5) => str:ab,5
            str(f1_f2_f3__f5),field(5,_) => str:f5
            str(f1_f2_f3__f5),field(2,_,0) => str:f2_f3__f5
            str(f1_f2_f3__f5),field(2,_,2) => str:f2_f3
            str(f1_f2_f3__f5),field(-2,_,3) => str:f2_f3_
            str(f1_f2_f3__f5),field(-3,_,0) => str:f1_f2_f3
            str(f1_f2_f3__f5),field(4,_) => str:
            str(f1_f2_f3__f5),field(6,_) => none
            str(f1_f2_f3__f5),field(-5,_) => str:f1
            str(f1_f2_f3__f5),field(-6,_) => none
            str(f1_f2_f3__f5),field(1,_) => str:f1
            str(f1_f2_f3__f5),field(-1,_) => str:f5
            str(a:b;c),field(2,:;) => str:b
            str(a:b;c),field(3,:;) => str:c
            str(_a_),field(1,_) => str:
            str(_a_),field(3,_) => str:
            str(_a_),field(3,_,5) => str:
            str(_a_),field(-1,_) => str:
            str(_a_),field(-1,_,0) => str:_a_
            str(a_b_c),field(-1,_,2) => str:b_c
            str(a_b_c),field(-3,_,2) => str:a
            str(a_b_c),field(-4,_,2) => none
            str(a_b_c),field(4,_,2) => none
            str(),field(1,_) => str:
            str(),field(-1,_) => str:
            str(f1_f2_f3__f5),word(4,_) => str:f5
            str(f1_f2_f3__f5),word(2,_,0) => str:f2_f3__f5
            str(f1_f2_f3__f5),word(3,_,2) => str:f3__f5
            str(f1_f2_f3__f5),word(-2,_,3) => str:f1_f2_f3
            str(f1_f2_f3__f5),word(-3,_,0) => str:f1_f2
            str(/f1/f2/f3/f4),word(1,/) => str:f1
            str(/f1/f2/f3/f4/),word(-1,/) => str:f4
            str(/f1/f2/f3/f4/),word(5,/) => str:
            str(//a//b//),word(2,/,0) => str:b//
            str(//a//b//),word(-2,/,0) => str://a
            str(//a//b//),word(1,/,2) => str:a//b
            str(//a//b//),word(-1,/,2) => str:a//b
            str(//a//b//),word(-1,/,3) => str://a//b
            str(//a//b//),word(3,/) => str:
            str(////),word(1,/) => str:
            str(),word(1,/) => str:
            str(a b),word(2,' ') => str:b
            str(xxabcxx),ltrim(x) => str:abcxx
            str(xxabcxx),rtrim(x) => str:xxabc
            str(xyabcyx),ltrim(yx) => str:abcyx
            str(xyabcyx),rtrim(xy) => str:xyabc
            str(xxxx),ltrim(x) => str:
            str(xxxx),rtrim(x) => str:
            str(abc),ltrim() => str:abc
            str(abc),ltrim => str:abc
            int(1123),ltrim(1) => str:23
            str(ab\\r\\ncd),cut_crlf => str:ab
            str(//a//b//),word(1,/,3) => str:a//b//
            str(//a//b//),word(-5,/) => str:
            str(//a//b//),word(1,/,-1) => str:a//b//
            str(//a//b//),word(-1,/,-1) => str://a//b
            str(a_b_c),field(1,_,-1) => str:a_b_c
            str(a_b_c),field(-1,_,-1) => str:a_b_c
            str(a_b_c),field(2,_,-2) => str:b_c
            str(/////foo/bar//baz/),regsub('/+','/','g') => str:/foo/bar/baz/
            str(/////foo/bar//baz/),regsub('/+','/') => str:/foo/bar//baz/
            str(abc),regsub('x*','-','g') => str:-a-b-c-
            str(ab12[x]),regsub([[:digit:]]+,N,g) => str:abN[x]
            str(a[b),regsub([[],-) => str:a-b
            str(a&&b),regsub([&]+,+) => str:a+b
            str(abc),regsub('x*','-') => str:-abc
            str(abc),regsub('$','-','g') => str:abc--
            str(abc),regsub('^','-','g') => str:-abc
            str(abc),regsub('b*','-','g') => str:-a--c-
            str(foo123bar45),regsub("(foo|bar)([0-9]+)?","\\2\\1",g) => str:123foo45bar
            str(FOO123),regsub("(foo|bar)([0-9]+)?","\\2\\1",i) => str:123FOO
            str(FOO123),regsub("(foo|bar)([0-9]+)?","\\2\\1",ig) => str:123FOO
            str(FOO123),regsub("(foo|bar)([0-9]+)?","\\2\\1") => str:FOO123
            str(abc),regsub(b,\\0\\0) => str:abbc
            str(abc),regsub(b,\\\\\\\\) => str:a\\x5Cc
            str(abc),regsub(b,\\9) => str:ac
            str(abcbd),regsub(b,&) => str:a&cbd
            str(aaa),regsub(a,bb,g) => str:bbbbbb
            str(aXbXc),regsub(x,-,gi) => str:a-b-c
            str(héllo),regsub(.,x,g) => str:xxxxxx
            str(abc),strcmp(proc.abd) => sint:-1
            str(abd),strcmp(proc.abd) => sint:0
            str(abe),strcmp(proc.abd) => sint:1
            str(ab),strcmp(proc.abd) => sint:-1
            str(abdd),strcmp(proc.abd) => sint:1
            str(abdddd),strcmp(proc.abd) => sint:1
            str(a),strcmp(proc.abd) => sint:-1
            str(),strcmp(proc.abd) => sint:-1
            str(a),strcmp(proc.i5) => sint:44
            str(5),strcmp(proc.i5) => sint:0
            str(5),strcmp(proc.none) => none
            str(zzz),strcmp(proc.abd) => sint:25
            str(),strcmp(proc.empty) => sint:0
            str(abc),secure_memcmp(proc.sabc) => bool:1
            str(abd),secure_memcmp(proc.sabc) => bool:0
            str(ab),secure_memcmp(proc.sabc) => bool:0
            str(5),secure_memcmp(proc.i5) => bool:0
            int(5),secure_memcmp(proc.i5) => bool:1
            str(a),secure_memcmp(proc.none) => none
            bool(1),iif(yes,no) => str:yes
            bool(0),iif(yes,no) => str:no
            int(7),iif(yes,no) => str:yes
            str(1),iif(yes,no) => str:yes
            str(abc),iif(yes,no) => str:no
            str(),iif(yes,no) => none
            str(0),iif(yes,no) => str:no
            int(0),iif(,no) => str:no
            str(abc),bytes(1) => str:bc
            str(abc),bytes(1,1) => str:b
            str(abc),bytes(0,5) => str:abc
            str(abc),bytes(3) => str:
            str(abc),bytes(4) => str:
            str(abc),bytes(-1) => str:
            str(abc),bytes(1,0) => str:
            str(abc),bytes(1,-1) => str:bc
            str(abc),bytes(2,-2) => str:c
            int(258),bytes(6) => bin:0102
            ipv4(1.2.3.4),bytes(1,2) => bin:0203
            ipv6(::1),bytes(14) => bin:0001
            str(www.example.com:8080),host_only => str:www.example.com
            str(WWW.Example.com),host_only => str:www.example.com
            str([::1]:80),host_only => str:[::1]
            str([::1]),host_only => str:[::1]
            str(127.0.0.1:80),host_only => str:127.0.0.1
            str(example.com:80),port_only => sint:80
            str(example.com),port_only => sint:0
            str([::1]:443),port_only => sint:443
            str([::1]),port_only => sint:0
            str(example.com:),port_only => sint:0
            str(example.com:abc),port_only => sint:5451
            str(example.com:99999),port_only => sint:99999
            str(),host_only => str:
            str(),port_only => sint:0
            str(:80),host_only => str:
            str(a:b:c),host_only => str:a:b
            str(a:b:c),port_only => sint:51
            str(abc),regsub(z,'\\x'),length => sint:3
            str(abb),regsub('b*','-','g') => str:-a--
            str(abcabc),regsub('(a)|(z)','[\\1\\2]','g') => str:[a]bc[a]bc
            str(abc),regsub('(b)','\\1\\1\\10') => str:abbb0c
            str(abc),regsub(b,\\n) => str:a\\x0Ac
            str(abc),bytes(-1,1) => str:
            str(abc),bytes(-5,2) => str:
            str(::1),host_only => str::
            str(::1),port_only => sint:1
            str([::1),host_only => str:[:
            str([::1),port_only => sint:1
            str(a]:80),host_only => str:a]
            str([a:b]c:80),host_only => str:[a:b]c
            str([a:b]c:80),port_only => sint:80
            str(x:99999999999),port_only => sint:1215752191
            str(x:4294967297),port_only => sint:1
            str(x:-5),port_only => sint:4294967271
            str(x:+5),port_only => sint:4294967251
            str(ÀB:1),host_only => str:\\xC3\\x80b
            str(a),concat(proc.sabc) => str:aproc.sabc
            str(a),concat('',proc.sabc,) => str:aabc
            str(a),add_item(proc.sabc,,x) => str:aproc.sabcx
            str('fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5'),language(es;fr;en) => str:fr
            str('fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5'),language(es;fr-CH;en) => str:fr-CH
            str('fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5'),language(de;en) => str:en
            str('fr-CH'),language(fr) => str:fr
            str('fr-CH'),language(fr-ch) => none
            str('fr'),language(fr-CH) => none
            str('da, en-gb;q=0.8, en;q=0.7'),language(en;da) => str:da
            str('en;q=0.7, da;q=0.7'),language(en;da) => str:en
            str('da;q=0.7, en;q=0.7'),language(en;da) => str:da
            str('en;q=0, da;q=0.1'),language(en;da) => none
            str('en;q=0'),language(en;da) => none
            str('en;q=0'),language(en;da,xx) => str:xx
            str('it'),language(en;da,xx) => str:xx
            str('it'),language(en;da) => none
            str('it'),language(en;da,) => none
            str(''),language(en;da,xx) => str:xx
            str('en;q=1.5'),language(en) => str:en
            str('en;q=abc, da'),language(en;da) => str:en
            str('en ;q=0.5, da'),language(en;da) => str:da
            str('en;q=0.5 , da;q=0.6'),language(en;da) => str:da
            str('en;level=1;q=0.5, da;q=0.4'),language(en;da) => str:en
            str('en;q=0.500, da;q=0.5001'),language(en;da) => str:en
            str('EN'),language(en) => none
            str('en-US-x'),language(en) => str:en
            str('*'),language(en;da) => none
            str(' en'),language(en) => str:en
            str('en,,da'),language(da) => str:da
            str('en;q=.5, da;q=0.4'),language(en;da) => str:en
            str('en;q=0.55, da;q=0.5'),language(en;da) => str:en
            str('en;q=0.5x, da;q=0.4'),language(en;da) => str:en
            str('en;q=1.0, da;q=0.999'),language(en;da) => str:en
            str('en;q=1.001, da;q=1'),language(en;da) => str:en
            str('en;q=0.9999, da;q=1'),language(en;da) => str:da
            str('en'),language() => none
            str('en'),language(;;en) => str:en
            str('da;q=0.1'),language(en;da) => str:da
            str('da;q=0.5'),language(en;da) => str:da
            str('da;q=0.01'),language(en;da) => str:da
            str('da;q=0.001'),language(en;da) => str:da
            str('en;q=0, da'),language(en;da) => none
            str('en;q=0.5, da;q=0.1'),language(en;da) => str:en
            str('da;q=0.1, en;q=0.5'),language(en;da) => str:en
            str('da;q=0.2, en;q=0.1'),language(en;da) => str:da
            str('da;q=0.3, en;q=0.2'),language(en;da) => str:da
            str('da;q=0.2, en;q=0.3'),language(en;da) => str:en
            str('da;q=0.1, en'),language(en;da) => str:en
            str('da;q=1'),language(en;da) => str:da
            str('da;q=0.9'),language(en;da) => str:da
            str('da;q=0.09'),language(en;da) => str:da
            str('da;q=0.19'),language(en;da) => str:da
            str('da;q=0.2'),language(en;da) => str:da
            str('da;q=0.3'),language(en;da) => str:da
            str('da;q=0.4'),language(en;da) => str:da
            str('da; q = 0.4'),language(en;da) => str:da
            str('it;q=0.9, da;q=0.1'),language(en;da) => str:da
            str('da;q=0.1'),language(da) => str:da
            str('da;q=0.1'),language(en;da;xx) => str:da
            str('da;q=0.1'),language(xx;da) => str:da
            str('da;q=0.1'),language(da;xx) => str:da
            str('it;q=0, da'),language(en;da) => str:da
            str('en;q=0.0, da'),language(en;da) => str:da
            str('da, en;q=0'),language(en;da) => str:da
            str('da;q=0.5, en;q=0'),language(en;da) => str:da
            str('en;q=0,da'),language(en;da) => none
            str('en;q=0 , da'),language(en;da) => str:da
            str('en;q=0x, da'),language(en;da) => str:da
            str('en;q=0.5, da'),language(en;da) => str:da
            str('en;q=1, da'),language(en;da) => str:en
            str('en;q=0.5 x, da'),language(en;da) => str:da
            str('en;q=1 x, da'),language(en;da) => str:en
            str('en;q=0.000, da'),language(en;da) => str:da
            str('en;q=0.001, da'),language(en;da) => str:da
            str('en;q=1.000, da'),language(en;da) => str:en
            str('en;q=, da'),language(en;da) => str:en
            str('en;q=2, da'),language(en;da) => str:en
            str('en;q=0.5;x=1, da'),language(en;da) => str:da
            str('en;q=.5, da'),language(en;da) => str:en
            # haproxy 2.6.12 writes past the result for a truncated "\\x" escape in the substitution: no result here.
            str(abc),regsub(b,'\\x') => none
            str(abc),regsub(b,x\\) => none
            str(ab),sha1,concat(x) => str:\\xDA#aN\\x02F\\x9A\\x0D|{\\xD1\\xBD\\xAB\\x5C\\x9CGK\\x19\\x04\\xDCx
            str(a),sha1,secure_memcmp(proc.bin) => bool:1
            str(ab),sha1,bytes(18) => bin:04DC
            """;
    }

    @Override
    String errors() {
        return """
            str(a),concat(a,foo) => invalid args in converter 'concat' : failed to register variable name 'foo'
            str(a),concat(a,txn.) => invalid args in converter 'concat' : failed to register variable name 'txn.'
            str(a),concat(a,b,c,d) => invalid arg 3 in converter 'concat' : expected ')' before ',d)'
            str(a),strcmp => invalid args in converter 'strcmp' : missing variable name
            str(a),strcmp(foo) => invalid args in converter 'strcmp' : failed to register variable name 'foo'
            str(a),secure_memcmp(txn.) => invalid args in converter 'secure_memcmp' : failed to register variable name 'txn.'
            str(a),secure_memcmp() => invalid args in converter 'secure_memcmp' : missing variable name
            str(a),add_item(a,foo) => invalid args in converter 'add_item' : failed to register variable name 'foo'
            str(a),add_item(a,) => invalid args in converter 'add_item' : one of the optional arguments has to be nonempty
            str(a),add_item => invalid arg 2 in converter 'add_item' : missing arguments (got 1/2), type 'string' expected
            str(a),field(0,_) => invalid args in converter 'field' : Unexpected value 0 for index
            str(a),field(1,) => invalid args in converter 'field' : Empty separators list
            str(a),field => invalid arg 1 in converter 'field' : expected type 'integer' at position 1, but got nothing
            str(a),field(1) => invalid arg 2 in converter 'field' : missing arguments (got 1/2), type 'string' expected
            str(a),field(x,_) => invalid arg 1 in converter 'field' : failed to parse 'x' as type 'integer' at position 1
            str(a),word(0,_) => invalid args in converter 'word' : Unexpected value 0 for index
            str(a),word(1,) => invalid args in converter 'word' : Empty separators list
            str(a),regsub => invalid arg 2 in converter 'regsub' : missing arguments (got 1/2), type 'string' expected
            str(a),regsub(a) => invalid arg 2 in converter 'regsub' : missing arguments (got 1/2), type 'string' expected
            str(a),regsub( => invalid arg 2 in converter 'regsub' : missing arguments (got 1/2), type 'string' expected
            str(a),regsub(a => invalid arg 2 in converter 'regsub' : missing arguments (got 1/2), type 'string' expected
            str(a),field(1, => invalid arg 2 in converter 'field' : expected ')'
            str(a),regsub(b,c,x) => invalid args in converter 'regsub' : invalid regex flag 'x', only 'i' and 'g' are supported
            str(a),regsub(b,c,G) => invalid args in converter 'regsub' : invalid regex flag 'G', only 'i' and 'g' are supported
            str(a),ltrim(a,b) => invalid arg 2 in converter 'ltrim' : expected ')' before ',b)'
            int(1),iif => invalid arg 2 in converter 'iif' : missing arguments (got 1/2), type 'string' expected
            int(1),iif(a) => invalid arg 2 in converter 'iif' : missing arguments (got 1/2), type 'string' expected
            ipv4(1.2.3.4),iif(a,b) => converter 'iif' cannot be applied
            str(a),bytes => invalid arg 1 in converter 'bytes' : expected type 'integer' at position 1, but got nothing
            str(a),bytes() => invalid arg 1 in converter 'bytes' : expected type 'integer' at position 1, but got nothing
            str(a),bytes(x) => invalid arg 1 in converter 'bytes' : failed to parse 'x' as type 'integer' at position 1
            str(a),bytes(1,2,3) => invalid arg 2 in converter 'bytes' : expected ')' before ',3)'
            str(a),host_only(1) => invalid arg 1 in converter 'host_only' : expected ')' before '1)'
            str(a),language(a,b,c) => invalid arg 2 in converter 'language' : expected ')' before ',c)'
            str(a),concat(a => invalid arg 2 in converter 'concat' : expected ')'
            str(a),concat(a,b => invalid arg 2 in converter 'concat' : expected ')'
            str(a),concat(a,b,c => invalid arg 3 in converter 'concat' : expected ')'
            str(a),bytes(1,2 => invalid arg 2 in converter 'bytes' : expected ')'
            str(a),lower( => invalid arg 1 in converter 'lower' : expected ')'
            str(a),lower(x,y) => invalid arg 1 in converter 'lower' : expected ')' before 'x,y)'
            str(a),concat(a,b,c,d,e) => invalid arg 3 in converter 'concat' : expected ')' before ',d,e)'
            str(a),iif(a,b,c) => invalid arg 2 in converter 'iif' : expected ')' before ',c)'
            # haproxy 2.6.12 reports these once the configuration is read (ArgResolutionTest), here without where the expression is.
            str(a),regsub(,c) => missing regex in arg 1 of conversion keyword 'regsub' for sample fetch keyword 'str'.
            str(a),regsub((b,c) => error in regex '(b' in arg 1 of conversion keyword 'regsub' for sample fetch keyword 'str' : regex '(b' is invalid (error=missing closing parenthesis, erroffset=2).
            str(a),regsub(*b,c,x) => invalid args in converter 'regsub' : invalid regex flag 'x', only 'i' and 'g' are supported
            """;
    }
}
