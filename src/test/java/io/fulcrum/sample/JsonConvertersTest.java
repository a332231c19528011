package io.fulcrum.sample;

/** Expected values and messages come from haproxy 2.6.12, unless a comment says otherwise. */
class JsonConvertersTest extends ConverterTableTest {

    @Override
    String results() {
        return """
            str('a"b\\c/d'),json => str:a\\x5C"b\\x5C\\x5Cc\\x5C/d
            str(abc),json(ascii) => str:abc
            str(é),json => str:\\x5Cu00c3\\x5Cu00a9
            str(é),json(ascii) => str:\\x5Cu00c3\\x5Cu00a9
            str(é),json(utf8) => str:\\x5Cu00e9
            str(日本),json(utf8) => str:\\x5Cu65e5\\x5Cu672c
            str(😀),json(utf8) => none
            str(😀),json(utf8s) => str:
            str(😀),json(ascii) => str:\\x5Cu00f0\\x5Cu009f\\x5Cu0098\\x5Cu0080
            str(\\x01),json => str:\\x5C\\x5Cx01
            str('\\t\\r\\n'),json => str:\\x5C\\x5Ct\\x5C\\x5Cr\\x5C\\x5Cn
            str(gA==),b64dec,json(utf8) => none
            str(gA==),b64dec,json(utf8s) => str:
            str(gA==),b64dec,json(utf8p) => none
            str(gA==),b64dec,json(utf8ps) => str:
            str(gA==),b64dec,json(ascii) => str:\\x5Cu0080
            str(YcCB),b64dec,json(utf8) => none
            str(YcCB),b64dec,json(utf8p) => str:a\\x5Cu0001
            str(YcCB),b64dec,json(utf8ps) => str:a\\x5Cu0001
            str(YcCBYg==),b64dec,json(utf8s) => str:ab
            str(7aCA),b64dec,json(utf8) => none
            str(7aCA),b64dec,json(utf8s) => str:
            str(7aCA),b64dec,json(utf8p) => none
            str(4oKs),b64dec,json(utf8) => str:\\x5Cu20ac
            str(f38=),b64dec,json => str:\\x5Cu007f\\x5Cu007f
            str(CAwKDQkffw==),b64dec,json => str:\\x5Cb\\x5Cf\\x5Cn\\x5Cr\\x5Ct\\x5Cu001f\\x5Cu007f
            str(CAwKDQkffw==),b64dec,json(utf8s) => str:\\x5Cb\\x5Cf\\x5Cn\\x5Cr\\x5Ct\\x5Cu001f\\x5Cu007f
            str(AQIfIA==),b64dec,json => str:\\x5Cu0001\\x5Cu0002\\x5Cu001f\\x20
            str(YWIAY2Q=),b64dec,json => str:ab
            str('<>&'),json => str:<>&
            str(w4E=),b64dec,json(utf8) => str:\\x5Cu00c1
            str(w4E=),b64dec,json => str:\\x5Cu00c3\\x5Cu0081
            str(7/+/),b64dec,json(utf8) => none
            str(9JCAgA==),b64dec,json(utf8) => none
            str(9JCAgA==),b64dec,json(utf8s) => str:
            str(9JCAgA==),b64dec,json(utf8ps) => str:
            str(4IA=),b64dec,json(utf8) => none
            str(4IA=),b64dec,json(utf8s) => str:
            str(4IA=),b64dec,json(utf8ps) => str:
            str(4ICA),b64dec,json(utf8p) => str:\\x5Cu0000
            str(8ICAgA==),b64dec,json(utf8p) => str:\\x5Cu0000
            str(+A==),b64dec,json(utf8s) => str:
            str(+A==),b64dec,json(ascii) => str:\\x5Cu00f8
            str(),json => str:
            str(w0E=),b64dec,json(utf8s) => str:A
            str(w0E=),b64dec,json(utf8ps) => str:A
            str(w0E=),b64dec,json(utf8p) => none
            str(4oJB),b64dec,json(utf8s) => str:A
            str(4oJB),b64dec,json(utf8ps) => str:A
            str(4oJB),b64dec,json(utf8p) => none
            str(8EE=),b64dec,json(utf8s) => str:A
            str(8EE=),b64dec,json(utf8ps) => str:A
            str(8EE=),b64dec,json(utf8p) => none
            str(gEE=),b64dec,json(utf8s) => str:A
            str(gEE=),b64dec,json(utf8ps) => str:A
            str(gEE=),b64dec,json(utf8p) => none
            str(4A==),b64dec,json(utf8s) => str:
            str(4A==),b64dec,json(utf8ps) => str:
            str(4A==),b64dec,json(utf8p) => none
            str(ww==),b64dec,json(utf8s) => str:
            str(ww==),b64dec,json(utf8ps) => str:
            str(ww==),b64dec,json(utf8p) => none
            str(4oI=),b64dec,json(utf8s) => str:
            str(4oI=),b64dec,json(utf8ps) => str:
            str(4oI=),b64dec,json(utf8p) => none
            str(wK8=),b64dec,json(utf8s) => str:
            str(wK8=),b64dec,json(utf8ps) => str:\\x5C/
            str(wK8=),b64dec,json(utf8p) => str:\\x5C/
            str(7Z+/),b64dec,json(utf8s) => str:\\x5Cud7ff
            str(7Z+/),b64dec,json(utf8ps) => str:\\x5Cud7ff
            str(7Z+/),b64dec,json(utf8p) => str:\\x5Cud7ff
            str(7oCA),b64dec,json(utf8s) => str:\\x5Cue000
            str(7oCA),b64dec,json(utf8ps) => str:\\x5Cue000
            str(7oCA),b64dec,json(utf8p) => str:\\x5Cue000
            str(77++),b64dec,json(utf8s) => str:
            str(77++),b64dec,json(utf8ps) => str:
            str(77++),b64dec,json(utf8p) => none
            str(77+9),b64dec,json(utf8s) => str:\\x5Cufffd
            str(77+9),b64dec,json(utf8ps) => str:\\x5Cufffd
            str(77+9),b64dec,json(utf8p) => str:\\x5Cufffd
            str(9I+/vw==),b64dec,json(utf8s) => str:
            str(9I+/vw==),b64dec,json(utf8ps) => str:
            str(9I+/vw==),b64dec,json(utf8p) => none
            str(8JCAgA==),b64dec,json(utf8s) => str:
            str(8JCAgA==),b64dec,json(utf8ps) => str:
            str(8JCAgA==),b64dec,json(utf8p) => none
            str(wb8=),b64dec,json(utf8s) => str:
            str(wb8=),b64dec,json(utf8ps) => str:\\x5Cu007f
            str(wb8=),b64dec,json(utf8p) => str:\\x5Cu007f
            str(4ICA),b64dec,json(utf8s) => str:
            str(4ICA),b64dec,json(utf8ps) => str:\\x5Cu0000
            str(4ICA),b64dec,json(utf8p) => str:\\x5Cu0000
            str(wg==),b64dec,json(utf8s) => str:
            str(wg==),b64dec,json(utf8ps) => str:
            str(wg==),b64dec,json(utf8p) => none
            str(+ICAgA==),b64dec,json(utf8s) => str:
            str(+ICAgA==),b64dec,json(utf8ps) => str:
            str(+ICAgA==),b64dec,json(utf8p) => none
            str(/kE=),b64dec,json(utf8s) => str:A
            str(/kE=),b64dec,json(utf8ps) => str:A
            str(/kE=),b64dec,json(utf8p) => none
            str(/w==),b64dec,json(utf8s) => str:
            str(/w==),b64dec,json(utf8ps) => str:
            str(/w==),b64dec,json(utf8p) => none
            str('{"a":1}'),json_query('$.a') => str:1
            str('{"a":1}'),json_query('$.a','int') => sint:1
            str('{"a":1.5}'),json_query('$.a') => str:1.5
            str('{"a":1.5}'),json_query('$.a','int') => sint:1
            str('{"a":-2}'),json_query('$.a') => str:-2
            str('{"a":1e3}'),json_query('$.a') => str:1000
            str('{"a":1e3}'),json_query('$.a','int') => sint:1
            str('{"a":123456789012}'),json_query('$.a') => str:1.23457e+11
            str('{"a":1234567}'),json_query('$.a') => str:1.23457e+06
            str('{"a":0.1}'),json_query('$.a') => str:0.1
            str('{"a":100000000000000000000}'),json_query('$.a') => str:1e+20
            str('{"a":100000000000000000000}'),json_query('$.a','int') => none
            str('{"a":9223372036854775807}'),json_query('$.a','int') => none
            str('{"a":-9223372036854775808}'),json_query('$.a','int') => none
            str('{"a":9223372036854775808}'),json_query('$.a','int') => none
            str('{"a":"x"}'),json_query('$.a') => str:x
            str('{"a":"x"}'),json_query('$.a','int') => str:x
            str('{"a":"x\\"y\\\\u00e9\\n"}'),json_query('$.a') => str:x"y\\x5Cu00e9\\x0A
            str('{"a":"\\u263a"}'),json_query('$.a') => none
            str('{"a":true}'),json_query('$.a') => bool:1
            str('{"a":false}'),json_query('$.a') => bool:0
            str('{"a":null}'),json_query('$.a') => none
            str('{"a":[1,2]}'),json_query('$.a') => none
            str('{"a":{"b":2}}'),json_query('$.a') => none
            str('{"a":{"b":2}}'),json_query('$.a.b') => str:2
            str('{"a":[1,{"c":3}]}'),json_query('$.a[1].c') => str:3
            str('{"a":[1,{"c":3}]}'),json_query('$.a[0]') => str:1
            str('{"a":[1,{"c":3}]}'),json_query('$.a[2]') => none
            str('[10,20]'),json_query('$[1]') => str:20
            str('{"my.key":"v"}'),json_query('$.my\\\\.key') => none
            str('{"my.key":"v"}'),json_query('$.my.key') => none
            str('{"a":1,"a":2}'),json_query('$.a') => str:1
            str('{"b":{"a":5},"a":1}'),json_query('$.a') => str:1
            str('{"a":1}'),json_query('$') => none
            str('{"a":1}'),json_query('$.b') => none
            str('{"a":1'),json_query('$.a') => str:1
            str('{"a":1,}'),json_query('$.a') => str:1
            str('{"a" : 1 }'),json_query('$.a') => str:1
            str('not json'),json_query('$.a') => none
            str('{"a":"x"}'),json_query('a') => none
            str('{"a":"x"}'),json_query('.a') => none
            str('{"a":1}'),json_query('$.a','int'),add(1) => sint:2
            str('{"integer":4}'),json_query('$.integer','int'),add(1) => sint:5
            str('{"boolean-false":false}'),json_query('$.boolean-false') => bool:0
            str('{"a":"é"}'),json_query('$.a') => str:\\xC3\\xA9
            str('{"a":"\\ud83d\\ude00"}'),json_query('$.a') => none
            str('{"a":01}'),json_query('$.a') => str:1
            str('{"a":-0}'),json_query('$.a','int') => sint:0
            str('{"a":2.5e-3}'),json_query('$.a') => str:0.0025
            str('{"a":1e300}'),json_query('$.a') => str:1e+300
            str('{"a":123456}'),json_query('$.a') => str:123456
            str('{"a":1.0}'),json_query('$.a','int') => sint:1
            str('{"a":1.99}'),json_query('$.a','int') => sint:1
            str('{"a":-1.99}'),json_query('$.a','int') => sint:-1
            str('{"a":[1,2,3]}'),json_query('$.a[-1]') => none
            str('{"a":"\\x"}'),json_query('$.a') => none
            str('{"a":"tab	here"}'),json_query('$.a') => str:tab\\x09here
            str('{"a b":1}'),json_query('$.a b') => str:1
            str('{"a":[[1,2],[3,4]]}'),json_query('$.a[1][0]') => str:3
            str('{"a":{"b":{"c":"deep"}}}'),json_query('$.a.b.c') => str:deep
            str('{"a":1}'),json_query('$.a.b') => none
            str('{"a":"\\u0041"}'),json_query('$.a') => str:A
            str('{"a":"\\u007f"}'),json_query('$.a') => str:\\x7F
            str('{"a":"\\u0080"}'),json_query('$.a') => str:\\x80
            str('{"a":"\\u00e9"}'),json_query('$.a') => str:\\xE9
            str('{"a":"\\u00E9"}'),json_query('$.a') => str:\\xE9
            str('{"a":"\\u0000x"}'),json_query('$.a') => str:\\x00x
            str('{"a":"\\b\\f\\r\\t\\/"}'),json_query('$.a') => none
            str('{"a":9007199254740991}'),json_query('$.a','int') => sint:9007199254740991
            str('{"a":9007199254740992}'),json_query('$.a','int') => none
            str('{"a":-9007199254740991}'),json_query('$.a','int') => sint:-9007199254740991
            str('{"a":-9007199254740992}'),json_query('$.a','int') => none
            str('{"a":010}'),json_query('$.a','int') => sint:8
            str('{"a":0x10}'),json_query('$.a','int') => sint:16
            str('{"a":0x10}'),json_query('$.a') => str:0
            str('{"my.key":"v"}'),json_query("$.my\\\\.key") => str:v
            str('{"my.key":"v"}'),json_query($.my\\\\.key) => str:v
            str('{"a":[1,2]}'),json_query('$.a[1') => str:2
            str('{"a":[1,2]}'),json_query('$.a[ 1]') => none
            str('{"a":1}'),json_query('$ .a') => none
            str('{"a":{"b":1}}'),json_query('$..b') => none
            str('{"a":1}'),json_query('$.*') => none
            str('{"a":1}'),json_query('$["a"]') => none
            str('{"a[0]":1}'),json_query('$.a[0]') => none
            str(' {"a":1}'),json_query('$.a') => str:1
            str('{"a":1} x'),json_query('$.a') => str:1
            str('{"a":"x","b":[1,2,{"c":[5]}]}'),json_query('$.b[2].c[0]') => str:5
            str('{"":1}'),json_query('$.') => str:1
            str('{"a":1.0}'),json_query('$.a') => str:1
            str('{"a":100}'),json_query('$.a') => str:100
            str('{"a":1e-5}'),json_query('$.a') => str:1e-05
            str('{"a":0.0001}'),json_query('$.a') => str:0.0001
            str('{"a":123456.5}'),json_query('$.a') => str:123456
            str('{"a":1234565}'),json_query('$.a') => str:1.23456e+06
            str('{"a":-0.0}'),json_query('$.a') => str:-0
            str('{"a":1E2}'),json_query('$.a') => str:100
            str('{"a":.5}'),json_query('$.a') => none
            str('{"a":+1}'),json_query('$.a') => none
            str('{"a":1.}'),json_query('$.a') => str:1
            str('{"a":tru}'),json_query('$.a') => none
            str('{"a":"x"'),json_query('$.a') => str:x
            str('{"a":"x'),json_query('$.a') => none
            str('{"a":1}'),json_query('$.A') => none
            str('{"a":{"b":1},"c":2}'),json_query('$.c') => str:2
            str('{"a":[{"b":1},{"b":2}]}'),json_query('$.a[1].b') => str:2
            str('{"a":"\\"quoted\\""}'),json_query('$.a') => str:"quoted"
            str('{"a":"\\b"}'),json_query('$.a') => str:\\x08
            str('{"a":"\\f"}'),json_query('$.a') => str:\\x0C
            str('{"a":"\\r"}'),json_query('$.a') => str:\\x0D
            str('{"a":"\\t"}'),json_query('$.a') => str:\\x09
            str('{"a":"\\/"}'),json_query('$.a') => none
            str('{"a":"\\n"}'),json_query('$.a') => str:\\x0A
            str('{"a":"\\\\"}'),json_query('$.a') => str:\\x5C
            str('{"a":"\\q"}'),json_query('$.a') => none
            str('{"a":"\\u00zz"}'),json_query('$.a') => str:3
            str('{"a":"\\u01"}'),json_query('$.a') => none
            str('{"a\\"b":1}'),json_query('$.a"b') => none
            str('{"a\\"b":1}'),json_query('$.a\\"b') => none
            str('{"a\\u0062":1}'),json_query('$.ab') => none
            str('{"a":{"b":1},"a":{"c":2}}'),json_query('$.a.c') => none
            str('{"x":[{"a":1}],"a":2}'),json_query('$.a') => str:2
            str('{"a":"\\q","b":1}'),json_query('$.b') => str:1
            str('{"a":[1,2}'),json_query('$.a[1]') => str:2
            str('{"a":[1,2}'),json_query('$.b') => none
            str('{"a":1 "b":2}'),json_query('$.b') => none
            str('{"a" 1,"b":2}'),json_query('$.b') => none
            str('{a:1}'),json_query('$.a') => none
            str('{"a":1}'),json_query('$.a.') => none
            str('{"a":1}'),json_query('$.a[0]') => none
            str('[1,[2,3]]'),json_query('$[1][1]') => str:3
            str('{"a":[1,2]}'),json_query('$.a[01]') => str:2
            str('{"a":[1,2]}'),json_query('$.a[1]x') => none
            str('{"a":[1,2]}'),json_query('$.a[1].') => none
            str('{"a":1}'),json_query('$a') => none
            str('"str"'),json_query('$') => str:str
            str('5'),json_query('$') => str:5
            str('true'),json_query('$') => bool:1
            str('{"a":-}'),json_query('$.a') => str:0
            str('{"a":-1e}'),json_query('$.a') => str:-1
            str('{"a":1e+}'),json_query('$.a') => str:1
            str('{"a":1.5e+2}'),json_query('$.a','int') => sint:1
            str('{"a":  42}'),json_query('$.a','int') => sint:42
            str('{"a":-0x1A}'),json_query('$.a','int') => sint:-26
            str('{"a":99999999999999999999}'),json_query('$.a','int') => none
            str('[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]'),json_query('$[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]') => str:1
            str('[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]'),json_query('$[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]') => str:1
            str('[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]'),json_query('$[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]') => str:1
            str('[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]'),json_query('$[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]') => none
            str('[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]'),json_query('$[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]') => none
            str('{"a":[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]],"b":1}'),json_query('$.b') => none
            str(eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyLCJhZG1pbiI6dHJ1ZX0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c),jwt_header_query('$.alg') => str:HS256
            str(eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyLCJhZG1pbiI6dHJ1ZX0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c),jwt_payload_query('$.name') => str:John Doe
            str(eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyLCJhZG1pbiI6dHJ1ZX0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c),jwt_payload_query('$.iat','int') => sint:1516239022
            str(eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyLCJhZG1pbiI6dHJ1ZX0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c),jwt_payload_query('$.admin') => bool:1
            str(eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyLCJhZG1pbiI6dHJ1ZX0),jwt_payload_query('$.sub') => str:1234567890
            str(eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9),jwt_header_query('$.alg') => str:HS256
            str(eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.),jwt_header_query('$.alg') => str:HS256
            str(eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyLCJhZG1pbiI6dHJ1ZX0.x.y),jwt_payload_query('$.sub') => str:1234567890
            str(@@@.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyLCJhZG1pbiI6dHJ1ZX0.x),jwt_payload_query('$.sub') => str:1234567890
            # haproxy 2.6.12 gives nothing without a path, where its documentation promises the decoded part.
            str(eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyLCJhZG1pbiI6dHJ1ZX0.sig),jwt_header_query => str:{"alg":"HS256","typ":"JWT"}
            """;
    }

    @Override
    String errors() {
        return """
            str(a),jwt_header_query(,x) => invalid args in converter 'jwt_header_query' : output_type only supports "int" as argument
            str(a),jwt_header_query($.a,int,x) => invalid arg 2 in converter 'jwt_header_query' : expected ')' before ',x)'
            str(a),json_query($.a,x) => invalid args in converter 'json_query' : output_type only supports "int" as argument
            str(a),json_query => invalid args in converter 'json_query' : json_path must not be empty
            str(a),json(x) => invalid args in converter 'json' : Unexpected input code type. Allowed value are 'ascii', 'utf8', 'utf8s', 'utf8p' and 'utf8ps'
            str(a),json(UTF8) => invalid args in converter 'json' : Unexpected input code type. Allowed value are 'ascii', 'utf8', 'utf8s', 'utf8p' and 'utf8ps'
            str(a),json(utf8,x) => invalid arg 2 in converter 'json' : expected ')' before ',x)'
            """;
    }
}
