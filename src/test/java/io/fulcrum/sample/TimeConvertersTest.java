package io.fulcrum.sample;

import org.junit.jupiter.api.Test;

import java.time.ZoneId;
import java.time.ZoneOffset;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Expected values and messages come from haproxy 2.6.12, unless a comment says otherwise. */
class TimeConvertersTest extends ConverterTableTest {
    private static final ZoneId PARIS = ZoneId.of("Europe/Paris");

    /** haproxy 2.6.12 run with TZ=Europe/Paris (tools/sample-diff.py), and glibc's strftime for New York. */
    @Test
    void localZone() {
        assertEquals("0 +0100 CET", TimeConverters.format("%s %z %Z", 0, PARIS, PARIS));
        assertEquals("1711846800 +0200 CEST", TimeConverters.format("%s %z %Z", 1711846800, PARIS, PARIS));
        // utime's %s is the UTC time read as the local standard time, as glibc's mktime() reads gmtime()'s
        assertEquals("-3600 +0000 GMT", TimeConverters.format("%s %z %Z", 0, ZoneOffset.UTC, PARIS));
        assertEquals("1711843200 +0000 GMT", TimeConverters.format("%s %z %Z", 1711846800, ZoneOffset.UTC, PARIS));
        assertEquals("1720018000", TimeConverters.format("%s", 1720000000, ZoneOffset.UTC, ZoneId.of("America/New_York")));
        assertEquals("1700000000 2023-11-14", TimeConverters.format("%s %F", 1700000000, ZoneOffset.UTC, ZoneOffset.UTC));
    }

