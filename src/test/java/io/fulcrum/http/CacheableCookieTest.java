package io.fulcrum.http;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code option checkcache}'s verdicts. The expectations are HAProxy 2.6.12's, found by sending each response through it
 * for each method (GET, HEAD, OPTIONS and TRACE behave alike; POST and DELETE alike).
 */
class CacheableCookieTest {

    @ParameterizedTest(name = "{0} {1} | {2}: blocked on GET {3}, on POST {4}")
    @CsvSource(delimiter = '|', textBlock = """
            200 | Set-Cookie: a=1                                                              | no fresh info       | false | false
            200 | Set-Cookie: a=1;Cache-Control: max-age=60                                    | max-age             | true  | false
            200 | Set-Cookie: a=1;Expires: Thu, 01 Dec 2094 16:00:00 GMT                       | expires             | true  | false
            200 | Set-Cookie: a=1;Last-Modified: Thu, 01 Dec 2004 16:00:00 GMT                 | validator           | true  | false
            200 | Set-Cookie: a=1;ETag: "x"                                                    | etag                | true  | false
            200 | Set-Cookie: a=1;Cache-Control: public                                        | public alone        | false | false
            200 | Set-Cookie: a=1;Cache-Control: public, max-age=60                            | public              | true  | true
            302 | Set-Cookie: a=1;Cache-Control: public, max-age=60;Location: /x               | public 302          | true  | true
            500 | Set-Cookie: a=1;Cache-Control: public;Expires: Thu, 01 Dec 2094 16:00:00 GMT | public 500          | true  | true
            302 | Set-Cookie: a=1;Cache-Control: max-age=60;Location: /x                       | 302                 | false | false
            404 | Set-Cookie: a=1;Cache-Control: max-age=60                                    | 404                 | true  | false
            204 | Set-Cookie: a=1;Cache-Control: max-age=60                                    | 204                 | true  | false
            203 | Set-Cookie: a=1;Cache-Control: max-age=60                                    | 203                 | true  | false
            201 | Set-Cookie: a=1;Cache-Control: max-age=60                                    | 201                 | false | false
            410 | Set-Cookie: a=1;Cache-Control: max-age=60                                    | 410                 | true  | false
            200 | Set-Cookie: a=1;Cache-Control: max-age=60;Pragma: no-cache                   | pragma              | false | false
            200 | Set-Cookie: a=1;Cache-Control: max-age=60;Pragma: No-Cache                   | pragma case         | false | false
            200 | Set-Cookie: a=1;Cache-Control: max-age=60;Pragma: foo, no-cache              | pragma list         | true  | false
            200 | Set-Cookie: a=1;Cache-Control: public, max-age=60;Pragma: no-cache           | pragma public       | false | false
            200 | Set-Cookie: a=1;Cache-Control: max-age=60, no-cache="set-cookie"             | no-cache cookie     | false | false
            200 | Set-Cookie: a=1;Cache-Control: max-age=60, no-cache="set-cookie,foo"         | no-cache cookie+    | false | false
            200 | Set-Cookie: a=1;Cache-Control: max-age=60, No-Cache="Set-Cookie"             | no-cache case       | false | false
            200 | Set-Cookie: a=1;Cache-Control: max-age=60, no-cache="foo,set-cookie"         | no-cache other      | true  | false
            200 | Set-Cookie: a=1;Cache-Control: max-age=60, no-cache                          | no-cache            | false | false
            200 | Set-Cookie: a=1;Cache-Control: max-age=60, private                           | private             | false | false
            200 | Set-Cookie: a=1;Cache-Control: private, public, max-age=60                   | public after        | true  | true
            200 | Set-Cookie: a=1;Cache-Control: public, private, max-age=60                   | private after       | false | false
            200 | Set-Cookie: a=1;Cache-Control: max-age=60;Cache-Control: private             | two fields          | false | false
            200 | Set-Cookie: a=1;Cache-Control: max-age=0                                     | max-age=0           | false | false
            200 | Set-Cookie: a=1;Cache-Control: max-age=0;Expires: Thu, 01 Dec 2094 16:00:00 GMT | max-age=0 expires | false | false
            200 | Set-Cookie: a=1;Cache-Control: s-maxage=0, public                            | s-maxage=0          | false | false
            200 | Set-Cookie: a=1;Cache-Control: no-store, public                              | no-store            | false | false
            200 | Set-Cookie: a=1;Cache-Control: MAX-AGE=60                                    | case                | true  | false
            200 | Set-Cookie: a=1;Cache-Control: s-maxage=60                                   | s-maxage            | true  | false
            200 | Set-Cookie: a=1;Cache-Control: max-age=00                                    | max-age=00          | true  | false
            200 | Set-Cookie2: a=1;Cache-Control: max-age=60                                   | set-cookie2         | true  | false
            200 | Set-Cookie:;Cache-Control: max-age=60                                        | empty cookie        | true  | false
            200 | Cache-Control: public, max-age=60                                            | no cookie           | false | false
            """)
    void blocksAsHaproxy(int status, String fields, String what, boolean onGet, boolean onPost) {
        StringBuilder head = new StringBuilder("HTTP/1.1 ").append(status).append(" X\r\n");
        for (String f : fields.split(";")) {
            head.append(f).append("\r\n");
        }
        head.append("Content-Length: 0\r\n\r\n");
        ResponseHead response = Messages.response(head.toString());
        for (String m : new String[] {"GET", "HEAD", "OPTIONS", "TRACE"}) {
            assertThat(CacheableCookie.leaks(Messages.request(m + " / HTTP/1.1\r\nHost: a\r\n\r\n"), response)).as(m).isEqualTo(onGet);
        }
        for (String m : new String[] {"POST", "DELETE"}) {
            assertThat(CacheableCookie.leaks(Messages.request(m + " / HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n"), response)).as(m)
                    .isEqualTo(onPost);
        }
    }
}
