package io.fulcrum.sample;

/** Expected values and messages come from haproxy 2.6.12, unless a comment says otherwise. */
class EncodingConvertersTest extends ConverterTableTest {

    @Override
    String results() {
        return """
            str(aGVsbG8=),b64dec => bin:68656C6C6F
            str(aGVsbG8),b64dec => none
            str(aGVsbA==),b64dec => bin:68656C6C
            str(aGVsbA=),b64dec => none
            str(aGVsbA),b64dec => none
            str(aGVs),b64dec => bin:68656C
            str(),b64dec => bin:
            str(====),b64dec => none
            str(A===),b64dec => bin:
            str(AA==),b64dec => bin:00
            str(AAA=),b64dec => bin:0000
            str(AB==),b64dec => bin:00
            str(AAAA====),b64dec => none
            str(aGV=bG8=),b64dec => bin:68656C6F
            str(aGVs bG8=),b64dec => none
            str(+/+/),b64dec => bin:FBFFBF
            str(-_-_),b64dec => none
            str(-_-_),ub64dec => bin:FBFFBF
            str(+/+/),ub64dec => none
            str(aGVsbG8),ub64dec => bin:68656C6C6F
            str(aGVsbG8=),ub64dec => bin:68656C6C6F3F
            str(aGVsbA),ub64dec => bin:68656C6C
            str(aGVsbA==),ub64dec => bin:68656C6C0FFF
            str(aGVsbA=),ub64dec => bin:68656C6C0F
            str(aGVsb),ub64dec => none
            str(a),ub64dec => none
            str(),ub64dec => bin:
            str(hello),base64 => str:aGVsbG8=
            str(hell),base64 => str:aGVsbA==
            str(hel),base64 => str:aGVs
            str(),base64 => str:
            int(1),base64 => str:AAAAAAAAAAE=
            str(hello),ub64enc => str:aGVsbG8
            str(hell),ub64enc => str:aGVsbA
            str(),ub64enc => str:
            str(aGVsbG8=),b64dec,ub64enc => str:aGVsbG8
            str(+/+/),b64dec,ub64enc => str:-_-_
            str(+/+/),b64dec,base64 => str:+/+/
            str(aGVsbG8=),b64dec,hex => str:68656C6C6F
            str(abc),hex => str:616263
            str(),hex => str:
            int(255),hex => str:00000000000000FF
            str(ff),hex2i => sint:255
            str(FF),hex2i => sint:255
            str(0x10),hex2i => none
            str(1g),hex2i => none
            str(g1),hex2i => none
            str(),hex2i => sint:0
            str(123),hex2i => sint:291
            str(ffffffffffffffff),hex2i => sint:-1
            str(7fffffffffffffff),hex2i => sint:9223372036854775807
            str(1ffffffffffffffff),hex2i => sint:-1
            str(-1),hex2i => none
            str( 1),hex2i => none
            int(16),hex2i => sint:22
            int(5),htonl => bin:00000005
            int(-1),htonl => bin:FFFFFFFF
            int(4294967297),htonl => bin:00000001
            str(65),htonl => bin:00000041
            str(A=A=),b64dec => none
            str(AAA=AAAA),b64dec => bin:0000000000
            str(AA=A),b64dec => none
            str(=AAA),b64dec => none
            str(AAAA=AAA),b64dec => none
            str(aGVsbG8_),ub64dec => bin:68656C6C6F3F
            str(aG=sbG8),ub64dec => bin:686FEC6C6F
            str(aGVsbG8==),ub64dec => none
            str(a*bc),ub64dec => none
            str(a*bc),b64dec => none
            str(AA),ub64dec => bin:00
            str(AAA),ub64dec => bin:0000
            str(abc),url_dec => str:abc
            str(a%20b),url_dec => str:a b
            str(a+b),url_dec => str:a+b
            str(a+b?c+d),url_dec => str:a+b?c d
            str(a+b?c+d),url_dec(1) => str:a b?c d
            str(a+b),url_dec(1) => str:a b
            str(a+b),url_dec(0) => str:a+b
            str(a%2),url_dec => none
            str(a%zz),url_dec => none
            str(a%),url_dec => none
            str(a%00b),url_dec => str:a\\x00b
            str(a%00b),url_dec,length => sint:3
            str(%41%42),url_dec => str:AB
            str(%e9),url_dec => str:\\xE9
            str(a%2Bb),url_dec(1) => str:a+b
            str(a?b%3fc+d),url_dec => str:a?b?c d
            str(a%3Fb+c),url_dec => str:a?b+c
            str(),url_dec => str:
            str(abc),url_dec() => str:abc
            str(a b),url_enc => str:a%20b
            str('a b&c=d/e?f#g'),url_enc => str:a%20b%26c%3Dd%2Fe%3Ff%23g
            str(azAZ09-_.~),url_enc => str:azAZ09-_.~
            str('!*()'),url_enc => str:%21%2A%28%29
            str('$%^[]{}|;:@,<>"`+'),url_enc => str:%24%25%5E%5B%5D%7B%7D%7C%3B%3A%40%2C%3C%3E%22%60%2B
            str(é),url_enc => str:%C3%A9
            str(a),url_enc(query) => str:a
            str(a\\tb\\r\\n),url_enc => str:a%09b%0D%0A
            str('\\'),url_enc => str:%5C
            ipv4(1.2.3.4),ipmask(24) => ipv4:1.2.3.0
            str(1.2.3.4),ipmask(24) => ipv4:1.2.3.0
            int(16909060),ipmask(16) => ipv4:1.2.0.0
            ipv6(::ffff:1.2.3.4),ipmask(24,64) => ipv4:1.2.3.0
            ipv6(2001:db8::1),ipmask(24,32) => ipv6:2001:db8::
            ipv6(2001:db8::1),ipmask(24) => none
            ipv6(::ffff:1.2.3.4),ipmask(24) => ipv4:1.2.3.0
            ipv6(::1.2.3.4),ipmask(24,64) => ipv6:::
            ipv6(2002:102:304::1),ipmask(24,64) => ipv6:2002:102:304::
            str(::ffff:1.2.3.4),ipmask(24,64) => ipv4:1.2.3.0
            ipv6(2001:db8::1),ipmask(24,0) => ipv6:::
            ipv6(2001:db8::1),ipmask(24,::) => ipv6:::
            ipv6(2001:db8::1),ipmask(24,ffff::) => ipv6:2001::
            ipv6(2001:db8::1),ipmask(24,ffff:ff00::) => ipv6:2001:d00::
            ipv6(2001:db8::1),ipmask(24,128) => ipv6:2001:db8::1
            ipv4(1.2.3.4),ipmask(0) => ipv4:0.0.0.0
            ipv4(1.2.3.4),ipmask(255.255.0.0) => ipv4:1.2.0.0
            ipv4(1.2.3.4),ipmask(255.0.255.0) => ipv4:1.0.3.0
            ipv4(1.2.3.4),ipmask(32) => ipv4:1.2.3.4
            ipv6(2001:db8::1),ipmask(24,) => none
            ipv4(1.2.3.4),ipmask(24,) => ipv4:1.2.3.0
            str(abc),ipmask(24) => none
            str(AQIDBAUGBw==),b64dec,be2dec(:,2) => str:258:772:1286:7
            str(AQIDBAUGBw==),b64dec,be2dec(-,2,1) => str:258-772-1286
            str(AQIDBAUGBw==),b64dec,be2dec(,2,1) => str:2587721286
            str(fwAAAQ==),b64dec,be2dec(.,1) => str:127.0.0.1
            str(AQIDBAUGBw==),b64dec,be2hex => str:01020304050607
            str(AQIDBAUGBw==),b64dec,be2hex(:,2) => str:0102:0304:0506:07
            str(AQIDBAUGBw==),b64dec,be2hex(--,2,1) => str:0102--0304--0506
            str(AQIDBAUGBwg=),b64dec,be2hex(,3,1) => str:010203040506
            str(//////////8=),b64dec,be2dec(:,8) => str:18446744073709551615
            str(//////////8=),b64dec,be2dec(:,8,1) => str:18446744073709551615
            str(AQIDBAUGBw==),b64dec,be2hex(:,9) => str:01020304050607
            str(AQIDBAUGBw==),b64dec,be2hex(:,9,1) => str:
            str(AQIDBAUGBw==),b64dec,be2hex(,-1) => str:01020304050607
            str(AQIDBAUGBw==),b64dec,be2hex(,2,1) => str:010203040506
            str(AQIDBAUGBw==),b64dec,be2hex(,0,0) => str:01020304050607
            str(),be2dec(:,2) => str:
            str(),be2hex(:,2) => str:
            str(a),be2dec(:,2) => str:97
            str(a),be2dec(:,2,1) => str:
            str(a),be2hex(:,2,1) => str:
            str(ab),be2dec(:,2,1) => str:24930
            int(1),be2dec(:,4) => str:0:1
            str(AQIDBAUGBw==),b64dec,be2dec(:,3,0) => str:66051:263430:7
            str(AQIDBAUGBw==),b64dec,be2dec(:,3) => str:66051:263430:7
            str(abc),bytes(1,) => str:
            str(AQIDBAUGBw==),b64dec,be2hex(,2) => str:01020304050607
            ipv6(2001:db8::1),ipmask(24,) => none
            """;
    }