    @Override
    String results() {
        return """
            int(0),utime(%Y-%m-%d %H:%M:%S) => str:1970-01-01 00:00:00
            int(1700000000),utime(%Y-%m-%dT%H:%M:%S) => str:2023-11-14T22:13:20
            int(1700000000),utime(%a %A %b %B %c) => str:Tue Tuesday Nov November Tue Nov 14 22:13:20 2023
            int(1700000000),utime(%C %d %D %e %F %g %G %h) => str:20 14 11/14/23 14 2023-11-14 23 2023 Nov
            int(1700000000),utime(%H %I %j %k %l %m %M %n %p %P) => str:22 10 318 22 10 11 13 \\x0A PM pm
            int(1700000000),utime(%r %R %s %S %t %T %u %U %V %w %W) => str:10:13:20 PM 22:13 1700000000 20 \\x09 22:13:20 2 46 46 2 46
            int(1700000000),utime(%x %X %y %Y %z %Z %%) => str:11/14/23 22:13:20 23 2023 +0000 GMT %
            int(1700000000),utime(%E %O %q %Q %i %J %K %L %N %o %f %v %1 %+) => str:%E %O %q %Q %i %J %K %L %N %o %f %v %1 %+
            int(1700000000),utime(%Ey %Od %-d %_d %05d) => str:23 14 14 14 00014
            int(1700000000),utime(%) => str:%
            int(1700000000),utime(abc) => str:abc
            int(1700000000),utime() => str:
            int(1700000000),utime(%s,3600) => str:1700003600
            int(1700000000),utime(%s,-1700000001) => str:-1
            int(253402300800),utime(%Y-%m-%d) => str:10000-01-01
            str(1700000000),utime(%s) => str:1700000000
            int(1700000000),ltime(%s) => str:1700000000
            # ltime uses the local time zone, whatever it is where the tests run: only %s does not depend on it.
            int(1700000000),http_date => str:Tue, 14 Nov 2023 22:13:20 GMT
            int(1700000000),http_date(3600) => str:Tue, 14 Nov 2023 23:13:20 GMT
            int(1700000000123),http_date(0,ms) => str:Tue, 14 Nov 2023 22:13:20.123 GMT
            int(1700000000123456),http_date(0,us) => str:Tue, 14 Nov 2023 22:13:20.123456 GMT
            int(1700000000123),http_date(1000,ms) => str:Tue, 14 Nov 2023 22:13:21.123 GMT
            int(1700000000),http_date(0,s) => str:Tue, 14 Nov 2023 22:13:20 GMT
            int(0),http_date => str:Thu, 01 Jan 1970 00:00:00 GMT
            int(253402300800),http_date => str:Sat, 01 Jan 10000 00:00:00 GMT
            int(1699999999),utime(%G-W%V-%u %U %W %j) => str:2023-W46-2 46 46 318
            int(1704067200),utime(%G-W%V-%u %U %W %j %g) => str:2024-W01-1 00 01 001 24
            int(1703980800),utime(%G-W%V-%u %U %W %j %g %a) => str:2023-W52-7 53 52 365 23 Sun
            int(1700000000),utime(%I %l %p at 00) => str:10 10 PM at 00
            int(1699920000),utime(%I %l %p %r) => str:12 12 AM 12:00:00 AM
            int(1699963200),utime(%I %l %p %r) => str:12 12 PM 12:00:00 PM
            # haproxy keeps the date's low 55 bits: negative dates are in the year 1141709097
            int(-1),utime(%Y-%m-%d %H:%M:%S) => str:1141709097-06-13 06:26:07
            int(-1),utime(%s) => str:36028797018963967
            int(-1),ltime(%s) => str:36028797018963967
            int(-1),utime(%s,-5) => str:36028797018963962
            int(5),utime(%s,-10) => str:-5
            int(-123),utime(%%%a%b%j%Z%z%C%G) => str:%SunJun164GMT+0000114170901141709097
            int(36028797018963967),utime(%Y %s %F %c) => str:1141709097 36028797018963967 1141709097-06-13 Sun Jun 13 06:26:07 1141709097
            int(36028797018963968),utime(%s) => str:0
            int(9223372036854775807),utime(%Y) => str:1141709097
            int(-1),http_date => str:Sun, 13 Jun 1141709097 06:26:07 GMT
            int(-1001),http_date => str:Sun, 13 Jun 1141709097 06:09:27 GMT
            int(9223372036854775807),http_date => str:Sun, 13 Jun 1141709097 06:26:07 GMT
            int(36028797018963968),http_date => str:Thu, 01 Jan 1970 00:00:00 GMT
            int(9223372036854775807),http_date(1) => str:Thu, 01 Jan 1970 00:00:00 GMT
            int(-9223372036854775808),http_date(-1,ms) => str:Sun, 17 Aug 292278994 07:12:55.807 GMT
            int(-1),http_date(0,ms) => str:Thu, 01 Jan 1970 00:00:00.-1 GMT
            int(-1001),http_date(0,us) => str:Thu, 01 Jan 1970 00:00:00.-1001 GMT
            int(-9223372036854775808),http_date(0,ms) => str:Wed, 26 Oct 849432072 23:13:13.-808 GMT
            # Fulcrum zero-pads the fraction, which 2.6.12 writes as "%d" (".5", ".12345"): docs/differences.md
            int(1234567890005),http_date(0,ms) => str:Fri, 13 Feb 2009 23:31:30.005 GMT
            int(1234567890012345),http_date(0,us) => str:Fri, 13 Feb 2009 23:31:30.012345 GMT
            """;
    }

    @Override
    String errors() {
        return """
            int(1),http_date(0,x) => invalid args in converter 'http_date' : expects 's', 'ms' or 'us', got 'x'
            int(1),http_date(x) => invalid arg 1 in converter 'http_date' : failed to parse 'x' as type 'integer' at position 1
            int(1),http_date(0,ms,1) => invalid arg 2 in converter 'http_date' : expected ')' before ',1)'
            int(1),utime(%Y,x) => invalid arg 2 in converter 'utime' : failed to parse 'x' as type 'integer' at position 2
            int(1),ltime(%Y,1,2) => invalid arg 2 in converter 'ltime' : expected ')' before ',2)'
            ipv6(::1),utime(%Y) => converter 'utime' cannot be applied
            """;
    }
}
