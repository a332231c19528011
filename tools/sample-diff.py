#!/usr/bin/env python3
"""Differential sweep of sample fetches and converters: the same expressions through Fulcrum and the real haproxy.

Both proxies run one configuration: a frontend whose rules answer each case with
`http-request return status 200 content-type text/plain lf-string "<the case's log-format>"`, chosen by the
request's X-Case field; a few `set-var` rules first give the converters that read variables their operands. For
each case the script sends the case's request (its own target, fields and body when it tests fetches) on a fresh
connection to both and compares the status line and the body, where a sample that fails is an empty field (and a
case that is a bare expression is an ACL too, `-m found`, its answer prefixed with "+" or "-"). The
frontend has `option http-buffer-request` (Fulcrum's body fetches see no body that no rule waited for,
docs/differences.md).

A response case (resp) goes to the backend, whose server is this script's origin: it answers the case's raw
response, which `http-response set-header X-Out "<log-format>"` (after `wait-for-body`) or `http-after-response`'s
reads; the status line and the X-Out fields are compared.

A case whose line a proxy refuses is taken out of the common configuration (haproxy stops at its first error, so
the script checks again until both accept it) and checked alone with `-c`: then the refusals are compared (both
refuse, and the same first "parsing [...]" alert, the file name and process ids blanked, haproxy's cut as Fulcrum
cuts a long one). The map converters' files (MAPS) are written in the run's directory.

Usage: tools/sample-diff.py [--only REGEX] [--port 14000] [--haproxy /usr/sbin/haproxy] [-v]
Differences listed in KNOWN (on purpose, documented in docs/differences.md) print as "known" (-v: in full); the exit
status is 1 when another one is found. The packaged jar must exist (bin/mvn -q -o package -DskipTests). Ports:
--port, --port+1 and --port+2 (the origin). Both proxies run with TZ=Europe/Paris (ltime's cases).
"""
import collections
import os
import re
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
HOME = os.path.dirname(HERE)
sys.path.insert(0, HERE)
h1diff = __import__("h1-diff")  # (its command line, its way of waiting for a proxy and of stopping it)

TZ = "Europe/Paris"
MAPDIR = None  # where the run writes MAPS
ORIGIN = 0  # the port of the response cases' server


def case(fmt, name=None, fields="Host: a\r\n", target="/", method="GET", body=b"", version="HTTP/1.1", acl=None,
         resp=None, after=False, ret=False):
    """fmt: the lf-string as written between the configuration's double quotes; fields: the request's fields
    (X-Case comes first); acl: an ACL whose match is the answer ("+" or "-" before fmt); resp: the raw response
    the origin answers (the case is then evaluated on it by http-response set-header X-Out, or by
    http-after-response's when after; ret: by http-response return's lf-string, which sees no response in
    haproxy 2.6)."""
    return dict(name=name or acl or fmt, fmt=fmt, fields=fields, target=target, method=method, body=body,
                version=version, acl=acl, resp=resp, after=after, ret=ret)


def each(template, values, **kw):
    """One case per value, the value put in the template's {}."""
    return [case(template.replace("{}", v), **kw) for v in values]


# Variables the converters' cases read (a case's expression names them txn.<name>).
VARS = [
    ("s", "str(abc)"), ("e", "str()"), ("i5", "int(5)"), ("i0", "int(0)"), ("in", "int(-7)"),
    ("imax", "int(9223372036854775807)"), ("imin", "int(-9223372036854775808)"), ("b", "bin(00ff41)"),
    ("key", "str(c2VjcmV0)"), ("ip", "ipv4(10.1.2.3)"), ("sabc", "str(abd)"), ("sab", "str(ab)"),
]

INTS = ["0", "1", "-1", "5", "-7", "9223372036854775807", "-9223372036854775808", "4294967296", "2147483648"]
STRS = ["", "a", "abc", "a b", "ABCdef", "%00", "\\xe9t\\xe9", "\\x01\\x7f"]


def fix_msg(fields, checksum=None):
    """A FIX message, its BodyLength and CheckSum computed, as the hex of bin()."""
    body = "".join("%s=%s\x01" % f for f in fields)
    head = "8=FIX.4.2\x019=%d\x01" % len(body)
    msg = head + body
    cs = checksum if checksum is not None else sum(msg.encode()) % 256
    return (msg + "10=%03d\x01" % cs).encode().hex()