    @Override
    String errors() {
        return """
            str(a),be2hex(:) => invalid args in converter 'be2hex' : chunk_size needs to be positive (0)
            str(a),be2hex(:,0) => invalid args in converter 'be2hex' : chunk_size needs to be positive (0)
            str(a),be2hex(:,-1) => invalid args in converter 'be2hex' : chunk_size needs to be positive (-1)
            str(a),be2hex(,,1) => invalid arg 2 in converter 'be2hex' : expected ')' before ',1)'
            str(a),be2hex(,,2) => invalid arg 2 in converter 'be2hex' : expected ')' before ',2)'
            str(a),be2hex(:,1,-1) => invalid args in converter 'be2hex' : Unsupported truncate value (-1)
            str(a),be2hex(,0,1) => invalid args in converter 'be2hex' : chunk_size needs to be positive (0)
            str(a),be2dec(:,0) => invalid args in converter 'be2dec' : chunk_size out of [1..8] range (0)
            str(a),be2dec(,0) => invalid args in converter 'be2dec' : chunk_size out of [1..8] range (0)
            str(a),be2dec(:,-1) => invalid args in converter 'be2dec' : chunk_size out of [1..8] range (-1)
            str(a),be2dec(:,9) => invalid args in converter 'be2dec' : chunk_size out of [1..8] range (9)
            str(a),be2dec(:,1,2) => invalid args in converter 'be2dec' : Unsupported truncate value (2)
            str(a),be2dec(:,1,-1) => invalid args in converter 'be2dec' : Unsupported truncate value (-1)
            str(a),be2dec(:) => invalid args in converter 'be2dec' : chunk_size out of [1..8] range (0)
            str(a),be2dec => invalid args in converter 'be2dec' : chunk_size out of [1..8] range (0)
            str(a),be2hex(:,x) => invalid arg 2 in converter 'be2hex' : failed to parse 'x' as type 'integer' at position 2
            str(a),url_enc(x) => invalid args in converter 'url_enc' : Unexpected encode type. Allowed value is 'query'
            str(a),url_dec(x) => invalid arg 1 in converter 'url_dec' : failed to parse 'x' as type 'integer' at position 1
            str(a),ipmask(24,129) => invalid arg 2 in converter 'ipmask' : failed to parse '129' as type 'IPv6 mask' at position 2
            str(a),ipmask(33) => invalid arg 1 in converter 'ipmask' : failed to parse '33' as type 'IPv4 mask' at position 1
            str(a),ipmask(24,x) => invalid arg 2 in converter 'ipmask' : failed to parse 'x' as type 'IPv6 mask' at position 2
            str(a),ipmask(1.2.3) => invalid arg 1 in converter 'ipmask' : failed to parse '1.2.3' as type 'IPv4 mask' at position 1
            str(a),ipmask => invalid arg 1 in converter 'ipmask' : expected type 'IPv4 mask' at position 1, but got nothing
            str(a),ipmask(,24) => invalid arg 1 in converter 'ipmask' : expected type 'IPv4 mask' at position 1, but got nothing
            bool(1),ipmask(24) => converter 'ipmask' cannot be applied
            str(a),hex(1) => invalid arg 1 in converter 'hex' : expected ')' before '1)'
            str(a),b64dec(1) => invalid arg 1 in converter 'b64dec' : expected ')' before '1)'
            """;
    }
}