FIX = fix_msg([("35", "A"), ("49", "CLIENT"), ("56", "SRV"), ("34", "1")])
FIX_BAD = fix_msg([("35", "A"), ("49", "CLIENT")], checksum=7)
# MQTT 3.1.1 CONNECT, client id abc, user u, password p; MQTT 5 CONNECT with a session expiry property
MQTT = "101500044d51545404c2003c000361626300017500017000"
MQTT5 = "101300044d5154540502003c05110000001e000161"
# protobuf: 1: varint 150, 2: "abc", 3: fixed32 1, 4: {1: 1}, 5: varint -2 (zigzag 3), 6: fixed64 -1
PB = "08960112036162631d0100000022020801280331ffffffffffffffff"
GRPC = "00" + "%08x" % (len(PB) // 2) + PB
# field 1 as a double then as a float: how the casts to integers treat what does not fit
DOUBLES = [struct.pack("<Bd", 0x09, d).hex() for d in (1.5, -1.5, 1e19, 2.0 ** 63, 1e30, -1e30, float("inf"))]
DOUBLES.append("09ffffffffffffffff")  # NaN
FLOATS = [struct.pack("<Bf", 0x0d, f).hex() for f in (1.5, -1.5, 3e9, 5e9, 1e20, -1e20, float("inf"))]
FLOATS.append("0dffffffff")

CASES = [
    # casts between the types
    *each("%[{}]", ["int(0)", "int(-1)", "int(9223372036854775807)", "int(-9223372036854775808)", "bool(1)",
                    "bool(0)", "str()", "str(abc)", "bin()", "bin(414243)", "bin(00)", "ipv4(1.2.3.4)",
                    "ipv6(::1)", "ipv6(::ffff:1.2.3.4)", "ipv6(2001:db8::)", "meth(GET)", "meth(FOO)",
                    "str(-12),bool", "str(12),bool", "str(x),bool", "str(1.2.3.4),ipmask(8)",
                    "str(::1),ipmask(8,64)", "str(12abc),add(1)", "str(abc),add(1)", "str(),add(1)",
                    "str(-),add(1)", "str(+5),add(1)", "str( 5),add(1)", "str(99999999999999999999),add(0)",
                    "str(-99999999999999999999),add(0)", "bin(3132),add(1)", "ipv4(1.2.3.4),add(0)",
                    "int(16909060),ipmask(32)", "int(-1),ipmask(32)", "ipv6(::ffff:1.2.3.4),ipmask(24)",
                    "ipv6(::1),ipmask(24)", "bool(1),add(1)", "str(1.2.3.4),ipmask(255.255.0.0)",
                    "str(1.2.3),ipmask(32)", "str(1.2.3.4 ),ipmask(32)", "bin(01020304),ipmask(32)",
                    "int(10),hex", "ipv4(1.2.3.4),hex", "ipv6(::1),hex", "bool(1),hex",
                    "str(abc),bool", "bin(00),bool", "int(5),bool", "int(0),not", "str(0),not", "str(),not",
                    "ipv4(1.2.3.4),bool", "ipv4(1.2.3.4),length", "int(-5),length", "bin(000102),length"]),
    # string converters
    *each("%[str(abc),bytes({})]", ["0", "1", "2", "3", "4", "-1", "0,0", "0,1", "1,1", "1,5", "3,1", "4,0",
                                    "1,-1", "-1,1", "0,-1", "2,9223372036854775807", "9223372036854775807,1"]),
    *each("%[str(),bytes({})]", ["0", "0,1", "1"]),
    *each("%[bin(00ff4100),bytes({}),hex]", ["1", "1,2", "3,1", "4"]),
    *each("%[str(f1_f2_f3__f5),field({})]", [
        "1,_", "5,_", "4,_", "6,_", "0,_", "-1,_", "-2,_", "-5,_", "-6,_", "2,_,0", "2,_,2", "-2,_,3", "-3,_,0",
        "1,_,0", "-1,_,0", "5,_,2", "2,_,9", "-2,_,9", "1,_2", "2,3_", "1,x", "2,x", "-1,x", "2,_,-1",
        "2,_,-2", "-2,_,-1", "1,", "-9223372036854775808,_"]),
    *each("%[str(),field({})]", ["1,_", "-1,_", "1,_,0", "2,_"]),
    *each("%[str(_),field({})]", ["1,_", "2,_", "-1,_", "-2,_", "1,_,0", "3,_"]),
    *each("%[str(f1_f2_f3__f5),word({})]", [
        "1,_", "4,_", "5,_", "0,_", "-1,_", "-4,_", "-5,_", "2,_,0", "3,_,2", "-2,_,3", "-3,_,0", "1,_,0",
        "-1,_,0", "2,_,9", "-2,_,9", "2,_,-1", "-2,_,-1", "1,x", "2,x", "-1,x", "1,_3"]),
    *each("%[str(/f1/f2/f3/f4),word({})]", ["1,/", "-1,/", "2,/,0", "-2,/,0"]),
    *each("%[str(__a__b__),word({})]", ["1,_", "2,_", "3,_", "-1,_", "-2,_", "1,_,0", "-1,_,0", "1,_,2"]),
    *each("%[str(),word({})]", ["1,_", "-1,_"]),
    *each("%[str(---),word({})]", ["1,-", "-1,-", "1,-,0"]),
    *each("%[str(xxabcxyx),{}]", ["ltrim(x)", "rtrim(x)", "ltrim(xy)", "rtrim(xy)", "ltrim(xabcy)",
                                  "rtrim(abcxy)", "ltrim(z)", "rtrim()", "ltrim()"]),
    *each("%[str(),{}]", ["ltrim(x)", "rtrim(x)", "lower", "upper", "cut_crlf",
                          "url_enc", "url_dec", "base64", "b64dec", "ub64enc", "ub64dec", "json", "concat(a,txn.s,b)",
                          "add_item(-,txn.s)", "add_item(-,,x)", "host_only", "port_only", "be2dec(:,1)",
                          "be2hex(:,1)", "regsub(^,x)", "regsub(x*,y,g)", "strcmp(txn.e)", "strcmp(txn.s)",
                          "secure_memcmp(txn.e)", "secure_memcmp(txn.s)"]),
    *each("%[str({}),lower]", ["AbC", "\\xc9T\\xc9", "A1-Z_"]),
    *each("%[str({}),upper]", ["aBc", "\\xe9t\\xe9", "a1-z_"]),
    *each("%[str({}),length]", STRS),
    *each("%[str({}),cut_crlf]", ["ab\\r\\ncd", "ab\\ncd", "\\rab", "ab\\r"]),
    *each("%[str(abc),concat({})]", ["", "x", "x,txn.s", "x,txn.s,y", ",txn.s", ",,y", ",txn.nosuch,y",
                                     "x,txn.i5", "x,txn.b", ",txn.e,"]),
    *each("%[str(abc),add_item({})]", ["-,txn.s", "-,txn.s,x", "-,,x", "-,txn.nosuch", "-,txn.nosuch,x",
                                       "-,txn.e", "-,txn.e,x", ",txn.s", "-,txn.i5"]),
    *each("%[str(abc),strcmp({})]", ["txn.s", "txn.sabc", "txn.sab", "txn.e", "txn.nosuch", "txn.i5"]),
    *each("%[str(abc),secure_memcmp({})]", ["txn.s", "txn.sabc", "txn.sab", "txn.e", "txn.nosuch"]),
    *each("%[bin(00ff41),secure_memcmp({})]", ["txn.b", "txn.s"]),
    # arithmetic
    *[case("%%[int(%s),%s(%s)]" % (a, op, b)) for op in ("add", "sub", "mul", "div", "mod", "and", "or", "xor")
      for a, b in (("5", "3"), ("-5", "3"), ("5", "-3"), ("5", "0"), ("-5", "0"), ("0", "0"),
                   ("9223372036854775807", "1"), ("-9223372036854775808", "1"), ("-9223372036854775808", "-1"),
                   ("9223372036854775807", "-9223372036854775808"), ("-9223372036854775807", "-9223372036854775807"),
                   ("4611686018427387904", "2"), ("3037000500", "3037000500"), ("-3", "-4"), ("5", "txn.i5"),
                   ("5", "txn.i0"), ("5", "txn.nosuch"), ("5", "txn.s"), ("5", "txn.imin"), ("5", "txn.in"))],
    *each("%[int({}),neg]", INTS),
    *each("%[int({}),cpl]", INTS),
    *each("%[int({}),even]", ["0", "1", "-1", "-2"]),
    *each("%[int({}),odd]", ["0", "1", "-1", "-2"]),
    *each("%[int({}),htonl]", ["1", "0", "-1", "4294967296", "16909060", "2147483648"]),
    *each("%[int({}),hex2i]", ["0"]),
    *each("%[str({}),hex2i]", ["ff", "FF", "0x10", "-ff", "zz", "", "7fffffffffffffff", "8000000000000000",
                               "ffffffffffffffffff", "12zz", " 12"]),
    *each("%[bin({}),htonl]", ["01020304", "01", "0102030405060708"]),
    # iif, bool
    *each("%[{},iif(yes,no)]", ["bool(1)", "bool(0)", "int(2)", "str(x)", "str()", "req.hdr(nope)"]),
    # hex, be2dec, be2hex
    *each("%[{},hex]", ["str(abc)", "bin(00ff)", "str()", "str(\\xe9)"]),
    *each("%[bin(01020304050607),be2dec({})]", [":,2", "-,2,1", ",2,1", ".,1", ":,8", ":,9", ":,0", ":,-1",
                                                "::,3", ":,2,0"]),
    *each("%[bin(ffffffffffffffff),be2dec({})]", [":,8", ":,4"]),
    *each("%[bin(01020304050607),be2hex({})]", ["", ":,2", "--,2,1", ",3,1", ":", ":,0", ":,-1", ":,9",
                                                ",,1"]),
    *each("%[bin(0102030405060708),be2hex({})]", [",3,1", ":,8", ":,8,1"]),
    # base64
    *each("%[str({}),base64]", ["a", "ab", "abc", "abcd", "\\xff\\xfe", "\\x00"]),
    *each("%[str({}),b64dec]", ["YQ==", "YQ", "YQ=", "YWI=", "YWJj", "Y", "YQ==YQ==", "Y Q==", "YQ==x",
                                "_-8=", "+/8=", "//8", "YQ===", "====", "!!!!", "YWJjZA==", "YW\\nJj"]),
    *each("%[str({}),ub64enc]", ["a", "ab", "abc", "\\xff\\xfe", "\\xfb\\xff"]),
    *each("%[str({}),ub64dec]", ["YQ", "YQ==", "YWI", "_-8", "+/8", "Y", "YWJj", "Y=Q", "YQ=", "!!"]),
    # url_enc and url_dec
    *each("%[str({}),url_dec]", ["a%20b", "a+b", "a+b?c+d", "%zz", "%4", "%", "a%2", "%41%42", "%00x",
                                 "%e9", "%C3%A9", "x?y%20+", "%%41"]),
    *each("%[str({}),url_dec(1)]", ["a+b", "a%2Bb", "%zz"]),
    *each("%[str({}),url_dec(0)]", ["a+b", "?a+b"]),
    *each("%[str({}),url_enc]", ["a b", "a+b", "a/b?c=d&e", "~-_.*", "\\xe9", "\\x00", "'\\\"<>#%",
                                 "!$()*,;:@[]"]),
    *each("%[str(a b),url_enc({})]", ["query", "other"]),
    # json
    *[case("%%[str(%s),json(%s)]" % (s, m)) for m in ("", "ascii", "utf8", "utf8s", "utf8p", "utf8ps")
      for s in ("a\\\"b", "a\\\\\\\\b", "/", "\\x01\\x1f\\x7f", "\\r\\n\\t\\b\\f", "\\xc3\\xa9", "\\xe9",
                "\\xc0\\xaf", "\\xe0\\x80\\xaf", "\\xed\\xa0\\x80", "\\xf0\\x9f\\x98\\x80", "\\xc3",
                "\\x80", "\\xf4\\x90\\x80\\x80", "\\xef\\xbf\\xbf", "<>&'")],
    *each("%[str(a),json({})]", ["bad"]),
    # regsub
    *each("%[str(aXbXc),regsub({})]", ["X,-", "X,-,g", "x,-,i", "x,-,gi", "x,-", "(a)X(b),\\2\\1",
                                       "(a)X,\\1\\1\\0", "a,\\\\", "b,[\\0]", "X,,g", "^,>", "$,<", "X*,-,g",
                                       "(.)(.),\\2\\1,g", "Z,-", "b,\\x41", "([a-c]),<\\1>,g", "X,\\9",
                                       "X,\\\\1"]),
    *each("%[str(aaa),regsub({})]", ["a*,-,g", "a*?,-,g", "a?,-,g", "^a,b,g", ",x,g"]),
    *each("%[str(a.b.c),regsub({})]", ["\\.,/,g", "[.],,g"]),
    # hashes
    *[case("%%[%s,%s]" % (s, h)) for h in ("crc32", "crc32(1)", "crc32c", "crc32c(1)", "djb2", "djb2(1)",
                                           "sdbm", "sdbm(1)", "wt6", "wt6(1)", "xxh32", "xxh32(1)", "xxh64",
                                           "xxh64(-1)", "xxh3", "xxh3(7)")
      for s in ("str()", "str(abc)", "bin(00ff80)", "str(0123456789abcdefghijklmnopqrstuvwxyz0123456789ABCDEF)",
                "int(12)")],
    *[case("%%[%s,%s,hex]" % (s, h)) for h in ("sha1", "sha2", "sha2(224)", "sha2(384)", "sha2(512)",
                                               "digest(md5)", "digest(sha256)", "digest(SHA512)",
                                               "digest(sha3-256)", "digest(md5-sha1)", "hmac(sha256,txn.key)",
                                               "hmac(sha1,c2VjcmV0)", "hmac(md5,txn.e)")
      for s in ("str()", "str(abc)", "bin(00ff)")],
    *each("%[str(abc),sha2({})]", ["100", "0"]),
    *each("%[str(abc),{},length]", ["sha1", "sha2", "digest(sha384)"]),
    # host_only, port_only
    *each("%[str({}),host_only]", ["a", "a:80", "127.0.0.1", "127.0.0.1:80", "[::1]", "[::1]:80", ":80",
                                   "a:", "a:b:c", "[::1", "::1"]),
    *each("%[str({}),port_only]", ["a", "a:80", "127.0.0.1:80", "[::1]", "[::1]:8080", ":80", "a:",
                                   "a:x", "a:99999", "a:-1", "[::1]:", "::1"]),
    # dates
    *[case("%%[int(%s),%s]" % (d, f)) for d in ("0", "1700000000", "1711846800", "-1", "253402300800")
      for f in ("ltime(%Y-%m-%d %H:%M:%S)", "utime(%Y-%m-%d %H:%M:%S)", "ltime(%s %z %Z)", "utime(%s %z %Z)",
                "ltime(%a %b %d %j %U %W %u %w %y)", "utime(%c|%x|%X|%D|%T|%R|%e|%I|%p)",
                "utime(%G-%V %g %C %h %k %l %n%t%%)", "ltime(%d,3600)", "utime(%H:%M,-90)",
                "utime(%Y,-9223372036854775808)", "utime(%Y%m%d,86400)", "utime()", "utime(x%Qy)",
                "http_date", "http_date(3600)", "http_date(0,ms)", "http_date(0,us)", "http_date(0,s)")],
    # ipmask
    *each("%[ipv4(192.168.131.255),ipmask({})]", ["24", "255.255.255.0", "0", "32", "255.0.255.0", "1",
                                                  "24,64", "0.0.0.0", "255.255.255.255"]),
    *each("%[ipv6(2001:db8:1:2:3:4:5:6),ipmask({})]", ["24,64", "24,ffff:ffff::", "24,0", "24,128",
                                                       "24,1", "24", "24,::ffff", "24,127"]),
    *each("%[ipv6(::ffff:10.9.8.7),ipmask({})]", ["8", "8,96", "8,120"]),
    # fix, mqtt, protobuf
    *each("%[bin({}),fix_is_valid]", [FIX, FIX_BAD, "00", ""]),
    *each("%%[bin(%s),fix_tag_value({})]" % FIX, ["35", "MsgType", "49", "SenderCompID", "TargetCompID",
                                                   "BeginString", "BodyLength", "CheckSum", "99", "0"]),
    *each("%[bin({}),mqtt_is_valid]", [MQTT, MQTT5, "10", "1000", "ff00", ""]),
    *each("%%[bin(%s),mqtt_field_value({})]" % MQTT, ["connect,client_identifier", "1,client_identifier",
                                                      "CONNECT,username", "connect,password",
                                                      "connect,protocol_name", "connect,protocol_version",
                                                      "connect,flags", "connect,keepalive",
                                                      "connect,will_topic", "publish,topic"]),
    *each("%%[bin(%s),mqtt_field_value({})]" % MQTT5, ["connect,17", "connect,client_identifier",
                                                       "connect,protocol_version"]),
    *each("%%[bin(%s),protobuf({})]" % PB, ["1,uint32", "1,int64", "1,sint32", "1", "2", "3,fixed32", "3",
                                           "4.1,int32", "4", "5,sint64", "5,int32", "6,sfixed64", "6,double",
                                           "6,fixed64", "7", "1,bool", "1,enum", "2,int32"]),
    *each("%[bin({}),protobuf(1,double)]", DOUBLES),
    *each("%[bin({}),protobuf(1,float)]", FLOATS),
    *each("%%[bin(%s),ungrpc({})]" % GRPC, ["1,uint32", "2", "4.1,int32", "6,sfixed64", "9"]),
    *each("%[bin({}),ungrpc(1,int32)]", ["00", "0000000010", ""]),
]

J = '{\\"a\\":1,\\"b\\":\\"x\\\\u00e9y\\",\\"c\\":[1,2],\\"d\\":{\\"e\\":true},\\"f\\":-1.5e3,\\"g\\":null,\\"h\\":9223372036854775808}'
CASES += each("%%[str(%s),json_query({})]" % J, ["$.a", "$.a,int", "$.b", "$.c", "$.c[1]", "$.d.e", "$.d",
                                                  "$.f", "$.f,int", "$.g", "$.h", "$.h,int", "$.nosuch", "$",
                                                  "$.b,int", "$.d.e,int"])
CASES += each("%[str({}),json_query($.a)]", ["", "x", "{\\\"a\\\":", "[1]", "{\\\"a\\\":\\\"\\\\ud83d\\\\ude00\\\"}"])

# more converters: variables, language, edges of the argument parsers
CASES += each("%[{}]", [
    "str(x),set-var(txn.z),concat(-,txn.z)", "str(x),set-var(txn.z),unset-var(txn.z),concat(-,txn.z)",
    "int(5),set-var(txn.z),add(txn.z)", "str(5),set-var(txn.z),mul(txn.z)", "bin(41),set-var(txn.z),concat(,txn.z)",
    "ipv4(1.2.3.4),set-var(txn.z),concat(,txn.z)", "bool(1),set-var(txn.z),concat(,txn.z)",
    "str(f1,f2,f3),field(2,\\,)", "str(f1,f2,f3),word(-1,\\,)", "str(a b c),field(2,\\ )",
    "str(a.b-c.d),field(2,.-)", "str(a.b-c.d),field(-2,.-,2)", "str(a.b-c.d),word(2,.-,0)",
    "str(abc),bytes(1),bytes(1)", "str(abc),hex,hex", "str(abc),base64,b64dec", "str(abc),ub64enc,ub64dec",
    "str(abc),url_enc,url_dec", "str(a%2Bb),url_dec", "str(%2b%2B),url_dec(1)", "str(abc),length,hex",
    "bin(00),json", "bin(0041),upper", "bin(00ff),url_enc", "bin(610062),length", "bin(610062),field(2,\\x00)",
    "str(abc),regsub(b,\\x00),length", "str(123),hex2i", "str(abc),be2hex", "int(258),be2dec(:,1)",
    "str(12),htonl", "str(ab),htonl", "bin(0102),be2dec(.,1)", "bin(),be2dec(.,1)", "bin(),be2hex",
    "bin(0102030405060708090a),be2dec(-,8)", "bin(0102030405060708090a),be2dec(-,8,1)",
    "str(x),xxh3(-1)", "str(x),xxh32(4294967296)", "str(x),xxh64(-9223372036854775808)", "str(x),djb2(2)",
    "str(x),crc32(2)", "str(x),wt6(0)", "str(x),sdbm(-1)", "int(-1),crc32", "ipv4(1.2.3.4),crc32",
    "str(x),sha2(256),length", "str(a),sha1,base64", "bool(1),sha1,hex", "str(Straße),lower", "str(ÀÉ),upper",
    "str(%[),length", "str(a]b),length", "str(1.2.3.4),ipmask(24),hex", "str(::ffff:1.2.3.4),ipmask(24,96)",
    "ipv4(1.2.3.4),ipmask(24),concat(/,txn.s)", "int(1),iif(a,)", "str(),iif(,b)", "int(0),iif(,)",
    "str(Tue, 14 Nov 2023 22:13:20 GMT),http_date", "int(1700000000),http_date(-1700000001)",
    "int(1700000000),http_date(9223372036854775807)", "str(-0),add(0)", "str(0x10),add(0)", "str(010),add(0)",
    "str(1e3),add(0)", "str(9223372036854775808),add(0)", "str(-9223372036854775809),add(0)",
    "str(1,2),add(0)", "str(\\t5),add(0)", "bin(2d35),add(0)", "str(5),neg,neg", "int(7),cpl,cpl",
    "int(258),bytes(0),hex", "int(-1),bytes(0)", "ipv4(1.2.3.4),bytes(1),hex", "ipv6(::1),bytes(15),hex",
    "bool(1),bytes(0)", "str(abc),secure_memcmp(txn.b)", "ipv4(1.2.3.4),secure_memcmp(txn.ip)",
    "ipv6(::1),ipmask(8,8),hex", "str(1.2.3.4),ipmask(8),bytes(0),hex", "int(1),ipmask(8),concat(/)",
    "ipv6(::ffff:1.2.3.4),concat(/)", "ipv4(0.0.0.0),bool", "ipv4(1.2.3.4),neg", "bool(0),neg"])
# set-var's conditions, on variables the preamble set (txn.s abc, txn.e empty, txn.i5 5) or not (txn.n)
CASES += [case("%%[%s,set-var(txn.%s,%s),concat(|,txn.%s)]" % (v, var, cond, var))
          for cond in ("ifexists", "ifnotexists", "ifempty", "ifnotempty", "ifset", "ifnotset", "ifgt", "iflt",
                       "ifexists,ifnotempty", "bogus")
          for v, var in (("str(x)", "s"), ("str(x)", "e"), ("str()", "s"), ("int(7)", "i5"), ("int(3)", "i5"),
                         ("str(x)", "n"), ("int(7)", "s"))]
LANG = "Accept-Language: fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5\r\n"
CASES += each("%[req.hdr(accept-language),language({})]", ["en;de", "de;en", "es", "es,nl", "fr", "fr-CH",
                                                           "FR", "it;*", "en;fr-CH;de", "de;es,x"],
              fields="Host: a\r\n" + LANG)
CASES += [case("%%[req.fhdr(accept-language),language(%s)]" % lang, name="language q=0 " + lang,
               fields="Host: a\r\nAccept-Language: en;q=0, de;q=0.001, fr;q=1.000, es;q=1.5, it;q=abc\r\n")
          for lang in ("en", "de;en", "fr;de", "es", "it", "nl,nl")]
# an ACL on a multi-valued fetch stops at the first value its converters fail on
CASES += [case("%%[req.hdr(x-b),%s]" % conv, name="%s of X-B: %s" % (conv, v), fields="Host: a\r\nX-B: %s\r\n" % v)
          for conv in ("b64dec", "b64dec,length", "bytes(2)", "ub64dec,lower") for v in ("!!, YQ==", "YQ==, !!", "a, YWJj")]
COOKIES = ("Host: a\r\nCookie: $Version=1; a=\"q v\"; b = 2 ;c=3;d; e=\r\nCookie: a=4,f=5\r\n"
           "Cookie: g=\"x;y\"\r\n")
CASES += [case("%%[%s]" % f, name="cookies %s" % f, fields=COOKIES)
          for f in ("req.cook(a)", "req.cook(b)", "req.cook(c)", "req.cook(d)", "req.cook(e)", "req.cook(f)",
                    "req.cook(g)", "req.cook($Version)", "req.cook()", "req.cook_cnt(a)", "req.cook_cnt()",
                    "req.cook_val(b)", "req.cook_names", "req.hdr(cookie,2)", "req.fhdr(cookie,2)",
                    "req.cook(a),length", "cook(a)")]
IPHDRS = ("Host: a\r\nX-F: 10.0.0.1, 10.0.0.2\r\nX-F: 192.168.0.1:8080\r\nX-6: ::1\r\nX-6: [::1]:80\r\n"
          "X-6: ::ffff:1.2.3.4\r\nX-N: 12abc, -3, +4, 99999999999999999999\r\nX-W:  a  b\t\r\n")
CASES += [case("%%[%s]" % f, name="hdrs %s" % f, fields=IPHDRS)
          for f in ("req.hdr_ip(x-f)", "req.hdr_ip(x-f,1)", "req.hdr_ip(x-f,2)", "req.hdr_ip(x-f,-1)",
                    "req.hdr_ip(x-6,1)", "req.hdr_ip(x-6,2)", "req.hdr_ip(x-6,-1)", "req.hdr_val(x-n,1)",
                    "req.hdr_val(x-n,2)", "req.hdr_val(x-n,3)", "req.hdr_val(x-n,4)", "req.hdr(x-w)",
                    "req.fhdr(x-w)", "req.hdr(x-w),length", "req.hdr(x-f,-2)", "req.hdr(x-f,-3)", "req.hdr(x-f,-4)",
                    "hdr_ip(x-f)", "req.hdr_names(,)", "req.hdr(x-6,0)", "req.fhdr(x-6,0)")]

# maps, from the files of MAPS (written in the run's directory; "MAPS/" in an expression is its path)
MAPS = {
    "s.map": "abc 1\nab 2\nABC 3\n/api/v1 apiv\nexample.com dom\nfoo.bar sub\nxyz\n",
    "si.map": "abc 1\nab 2\n/api 3\nexample.com -4\n",
    "sip.map": "abc 10.0.0.1\nab ::1\n",
    "ip.map": "10.0.0.0/8 net10\n10.1.0.0/16 net10-1\n192.168.1.1 host\n::1 six\n2001:db8::/32 doc\n",
    "int.map": "5 five\n10 ten\n-3 minus\n",
    "reg.map": "^a.c$ re1\n(b)c re2\n^(a)(.)c$ \\2\\1x\n",
}
CASES += [case("%%[%s,%s]" % (k, m)) for m in (
    "map(MAPS/s.map)", "map(MAPS/s.map,none)", "map_str(MAPS/s.map)", "map_beg(MAPS/s.map)", "map_sub(MAPS/s.map)",
    "map_dir(MAPS/s.map)", "map_dom(MAPS/s.map)", "map_end(MAPS/s.map)", "map_reg(MAPS/reg.map)",
    "map_regm(MAPS/reg.map)", "map_str_int(MAPS/si.map)", "map_beg_int(MAPS/si.map,7)", "map_str_ip(MAPS/sip.map)",
    "map_dom_int(MAPS/si.map)")
    for k in ("str(abc)", "str(ABC)", "str(abcd)", "str(/api/v1/x)", "str(www.example.com)", "str(xyz)",
              "str()", "str(zbcz)", "int(5)")]
CASES += [case("%%[%s,%s]" % (k, m)) for m in ("map_ip(MAPS/ip.map)", "map_ip(MAPS/ip.map,no)")
          for k in ("ipv4(10.1.2.3)", "ipv4(10.2.0.1)", "ipv4(192.168.1.1)", "ipv6(::1)", "ipv6(2001:db8::5)",
                    "ipv6(::ffff:10.1.0.1)", "str(10.1.2.3)", "str(x)", "int(167837953)")]
CASES += [case("%%[%s,%s]" % (k, m)) for m in ("map_int(MAPS/int.map)", "map_int(MAPS/int.map,0)")
          for k in ("int(5)", "int(-3)", "int(6)", "str(10)", "str(x)")]

# ACLs: how a sample meets the patterns of each match method
CASES += [case("", acl=a) for a in (
    "int(5) 5", "int(5) 1:5", "int(5) 6:", "int(5) gt 4", "int(5) le 4", "int(5) eq 5", "int(-5) -10:-1",
    "str(5) 5", "str(05) 5", "str(5x) 5", "str(abc) -m int 0", "bool(1) 1", "str(abc) abc", "str(abc) -i ABC",
    "str(abc) ABC", "str(abc) -m beg ab", "str(abc) -m end bc", "str(abc) -m sub b", "str(abc) -m dir abc",
    "str(/a/b/c) -m dir b", "str(a.b.c) -m dom b.c", "str(abc) -m len 3", "str(abc) -m len 4:", "str(abc) -m reg ^a",
    "str(abc) -i -m reg ^A", "str(abc) -m bin 616263", "bin(616263) abc", "bin(616263) -m str abc",
    "bin(00ff) -m bin 00FF", "bin(00ff) -m sub ff", "ipv4(10.1.2.3) 10.0.0.0/8", "ipv4(10.1.2.3) 10.1.2.3",
    "str(10.1.2.3) -m ip 10.0.0.0/8", "str(x) -m ip 10.0.0.0/8", "ipv6(::ffff:10.1.2.3) 10.0.0.0/8",
    "ipv4(10.1.2.3) ::ffff:10.1.2.3", "ipv6(2001:db8::1) 2001:db8::/32", "int(167837955) -m ip 10.1.2.3",
    "str() -m found", "str() -m len 0", "str() -m str ''", "str(a) a b c", "str(a) -m beg b a", "str(abc) -m beg -- -a",
    "int(5) -m str 5", "ipv4(1.2.3.4) -m str 1.2.3.4", "ipv4(1.2.3.4) -m beg 1.2", "int(5) -m reg ^5$",
    "meth(GET) GET", "meth(GET) -i get", "meth(FOO) foo", "meth(FOO) -i foo", "str(1.2.3) 1.2.3",
    "str(abc),length 3", "str(abc),upper ABC", "str(abc),bytes(5) -m found", "str(abc),bytes(5) -m len 0")]

# fetches on tricky requests
HDRS = ("Host: a\r\nX-A: 1, 2\r\nX-A: 3\r\nX-B:\r\nX-C: a,\"b,c\" , d\r\nX-D: \"q\"\r\n"
        "Cookie: a=1; b=2; a=3\r\nCookie: c=; =x; d\r\nx-a: 4\r\nX-E: , ,\r\n")
CASES += each("%[{}]", [
    "req.hdr(x-a)", "req.hdr(x-a,1)", "req.hdr(x-a,2)", "req.hdr(x-a,3)", "req.hdr(x-a,4)", "req.hdr(x-a,5)",
    "req.hdr(x-a,0)", "req.hdr(x-a,-1)", "req.hdr(x-a,-2)", "req.hdr(x-a,-4)", "req.hdr(x-a,-5)",
    "req.hdr(x-b)", "req.hdr(x-c)", "req.hdr(x-c,2)", "req.hdr(x-c,-1)", "req.hdr(x-c,3)", "req.hdr(x-d)",
    "req.hdr(x-e,1)", "req.hdr(x-e,2)", "req.hdr(x-e,3)", "req.hdr(x-e,-1)", "req.hdr(nope)", "req.hdr(host)",
    "req.fhdr(x-a)", "req.fhdr(x-a,1)", "req.fhdr(x-a,-1)", "req.fhdr(x-a,-3)", "req.fhdr(x-a,9)",
    "req.fhdr(x-c)", "req.fhdr(x-b)", "req.hdr_cnt(x-a)", "req.hdr_cnt(x-c)", "req.hdr_cnt(x-b)",
    "req.hdr_cnt(x-e)", "req.hdr_cnt(nope)", "req.fhdr_cnt(x-a)", "req.fhdr_cnt(x-e)", "req.fhdr_cnt(nope)",
    "req.hdr_cnt", "req.fhdr_cnt", "req.hdr_names", "req.hdr_names(|)", "req.hdr_val(x-a)",
    "req.hdr_val(x-c)", "req.hdr_ip(x-a)", "req.hdr(cookie)", "req.cook(a)", "req.cook(b)", "req.cook(c)",
    "req.cook(d)", "req.cook()", "req.cook(nope)", "req.cook_cnt(a)", "req.cook_cnt(c)", "req.cook_cnt()",
    "req.cook_cnt(nope)", "req.cook_val(a)", "req.cook_val(b)", "req.cook_names", "req.cook_names(|)",
    "hdr(x-a)", "hdr_cnt(x-a)", "hdr(x-a,-1)", "cook(a)", "cook_cnt(a)", "req.hdrs,length",
    "req.hdrs_bin,length"], fields=HDRS)
TARGETS = [("/", "h.example:81"), ("/p/a%20b?x=1&y=%41&x=2&z&=v&w=", "h"), ("/p?", "h"), ("/?x", "h"),
           ("//a//b?a=1;b=2", "h"), ("http://h:8080/p?x=1", "h:8080"), ("http://h", "h"), ("http://h?x=1", "h"),
           ("https://h:443/p", "h:443"), ("/p;x=1?x=%zz&x=+", "h"), ("*", "h"), ("/a?b?c&b=2&B=3", "[::1]:80"),
           ("http://127.0.0.1:8/p", "127.0.0.1:8")]
URL_FETCHES = ["path", "pathq", "query", "url", "base", "baseq", "base32", "base32+src", "url_param(x)",
               "url_param(x,;)", "url_param(y)", "url_param(z)", "url_param(w)", "url_param()", "url_param(b)",
               "url_param(B)", "urlp(x)", "urlp_val(x)", "urlp_val(y)", "url_ip", "url_port", "url32", "url32+src",
               "path,url_dec", "query,url_dec(1)", "capture.req.uri", "req.hdr(host)", "req.uri", "http_first_req",
               "req.hdr(host),host_only", "req.hdr(host),port_only"]
for t, host in TARGETS:
    CASES += [case("%%[%s]" % f, name="%%[%s] %s" % (f, t), target=t, method="OPTIONS" if t == "*" else "GET",
                   fields="Host: %s\r\n" % host) for f in URL_FETCHES]
AUTHS = ["Basic dTpw", "Basic dTo=", "Basic OnA=", "Basic dQ==", "Basic !!", "basic dTpw", "Bearer abc",
         "Basic", "Basic  dTpw", "Digest username=\"u\"", "Basic dTpwOnE="]
CASES += [case("%%[%s]" % f, name="auth %s %s" % (f, v), fields="Host: a\r\nAuthorization: %s\r\n" % v)
          for v in AUTHS for f in ("http_auth_type", "http_auth_user", "http_auth_pass")]
MISC = ("Host: a\r\nX-E: , ,\r\nX-Q: \"a,b\", c\r\nX-Q: d\r\nCookie: a=1;;b=2; ;c\r\n"
        "X-Long: " + "v" * 300 + "\r\nX-Bin: \xe9\xff\r\n")
CASES += [case("%%[%s]" % f, name="misc %s" % f, fields=MISC, target="/p%2Fq?%61=1&a=2&%62=3")
          for f in ("req.hdrs", "req.hdr_names", "req.hdr_cnt(x-e)", "req.hdr(x-e,2)", "req.hdr(x-q)",
                    "req.hdr(x-q,1)", "req.hdr(x-q,2)", "req.hdr_cnt(x-q)", "req.fhdr_cnt(x-q)", "req.cook(b)",
                    "req.cook(c)", "req.cook_cnt()", "req.cook_names", "req.hdr(x-long),length", "req.hdr(x-bin)",
                    "req.hdr(x-bin),hex", "req.hdr(x-bin),json(utf8s)", "req.hdr(x-bin),url_enc", "url_param(a)",
                    "url_param(%61)", "urlp(b)", "urlp_val(a)", "path", "path,url_dec", "method", "req.ver",
                    "req.proto_http", "req.hdrs_bin,hex", "req.body_size", "req.body_len", "req.body",
                    "req.hdr(x-long),bytes(290)", "req.hdr(x-q),word(1,\\\"),length")]
CASES += [
    case("%[base]", name="base no host", fields="", version="HTTP/1.0"),
    case("%[base]", name="base host:80", fields="Host: a:80\r\n", target="/x?y"),
    case("%[base32]", name="base32 no host", fields="", target="/x", version="HTTP/1.0"),
    case("%[req.body]|%[req.body_len]|%[req.body_param(a)]|%[req.body_param(B)]|%[req.body_param(b)]", name="body params",
         method="POST", fields="Host: a\r\nContent-Length: 11\r\n", body=b"a=1&B=2&a=3"),
    case("%[req.body_param(a)]|%[req.body_param]", name="body params with ;", method="POST",
         fields="Host: a\r\nContent-Length: 7\r\n", body=b"a=1;a=2"),
    case("%[req.body]|%[req.body_len]|%[req.body_size]", name="chunked body of no chunk", method="POST",
         fields="Host: a\r\nTransfer-Encoding: chunked\r\n", body=b"0\r\n\r\n"),
]

# the response side: fetches on the origin's raw responses, in http-response (after the wait-for-body rule) or
# in http-after-response
RES_HDRS = (b"X-A: 1, 2\r\nX-A: 3\r\nX-B:\r\nX-C: a,\"b,c\" , d\r\nx-a: 4\r\nX-E: , ,\r\n"
            b"X-F: 10.0.0.1, 192.168.0.1:8080\r\nX-6: ::1\r\nX-N: 12abc, -3, +4\r\nX-Cap: captured\r\n"
            b"Set-Cookie: a=1; Path=/; HttpOnly\r\nSet-Cookie: b=2\r\n"
            b"Set-Cookie: a=3; Expires=Wed, 09 Jun 2021 10:18:14 GMT\r\nSet-Cookie: c=\r\nSet-Cookie: =x\r\n"
            b"Set-Cookie: d\r\nSet-Cookie: e=\"q v\"; f=6\r\nContent-Type: text/plain\r\n")
RES = b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n" + RES_HDRS + b"\r\nhello"
CASES += [case("%%[%s]" % f, name="res %s" % f, resp=RES) for f in (
    "status", "res.ver", "res.hdr(x-a)", "res.hdr(x-a,1)", "res.hdr(x-a,3)", "res.hdr(x-a,5)", "res.hdr(x-a,-1)",
    "res.hdr(x-a,-4)", "res.hdr(x-a,-5)", "res.hdr(x-b)", "res.hdr(x-c)", "res.hdr(x-c,2)", "res.hdr(x-e,2)",
    "res.hdr(nope)", "res.hdr(set-cookie)", "res.hdr(set-cookie,2)", "res.hdr_cnt(x-a)", "res.hdr_cnt(x-c)",
    "res.hdr_cnt(x-b)", "res.hdr_cnt(set-cookie)", "res.hdr_cnt(nope)", "res.hdr_cnt", "res.fhdr(x-a)",
    "res.fhdr(x-a,1)", "res.fhdr(x-a,-3)", "res.fhdr(set-cookie,3)", "res.fhdr(x-c)", "res.fhdr_cnt(x-a)",
    "res.fhdr_cnt(x-e)", "res.fhdr_cnt", "res.hdr_ip(x-f)", "res.hdr_ip(x-f,2)", "res.hdr_ip(x-6)",
    "res.hdr_ip(x-a)", "res.hdr_val(x-n)", "res.hdr_val(x-n,2)", "res.hdr_val(x-n,3)", "res.hdr_val(x-a,-1)",
    "res.hdr_names", "res.hdr_names(|)", "res.cook(a)", "res.cook(b)", "res.cook(c)", "res.cook(d)",
    "res.cook(e)", "res.cook(f)", "res.cook(Path)", "res.cook()", "res.cook(nope)", "res.cook_cnt(a)",
    "res.cook_cnt()", "res.cook_cnt(nope)", "res.cook_val(a)", "res.cook_val(b)", "res.cook_names", "scook(a)",
    "scook(b)", "scook_cnt(a)", "scook_val(b)", "shdr(x-a)", "shdr_cnt(x-a)", "shdr_ip(x-f)", "shdr_val(x-n)",
    "hdr(x-a)", "hdr_cnt(x-a)", "cook(a)", "res.hdrs", "res.hdrs,length", "res.hdrs_bin,hex", "res.body",
    "res.body_len", "res.body_size", "res.body,hex", "res.body,bytes(1,3)", "capture.res.hdr(0)",
    "capture.res.hdr(1)", "capture.res.ver", "txn.status", "unique-id", "res.comp", "res.comp_algo",
    "res.hdr(x-a),upper", "res.hdr(x-a,-1),add(1)", "res.cook(a),add(1)", "res.hdr(x-c),field(2,\\\")",
    "res.hdr(x-n,1),add(0)", "res.hdr_cnt(x-a),mul(2)", "status,div(100)", "res.fhdr(x-c),word(2,\\,)",
    "res.hdr(x-cap),capture-res(1),concat(:,txn.s)", "res.cook(a),concat(-,txn.s)", "req.hdr(host)",
    "req.fhdr(x-case)", "res.body,url_enc", "res.hdr(set-cookie),json", "res.fhdr(set-cookie,-1),length")]
CASES += [case("", acl="%s" % a, resp=RES) for a in (
    "res.hdr(x-a) -m beg 1", "res.hdr(x-a) 3", "res.hdr(x-a) 5", "status 200", "status 400:499", "status 2",
    "res.hdr_cnt(x-a) gt 3", "res.hdr_cnt(x-a) lt 3", "res.cook(a) 1", "res.cook(a) 3", "res.cook_cnt(a) 2",
    "res.body -m sub ell", "res.body hello", "res.ver 1.1", "res.ver 1.0", "res.hdr(x-a) -m reg ^[0-9]$",
    "scook(a) -m found", "scook(nope) -m found", "res.hdr_ip(x-f) 10.0.0.0/8", "res.hdr_ip(x-f) 192.168.0.0/16",
    "res.hdr_val(x-n) -3", "res.hdr_val(x-n) 12", "res.hdr(x-e) -m len 0", "res.hdr(x-b) -m found",
    "res.fhdr(x-c) -m sub b,c", "res.hdr_names -m sub X-F", "res.hdr(x-a),upper 4", "res.body_len 5",
    "res.hdr(x-c) -m end d", "res.cook_val(b) 2", "txn.status 200", "res.comp -m bool", "capture.res.ver 1.1")]
# the request's fields and start line are gone by then in haproxy: an ACL on them never matches
REQ_ACLS = ("req.hdr(host) -m found", "hdr(host) -m found", "hdr_beg(host) a", "path /res", "url -m found",
            "req.hdr_cnt gt 0", "req.cook_cnt() ge 0", "method GET", "req.ver 1.1")
CASES += [case("", acl=a, resp=RES) for a in REQ_ACLS]
CASES += [case("", name="after " + a, acl=a, resp=RES, after=True) for a in REQ_ACLS]
# status lines, framings and bodies, each response asked for a few fetches
RES_KINDS = {
    "404": b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n",
    "1.0": b"HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok",
    "noreason": b"HTTP/1.1 299\r\nContent-Length: 0\r\n\r\n",
    "emptyreason": b"HTTP/1.1 302 \r\nLocation: /x\r\nContent-Length: 0\r\n\r\n",
    "chunked": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: text/plain\r\n\r\n"
               b"5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n",
    "trailers": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3;ext=1\r\nabc\r\n0\r\nX-T: t\r\n\r\n",
    "close": b"HTTP/1.1 200 OK\r\nX-A: c\r\n\r\nclose-delimited",
    "cl0": b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n",
    "204": b"HTTP/1.1 204 No Content\r\nX-A: z\r\n\r\n",
    "binary": b"HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nb\x00\xff\t",
    "cookies": b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nSet-Cookie: a=1, b=2\r\nSet-Cookie: a\r\n"
               b"Set-Cookie:  x = y ;z=1\r\nSet-Cookie: ;a=9\r\nSet-Cookie: q=\"a;b\"\r\n\r\n",
    "long": b"HTTP/1.1 200 OK\r\nContent-Length: 3000\r\nX-Cap: " + b"c" * 60 + b"\r\n\r\n" + b"b" * 3000,
    "interim": b"HTTP/1.1 100 Continue\r\nX-A: interim\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-A: final\r\n\r\nok",
    "names": b"HTTP/1.1 200 OK\r\nCONTENT-LENGTH: 2\r\nX-A:  spaced  \r\nx-A:\tt\r\nSET-COOKIE: A=1\r\n"
             b"set-cookie: a=2\r\n\r\nok",
    "500": b"HTTP/1.1 500 Internal Server Error, really\r\nContent-Length: 0\r\n\r\n",
    "chunked-empty": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    "1.0-close": b"HTTP/1.0 200 OK\r\nSet-Cookie: a=\"\"\r\n\r\nold body",
}
for kind, resp in RES_KINDS.items():
    CASES += [case("%%[%s]" % f, name="res %s %s" % (kind, f), resp=resp) for f in (
        "status", "res.ver", "res.body", "res.body_len", "res.body_size", "res.body,length", "res.hdr_cnt",
        "res.hdr_names", "res.hdr(x-a)", "res.cook(a)", "res.cook(x)", "res.cook_cnt()", "res.cook_val(a)",
        "res.cook(q)", "capture.res.hdr(0)", "capture.res.ver", "txn.status", "res.hdr(content-length)",
        "res.hdr(transfer-encoding)")]
# gzip-compressed: the request accepts it (compression judged on the server's head, before the rules)
GZ = "Host: a\r\nAccept-Encoding: gzip\r\n"
CASES += [case("%%[%s]" % f, name="res gzip %s" % f, resp=RES, fields=GZ) for f in (
    "res.comp", "res.comp_algo", "res.hdr(content-encoding)", "res.hdr(content-length)", "res.body",
    "res.hdr(vary)", "res.hdr(etag)")]
CASES += [case("%%[%s]" % f, name="after %s" % f, resp=RES, fields=GZ, after=True) for f in (
    "status", "txn.status", "res.comp", "res.comp_algo", "res.hdr(content-encoding)", "res.hdr(content-length)",
    "res.hdr(transfer-encoding)", "res.hdr(vary)", "res.hdr_cnt(x-a)", "res.hdr_names", "capture.res.hdr(0)",
    "unique-id", "res.cook(a)", "res.ver", "res.body_len")]
CASES += [case("%%[%s]" % f, name="return %s" % f, resp=RES, ret=True) for f in ("status", "res.hdr(x-a)", "res.body")]
CASES += [case("%%[%s]" % f, name="after 404 %s" % f, resp=RES_KINDS["404"], after=True)
          for f in ("status", "txn.status", "res.hdr_names", "res.hdr(content-length)")]


# Differences made on purpose or known, and where they are explained: reported as "known", not as DIFF.
CONV = "docs/differences.md (Sample converters)"
KNOWN = {
    "%[int(-3),add(-4)]": CONV + ", add and sub of negative numbers (2.6.12's bug #2216)",
    "%[int(-5),sub(3)]": CONV + ", add and sub of negative numbers (2.6.12's bug #2216)",
    "%[str(aXbXc),regsub(a,\\\\)]": CONV + ", regsub's truncated escape (2.6.12 writes past its output)",
    "%[int(-1),ltime(%Y-%m-%d %H:%M:%S)]": CONV + ", ltime's summer time after the year 5881580 (glibc overflows)",
    "%[int(-1),ltime(%s %z %Z)]": CONV + ", ltime's summer time after the year 5881580 (glibc overflows)",
    "str() -m str ''": "docs/differences.md (Samples, ACLs and rules), an empty word among an ACL's patterns",
    **{"return " + f: "docs/differences.md (Samples, ACLs and rules), http-response return's log-format reads the response"
       for f in ("status", "res.hdr(x-a)", "res.body")},
}
for d in ("0", "1700000000", "1711846800", "-1", "253402300800"):
    KNOWN["%%[int(%s),utime(%%Y,-9223372036854775808)]" % d] = CONV + ", a date before gmtime()'s (2.6.12 prints garbage)"
    for unit in ("ms", "us"):
        KNOWN["%%[int(%s),http_date(0,%s)]" % (d, unit)] = CONV + ", http_date's zero-padded fraction"


# A case that is one expression without blanks, quotes or backslashes is also an ACL: its answer starts with "+"
# when the expression has a sample, "-" when it has none (an empty string and no sample print the same).
BARE = re.compile(r'^%\[([^\s\\"#{}]+)\]$')


def config(cases, port):
    """The configuration and, for each line number of a case's rule, the case's index. The response cases go to
    the backend, whose server is the origin (ORIGIN): they are chosen there by txn.case, the request's X-Case."""
    lines = ["global", "    tune.bufsize 16384", "defaults", "    mode http", "    timeout connect 2s",
             "    timeout client 3s", "    timeout server 3s", "frontend fe", "    bind 127.0.0.1:%d" % port,
             "    option http-buffer-request", "    capture response header X-Cap len 20",
             "    declare capture response len 30", '    unique-id-format "u%[req.fhdr(x-case)]-%[req.hdr_cnt]"',
             "    http-request set-var(txn.case) req.fhdr(x-case)"]
    lines += ["    http-request set-var(txn.%s) %s" % v for v in VARS]
    owner = {}
    back = ["backend be", "    compression algo gzip", "    compression type text/plain",
            "    http-response wait-for-body time 2s", "    server s1 127.0.0.1:%d" % ORIGIN]
    for i, c in enumerate(cases):
        c = dict(c, fmt=c["fmt"].replace("MAPS/", MAPDIR + "/"))
        bare = BARE.match(c["fmt"])
        acl = c["acl"] or bare and bare.group(1) + " -m found"
        if c["ret"]:
            rule = '    http-response return status 200 content-type text/plain lf-string "%s" if { var(txn.case) -m str %d }'
        elif c["resp"]:
            rule = '    http-%s set-header X-Out "%%s" if { var(txn.case) -m str %%d }' % (
                "after-response" if c["after"] else "response")
        else:
            rule = '    http-request return status 200 content-type text/plain lf-string "%s" if { req.fhdr(x-case) -m str %d }'
        rules = back if c["resp"] else lines
        texts = [rule % ("+" + c["fmt"], i) + " { %s }" % acl, rule % ("-" + c["fmt"], i)] if acl else [rule % (c["fmt"], i)]
        for text in reversed(texts) if c["resp"] and not c["ret"] else texts:  # (the last set-header wins, the first return)
            rules.append(text)
            owner[rules is lines, len(rules)] = i
    lines.append("    http-request return status 404 unless { path /res }")
    lines.append("    default_backend be")
    owner = {n if front else n + len(lines): i for (front, n), i in owner.items()}
    return "\n".join(lines + back) + "\n", owner


def shorten(message):
    """Fulcrum's LinePrinter.shorten: an alert longer than 300 characters has its middle cut out."""
    if len(message) <= 300:
        return message
    return message[:225] + "..." + message[-75:]


def check(cmd, cfg):
    """Runs cmd -c on the configuration: (exit status, its alerts about a line, normalized). The lines of an alert
    that lists several ("multiple argument resolution errors") are taken one by one."""
    p = subprocess.run(cmd + ["-c", "-f", cfg], capture_output=True, text=True, env=env(), timeout=120)
    alerts = [re.sub(r"^(\[ALERT\] +\(\d+\) : |\s+)", "", line).replace(cfg, "CFG")
              for line in (p.stdout + p.stderr).splitlines() if not line.startswith(("[NOTICE]", "[WARNING]"))]
    return p.returncode, [a for a in alerts if "parsing [" in a]


def env():
    e = dict(os.environ)
    e["TZ"] = TZ
    return e


def refused_lines(alerts):
    return {int(m.group(1)) for a in alerts for m in [re.search(r"parsing \[CFG:(\d+)\]", a)] if m}


def split_refused(cases, proxies, tmp):
    """Takes out the cases a proxy refuses: (accepted cases, refused cases). A proxy that accepted the
    configuration is not asked again (taking cases out cannot make it refuse)."""
    refused = []
    asking = list(proxies)
    while asking:
        text, owner = config(cases, 1)
        cfg = os.path.join(tmp, "check.cfg")
        with open(cfg, "w") as f:
            f.write(text)
        bad = set()
        for cmd in list(asking):
            rc, alerts = check(cmd, cfg)
            lines = refused_lines(alerts)
            if rc == 0:
                asking.remove(cmd)
            elif not lines:
                raise RuntimeError("%s refuses the common configuration: %s" % (cmd[0], alerts))
            bad |= {owner[n] for n in lines if n in owner}
        if asking and not bad:
            raise RuntimeError("a proxy refuses no case's line but the configuration")
        refused += [cases[i] for i in sorted(bad)]
        cases = [c for i, c in enumerate(cases) if i not in bad]
    return cases, refused


def compare_refusal(c, proxies, tmp):
    """Checks a refused case alone: the differences of the two refusals ([] when the same), haproxy's refusal."""
    text, _ = config([c], 1)
    cfg = os.path.join(tmp, "one.cfg")
    with open(cfg, "w") as f:
        f.write(text)
    # (the first alert: after a rule it cannot parse haproxy reads no further, docs/differences.md)
    res = [(rc, alerts[:1]) for rc, alerts in (check(cmd, cfg) for cmd in proxies)]
    # (haproxy's alerts as Fulcrum would print them)
    res[1] = res[1][0], [re.sub(r"(parsing \[CFG:\d+\] : )(.*)", lambda m: m.group(1) + shorten(m.group(2)), a)
                         for a in res[1][1]]
    return ([] if res[0] == res[1] else [("check", res[0], res[1])]), res[1]


class Origin(threading.Thread):
    """The backend's server: answers each request head with the response of the case its X-Case names, then
    closes."""

    def __init__(self, port, cases):
        super().__init__(daemon=True)
        self.cases = cases
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", port))
        self.sock.listen(64)

    def run(self):
        while True:
            c, _ = self.sock.accept()
            threading.Thread(target=self.serve, args=(c,), daemon=True).start()

    def serve(self, c):
        with c:
            c.settimeout(5)
            head = b""
            try:
                while b"\r\n\r\n" not in head:
                    d = c.recv(65536)
                    if not d:
                        return
                    head += d
                m = re.search(rb"\r\nx-case: *(\d+)", head, re.I)
                c.sendall(self.cases[int(m.group(1))]["resp"] if m else b"HTTP/1.1 500 No Case\r\n\r\n")
                c.shutdown(socket.SHUT_WR)
                while c.recv(65536):  # (until the proxy closes: no reset of the response)
                    pass
            except OSError:
                pass


class Proxy:
    def __init__(self, name, cmd, port, cases, tmp):
        self.name, self.port = name, port
        cfg = os.path.join(tmp, name + ".cfg")
        with open(cfg, "w") as f:
            f.write(config(cases, port)[0])
        self.out = open(os.path.join(tmp, name + ".out"), "w")
        self.proc = subprocess.Popen(cmd + ["-db", "-f", cfg], stdout=self.out, stderr=subprocess.STDOUT, env=env())
        try:
            h1diff.wait_listening(port, self.proc)
        except BaseException:
            self.stop()
            raise

    def ask(self, i, c):
        """The status line and the body, or the X-Out fields of a response case."""
        target, fields = (("/res", c["fields"] + "Connection: close\r\n") if c["resp"] else (c["target"], c["fields"]))
        head = "%s %s %s\r\nX-Case: %d\r\n%s\r\n" % (c["method"], target, c["version"], i, fields)
        s = socket.create_connection(("127.0.0.1", self.port), timeout=5)
        got = b""
        try:
            s.sendall(head.encode("latin-1") + c["body"])
            while True:
                end = got.find(b"\r\n\r\n")
                if end >= 0:
                    m = re.search(rb"\r\ncontent-length: *(\d+)", got[:end], re.I)
                    if m and len(got) >= end + 4 + int(m.group(1)):
                        break
                d = s.recv(65536)
                if not d:
                    break
                got += d
        except OSError as e:
            got += b"<%s>" % str(e).encode()
        finally:
            s.close()
        status = got.split(b"\r\n", 1)[0]
        head, _, body = got.partition(b"\r\n\r\n")
        if c["resp"] and not c["ret"]:
            return status, re.findall(rb"\r\nx-out: ?([^\r]*)", head, re.I)
        return status, body

    stop = h1diff.Proxy.stop  # (the same fields: proc, out)


def main():
    a = h1diff.arguments(14000)
    names = [c["name"] for c in CASES]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        raise SystemExit("cases named twice: %s" % sorted(dup))
    cases = [c for c in CASES if not a.only or re.search(a.only, c["name"])]
    proxies = [[os.path.join(HOME, "bin/fulcrum")], [a.haproxy]]
    tmp = tempfile.mkdtemp(prefix="samplediff-")
    global MAPDIR, ORIGIN
    MAPDIR, ORIGIN = tmp, a.port + 2
    for name, text in MAPS.items():
        with open(os.path.join(tmp, name), "w") as f:
            f.write(text)
    cases, refused = split_refused(cases, proxies, tmp)
    results = [(c, *compare_refusal(c, proxies, tmp)) for c in refused]
    Origin(ORIGIN, cases).start()
    f = Proxy("fulcrum", proxies[0], a.port, cases, tmp)
    try:
        h = Proxy("haproxy", proxies[1], a.port + 1, cases, tmp)
        try:
            for i, c in enumerate(cases):
                fv, hv = f.ask(i, c), h.ask(i, c)
                results.append((c, [] if fv == hv else [("answer", fv, hv)], hv))
        finally:
            h.stop()
    finally:
        f.stop()
    counts = collections.Counter(h1diff.report(c["name"], diffs, KNOWN, a.v, repr(answer)) for c, diffs, answer in results)
    print("%d cases (%d refused by a proxy, checked alone): %d same, %d known, %d differ (files in %s)"
          % (len(results), len(refused), counts["same"], counts["known"], counts["differ"], tmp))
    return 1 if counts["differ"] else 0


if __name__ == "__main__":
    sys.exit(main())
